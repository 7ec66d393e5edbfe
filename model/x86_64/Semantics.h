#pragma once
// What one x86-64 instruction of the subset does, as Z3 terms (Intel SDM
// Vol. 2, each instruction's Operation and Flags Affected). Dispatch is by
// the row of model/x86_64/InstructionTable.h; an instruction no row
// accepts is #UD. Faults are explicit outcomes; docs/semantics-x86.md says
// what is modelled and why.
#include <z3++.h>

#include <vector>

#include "model/Cpu.h"
#include "model/Fault.h"
#include "model/MachineState.h"
#include "model/x86_64/Decoded.h"

namespace patchcheck::x86_64 {

struct StepEffect {
  Control control;           // Kind::Compact for every transfer (no delay slots)
  std::vector<Fault> faults;
  bool trapped = false;      // it did not complete (int3, #UD): pc stays at it
};

// Executes `d` at `pc` (its own address): applies register and memory
// effects to `state` and reports control flow and faults.
StepEffect execute(MachineState& state, const Decoded& d, const z3::expr& pc);

}  // namespace patchcheck::x86_64
