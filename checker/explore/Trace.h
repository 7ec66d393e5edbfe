#pragma once
// The pieces of a counterexample every explorer shows the same way: an
// executed instruction as a trace line, and the entry registers.
#include <z3++.h>

#include <string>
#include <utility>
#include <vector>

#include "checker/explore/TrampolineRun.h"
#include "checker/spec/Evidence.h"
#include "encoder/Target.h"
#include "model/MachineState.h"

namespace patchcheck {

// The instruction `word` executed at `pc`, with their values in the model,
// disassembled by the target's plug-in; `origin` says where it came from.
TraceStep traceStep(const Target&, const z3::model&, const z3::expr& pc, const z3::expr& word,
                    std::string origin);

// A step of a trampoline run: an instruction, or the callback's call.
TraceStep traceStep(const Target&, const z3::model&, const TrampolineEvent&);

// Every general register of the entry state (but a hard-wired zero) by
// its ABI name, with its value in the model.
std::vector<std::pair<std::string, uint64_t>> entryRegisters(const MachineState& entry, const z3::model&);

}  // namespace patchcheck
