#pragma once
// RISC-V control flow on the core's Cpu: no delay slots; a conditional
// branch whose condition is open waits in Cpu::slot (Slot::branchPc holds
// the fall-through address, which depends on the branch's length) until
// the executor decides it (IsaModel::undecided / decide).
#include <optional>
#include <vector>

#include "model/Cpu.h"
#include "model/riscv/Semantics.h"

namespace patchcheck::riscv {

// What the target's variant provides (its ISA string: "c" for compressed).
Features featuresOf(const Target&);

// Executes the instruction fetched at cpu.pc and moves pc.
std::vector<Fault> step(Cpu&, const Fetched&);

// The condition of a conditional branch that is neither plainly taken nor
// plainly not taken.
std::optional<z3::expr> undecided(const Cpu&);
void decide(Cpu&, bool taken);

}  // namespace patchcheck::riscv
