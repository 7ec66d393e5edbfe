#pragma once
// The calling-convention facts the checker needs of one ABI, as register
// numbers of the plug-in's register file (model/IsaModel.h): which
// registers are live at a function's entry, which a call may clobber, the
// stack rules.
#include <cstdint>
#include <string>
#include <vector>

namespace patchcheck {

struct AbiModel {
  std::string name;                   // "n64"
  std::vector<unsigned> arguments;    // in order (MIPS: a0-a3 under o32, a0-a7 under n32/n64)
  std::vector<unsigned> calleeSaved;
  std::vector<unsigned> liveAtEntry;  // arguments, sp, return address, callee-saved, fixed registers
  std::vector<unsigned> dead;         // general registers that may change across a site
  std::vector<unsigned> preserved;    // keep their value across a call to a kernel C function
  unsigned sp = 0;                    // the stack pointer
  unsigned link = 0;                  // the return-address register
  unsigned stackAlign = 16;           // sp alignment at a call
  unsigned slotBytes = 8;             // size of a saved register
  unsigned pointerBytes = 8;          // size of a C pointer
  unsigned homeBytes = 0;             // bytes at sp a callee may write (o32's home area: 16)

  bool isLive(unsigned reg) const;
  bool preservedByCall(unsigned reg) const;

  // A kernel stack never lies within this many bytes of either end of the
  // address space (nor, with 32-bit registers, of where a sign-extended
  // address flips): sp + k, |k| <= kStackMargin, never wraps.
  static constexpr uint64_t kStackMargin = 0x10000;
};

}  // namespace patchcheck
