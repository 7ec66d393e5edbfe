#pragma once
// x86-64 control flow on the core's Cpu: no delay slots; a conditional
// branch whose condition is open waits in Cpu::slot until the executor
// decides it (IsaModel::undecided / decide), as on arm64. Instructions
// have lengths, so the slot keeps where the not-taken way goes: x86 has no
// delay slot to name, and Slot::branchPc holds the fall-through address.
#include <optional>
#include <vector>

#include "model/Cpu.h"
#include "model/Instruction.h"

namespace patchcheck::x86_64 {

// Executes the instruction fetched at cpu.pc and moves pc (a trap, int3
// or #UD, leaves pc at the instruction).
std::vector<Fault> step(Cpu&, const Instruction&);

// The condition of a Jcc that is neither plainly taken nor plainly not taken.
std::optional<z3::expr> undecided(const Cpu&);
void decide(Cpu&, bool taken);

}  // namespace patchcheck::x86_64
