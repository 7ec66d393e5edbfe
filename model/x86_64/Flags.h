#pragma once
// The arithmetic flags as the Intel SDM defines them for each instruction
// of the subset (Vol. 1, 3.4.3.1 and Appendix A; Vol. 2, each
// instruction's "Flags Affected"). A flag the SDM leaves undefined is a
// fresh value (MachineState::fresh), so a proof holds for whatever the
// processor leaves there and a concrete run reads it as unknown.
#include <z3++.h>

#include <optional>

#include "model/MachineState.h"

namespace patchcheck::x86_64 {

// The flags one instruction writes; those left empty keep their value.
struct FlagUpdate {
  std::optional<z3::expr> cf, pf, af, zf, sf, of;
};

void apply(MachineState&, const FlagUpdate&);

// PF: the low byte of the result has an even number of ones.
z3::expr parity(const z3::expr& result);

// ADD/ADC (carry: a boolean, false for ADD): the sum and its flags.
z3::expr add(const z3::expr& a, const z3::expr& b, const z3::expr& carry, FlagUpdate&);
// SUB/SBB/CMP/NEG (borrow: a boolean, false but for SBB): a - b - borrow.
z3::expr subtract(const z3::expr& a, const z3::expr& b, const z3::expr& borrow, FlagUpdate&);
// AND/OR/XOR/TEST: CF and OF cleared, SF, ZF, PF by the result, AF undefined.
FlagUpdate logical(MachineState&, const z3::expr& result);

// SHL/SHR/SAR of `a` by a count already masked (5 or 6 bits, at a's width):
// the result, and the flags (unchanged when the count is 0; CF undefined
// for SHL/SHR when the count is at least the width, OF undefined unless the
// count is 1, AF undefined).
enum class Shift { Left, Logical, Arithmetic };
z3::expr shift(MachineState&, Shift, const z3::expr& a, const z3::expr& count, FlagUpdate&);

// Whether condition `cc` (its encoding in Jcc/CMOVcc/SETcc) holds.
z3::expr conditionHolds(const MachineState&, unsigned cc);

// The RFLAGS image pushf pushes (RF and VM clear, bit 1 set) and what popf
// makes of one.
z3::expr flagsImage(const MachineState&);
void loadFlags(MachineState&, const z3::expr& image, unsigned bits);

}  // namespace patchcheck::x86_64
