#pragma once
// What an F or D instruction does when sstatus.FS is on (the caller faults
// it otherwise: Semantics.cpp), as Z3 terms over the F/D state of the
// register file (RegisterFile.h): RISC-V Unprivileged ISA chapters "F"
// and "D". Loads, stores, moves, sign injection, fclass, compares and
// min/max on the bits, with NaN boxing of single-precision values (a
// single written to an f register has its upper 32 bits all ones; one read
// from a register that is not so boxed is the canonical NaN); arithmetic
// and conversions with Z3's floating-point theory, NaN results canonical,
// fflags exact (docs/model-riscv.md, "Floating point").
#include <string>
#include <vector>

#include "model/Fault.h"
#include "model/MachineState.h"
#include "model/riscv/Semantics.h"

namespace patchcheck::riscv {

// Applies the instruction's effects to `s` and returns its faults (a
// misaligned access, a dynamic rounding mode with frm invalid), each with
// the condition under which it happens; `text` names it in their details.
std::vector<Fault> executeFloat(MachineState& s, const Fetched& f, const Operands& o, const std::string& text);

// fflags (CSR 1), frm (2) and fcsr (3, frm << 5 | fflags) as a `bits`-bit
// register value, and a write of one (the fields' bits; the rest ignored).
z3::expr readFloatCsr(const MachineState&, unsigned csr, unsigned bits);
void writeFloatCsr(MachineState&, unsigned csr, const z3::expr& value);

}  // namespace patchcheck::riscv
