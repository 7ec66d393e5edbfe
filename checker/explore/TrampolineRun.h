#pragma once
// Runs a trampoline's real words symbolically, from a CPU at one of its
// entries until control leaves the trampoline: the tracer callback is
// modelled by the ABI (caller-saved registers havocked, callee-saved kept,
// memory below sp changed), and the only way out allowed is the resume
// address. Symbolic branches (the regs/noregs mode test) fork. Used by the
// modular proof (checker/explore/TrampolineProof.h) and by `check
// --inline-trampolines`, where it runs inside each pass.
#include <z3++.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checker/explore/AddressFacts.h"
#include "checker/explore/Behaviour.h"
#include "checker/explore/Prover.h"
#include "checker/spec/TrampolineContract.h"
#include "model/Cpu.h"
#include "model/Effect.h"
#include "model/Executor.h"
#include "model/Instruction.h"

namespace patchcheck {

struct TrampolineUnit {
  int64_t offset = 0;  // bytes from the file's first unit (the symbol)
  Instruction fetched;
  std::string text;  // the source line
  SourceLocation where;
};

// One entry of a trampoline, assembled for one target and one spec.
struct TrampolineCode {
  TrampolineContract contract;
  z3::expr base;                      // address of the file's first word (= the symbol)
  std::vector<TrampolineUnit> words;
  std::map<std::string, z3::expr> symbols;  // the contract's own symbols (callback, data)
  std::vector<z3::expr> constraints;  // their placement; the code apart from the site
  // Where each constraint comes from and what it says (the contract's
  // symbol line, the trampoline's file): an unsatisfiable placement names them.
  std::vector<std::pair<SourceLocation, std::string>> origins;
  int64_t ipOffset = 0;               // ip = resume + ipOffset for this spec's function
  std::set<EffectKind> allowedEffects;  // the spec's [site] allow_effects
  std::optional<z3::expr> opsLiteral;   // CALL_OPS: the address of F's ops pointer
  // A word whose encoding the solver could not show to fit every placement
  // (why): not an input error, but nothing on the target is then proven.
  std::optional<std::string> encodingUndecided;

  z3::expr entry() const;
  // What a run may assume of F's entry state besides the ABI's entry
  // assumptions: the data the contract names (the ops pointer's home) is
  // kernel data, apart from the 64 KiB below F's sp where the trampoline
  // and the exception entry build frames.
  std::vector<ApartRanges> callerFacts(const MachineState& caller, const AbiModel&) const;
  z3::expr callback() const { return symbols.at(contract.callback.symbol); }
  // The direct trampoline a CALL_OPS trampoline may hand over to, if any.
  std::optional<z3::expr> direct() const {
    const auto& k = contract.callback.callOps;
    if (!k || k->direct.empty()) return std::nullopt;
    return symbols.at(k->direct);
  }
};

// What the site's caller gave and must get back.
struct CallerView {
  const MachineState* caller = nullptr;  // the state at F's entry
  z3::expr resume;                             // where the site resumes
  z3::expr ip;                                 // the traced ip the callback must get
  // Facts the run's `decide` holds without a path, for AddressFacts.
  std::vector<ApartRanges> apart = {};
};

// One thing the trampoline did, for counterexample traces.
struct TrampolineEvent {
  enum class Kind { Step, Callback, Settle };
  Kind kind = Kind::Step;
  std::optional<z3::expr> pc, word;
  const Instruction* fetched = nullptr;
  std::string origin;  // "ftrace_regs_caller+0x10"
  bool taken = false;  // Settle
};

struct TrampolineOutcome {
  std::vector<z3::expr> path;
  std::vector<Violation> violations;
  std::vector<TrampolineEvent> events;
  std::optional<Cpu> resumed;  // control reached the resume address
  bool handedOff = false;      // ... or a direct trampoline's entry (CALL_OPS)
  unsigned callbacks = 0;
  // The path ends where an instruction may fault: forked off the run,
  // which goes on where it does not (not counted as a path through).
  bool faulted = false;
  // Not a path but a gap: the solver could not decide a branch (or the run
  // hit its path budget), so some paths were not explored. Whoever runs
  // the trampoline must then answer UNKNOWN, never SAFE.
  std::optional<std::string> undecided;
};

// Runs through the one executor (model/Executor.h): `decide` answers its
// questions together with the caller's own facts; an execution that runs
// `maxSteps` instructions without leaving breaks the contract.
std::vector<TrampolineOutcome> runTrampoline(const TrampolineCode&, const Cpu& atEntry,
                                             const CallerView&, const Decide& decide, unsigned maxSteps);

// The same run on a model's values (the code, its symbols, the view): the
// path the model takes, or nothing when no path matches it.
std::optional<TrampolineOutcome> replayTrampoline(const TrampolineCode&, const Cpu& atEntry,
                                                  const CallerView&, const z3::model&, unsigned maxSteps);

// What a replay (`replayTrampoline` on the counterexample's model) says of
// the rule `broken` (a Violation's explain text): `reproduced` when the
// concrete run breaks that rule at that place with those values; the
// note says so, or what the run did instead.
std::string replayVerdict(const std::optional<TrampolineOutcome>&, const z3::model&, const std::string& broken,
                          bool& reproduced);

// "ftrace_regs_caller+0x10" for the trampoline's unit `word`.
std::string trampolineOrigin(const TrampolineCode&, size_t word);

}  // namespace patchcheck
