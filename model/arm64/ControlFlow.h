#pragma once
// A64 control flow on the core's Cpu: no delay slots; a conditional
// branch whose condition is open waits in Cpu::slot until the executor
// decides it (IsaModel::undecided / decide); with BTI enforced (variant
// arm64-bti) the instruction after an indirect branch must be a
// compatible landing pad.
#include <optional>
#include <vector>

#include "model/Cpu.h"
#include "model/arm64/Semantics.h"

namespace patchcheck::arm64 {

// Executes the word fetched at cpu.pc and moves pc. `bti`: branch target
// identification is enforced (a Branch Target exception, FaultKind::BranchTarget,
// when PSTATE.BTYPE is not 0 and the word is not a compatible landing pad).
std::vector<Fault> step(Cpu&, const Fetched&, bool bti);

// The condition of a conditional branch that is neither plainly taken nor
// plainly not taken.
std::optional<z3::expr> undecided(const Cpu&);
void decide(Cpu&, bool taken);

}  // namespace patchcheck::arm64
