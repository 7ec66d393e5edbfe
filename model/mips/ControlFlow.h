#pragma once
// MIPS control-flow rules on the core's Cpu: delay slots, branch-likely
// annulment, R6 forbidden slots, and interrupts at any instruction boundary
// (EPC = the branch when interrupted in its delay slot, so the branch is
// fetched and executed again after ERET).
#include <optional>
#include <vector>

#include "model/Cpu.h"
#include "model/mips/Semantics.h"

namespace patchcheck::mips {

// Executes the word fetched at cpu.pc and advances pc. Faults include the
// slot rules (a control transfer in a delay slot or forbidden slot). A
// branch-likely whose condition is open must be decided first.
std::vector<Fault> step(Cpu&, const Fetched&);

// Any branch in flight whose condition is symbolic (a delayed branch
// before its delay slot ends, or a compact branch whose forbidden slot is
// next): its condition.
std::optional<z3::expr> undecided(const Cpu&);
// Settling a compact branch moves pc to the target or the forbidden slot;
// settling a not-taken branch-likely skips its delay slot.
void decide(Cpu&, bool taken);
void interrupt(Cpu&);
bool inDelaySlot(const Cpu&);

}  // namespace patchcheck::mips
