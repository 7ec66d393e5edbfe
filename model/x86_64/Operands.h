#pragma once
// Reading and writing a decoded instruction's visible operands on the
// machine state, with x86-64's register rules: a 32-bit write zero-extends
// to 64 bits, an 8- or 16-bit write keeps the other bits (ah..bh are bits
// 15..8 of rax..rbx); memory is flat (segment bases 0; fs/gs operands never
// reach here, model/x86_64/InstructionTable.cpp) and little-endian.
#include <z3++.h>

#include <optional>

#include "model/MachineState.h"
#include "model/x86_64/Decoded.h"

namespace patchcheck::x86_64 {

// A general register as Zydis names it: which of the sixteen, its width and
// where it lies in the 64-bit register.
struct RegisterSlice {
  unsigned number;
  unsigned bits;
  unsigned low;  // 8 for ah, ch, dh, bh; else 0
};
RegisterSlice sliceOf(ZydisRegister);

z3::expr readRegister(const MachineState&, ZydisRegister);
void writeRegister(MachineState&, ZydisRegister, const z3::expr& value);

class Operands {
 public:
  // `pc` is the instruction's own address (rip-relative operands count from
  // the next one).
  Operands(MachineState& s, const Decoded& d, const z3::expr& pc);

  unsigned bits(unsigned i) const { return d_.operands[i].size; }
  bool isMemory(unsigned i) const { return d_.operands[i].type == ZYDIS_OPERAND_TYPE_MEMORY; }
  bool isImmediate(unsigned i) const { return d_.operands[i].type == ZYDIS_OPERAND_TYPE_IMMEDIATE; }
  // The value at the operand's size; an immediate at `immediateBits`
  // (extended as its encoding says). Memory is loaded once.
  z3::expr read(unsigned i, unsigned immediateBits = 0);
  void write(unsigned i, const z3::expr& value);
  // The effective address of a memory operand, 64-bit, computed when first
  // asked (pop to memory asks after rsp moved, as the SDM says).
  z3::expr address(unsigned i);
  // The address of the next instruction.
  z3::expr next() const;
  // A relative branch's target.
  z3::expr relativeTarget(unsigned i) const;

 private:
  MachineState& s_;
  const Decoded& d_;
  z3::expr pc_;
  std::optional<z3::expr> address_;  // one memory operand per instruction in the subset
  std::optional<z3::expr> loaded_;
};

}  // namespace patchcheck::x86_64
