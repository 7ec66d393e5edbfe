#pragma once
// What an allowed outcome requires where a pass leaves the site, as
// violation conditions over the entry state and the state at the exit.
// Each violation names the rule it breaks, so a counterexample can say
// "ra clobbered" rather than "sat".
#include <z3++.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "checker/spec/Spec.h"
#include "checker/spec/TrampolineContract.h"
#include "model/AbiModel.h"
#include "model/MachineState.h"

namespace patchcheck {

// A way to leave the site's behaviour: holds iff `when`.
struct Violation {
  z3::expr when;
  std::function<std::string(const z3::model&)> explain;
};

struct ExitContext {
  const MachineState& entry;
  const MachineState& now;
  const AbiModel& abi;
  z3::expr resumeAddress;  // F's body start
  std::function<std::string(uint64_t)> nameAddress;  // "F+0xc", "ftrace_caller"
};

// Registers that must hold their entry value (live ones), minus `except`,
// and memory at and above the entry sp.
std::vector<Violation> liveStateChanged(const ExitContext&, const std::vector<unsigned>& except);
std::vector<Violation> liveRegistersChanged(const ExitContext&, const std::vector<unsigned>& except);
std::vector<Violation> memoryChanged(const ExitContext&);

// The pass reached F's body: it must look as if the site did nothing.
std::vector<Violation> untracedViolations(const ExitContext&);
// The pass reached T's entry for `call T [with ...]`.
std::vector<Violation> callViolations(const ExitContext&, const OutcomeSpec&,
                                      const TrampolineContract* contract);
// The `with` conditions of `call T with ...`, on the state at T's entry.
std::vector<Violation> conditionViolations(const MachineState& atEntry, const OutcomeSpec&);
// The pass reached G's entry for `enter G`.
std::vector<Violation> enterViolations(const ExitContext&, const OutcomeSpec&);

// Holds iff every alternative is violated; explains each alternative.
Violation noneHolds(const std::vector<std::pair<std::string, std::vector<Violation>>>& alternatives,
                    z3::context&);

// A bit-vector's value in a model (completed where the model says nothing).
uint64_t valueIn(const z3::model&, const z3::expr&);

}  // namespace patchcheck
