#pragma once
// The calling convention facts the checker needs (Linux MIPS o32, n32, n64;
// ../shared/FACTS.md): which registers are live at a function's entry, which
// a call may clobber, stack alignment; and the effect of calling an external
// C function such as the tracer callback.
#include <string>
#include <vector>

#include "model/MachineState.h"

namespace patchcheck::mips {

struct AbiModel {
  Abi abi;
  std::vector<unsigned> arguments;    // a0-a3 (o32) or a0-a7 (n32/n64)
  std::vector<unsigned> calleeSaved;  // s0-s7, s8/fp, gp (n32/n64: gp is callee-saved)
  std::vector<unsigned> liveAtEntry;  // arguments, sp, ra, gp, callee-saved
  std::vector<unsigned> dead;         // may change across a site: at, v0, v1, t*, k0, k1 ...
  unsigned stackAlign;                // 8 (o32) or 16 (n32/n64)
  unsigned slotBytes;                 // size of a saved register: 4 or 8
  unsigned pointerBytes;              // size of a C pointer: 4 (o32, n32) or 8 (n64)

  static AbiModel of(Abi);
  bool isLive(unsigned reg) const;
  // Keeps its value across a call to a kernel C function: callee-saved,
  // sp, and gp (Linux keeps thread_info in $28 under every ABI).
  bool preservedByCall(unsigned reg) const;

  // What every ABI-conformant kernel entry state satisfies: sp aligned to
  // stackAlign; under n32 (32-bit pointers in 64-bit registers) sp, ra and
  // gp are sign-extended 32-bit values; sp lies at least kStackMargin bytes
  // from where an address wraps (and, on 32-bit ISAs, changes sign). Every
  // proof (sites, trampolines, inline runs) assumes exactly these.
  z3::expr entryAssumptions(const MachineState&) const;
  static constexpr uint64_t kStackMargin = 0x10000;
};

// A call to an external C function `name` from `state`: caller-saved
// registers become fresh values, callee-saved registers and sp keep theirs,
// memory below sp may change, memory at and above sp does not. v0/v1 are
// fresh (the return value). `tag` makes the fresh names unique.
void callExternal(MachineState& state, const AbiModel&, const std::string& name, unsigned tag);

}  // namespace patchcheck::mips
