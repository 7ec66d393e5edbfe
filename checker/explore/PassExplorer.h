#pragma once
// Enumerates the executions of one pass through the site while the writer
// runs its steps (docs/model.md): which version each fetch sees (the fetch
// model decides what is allowed), where interrupts land, which way symbolic
// branches go and where the pass leaves. Executions that fetch the same word
// sequence are one path; each path is one Z3 query: can it end outside the
// allowed behaviours? The first satisfiable one becomes a counterexample,
// replayed through the concrete semantics before it is reported.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checker/explore/Behaviour.h"
#include "checker/explore/Budget.h"
#include "checker/explore/FetchChoices.h"
#include "checker/explore/FetchModel.h"
#include "checker/explore/Kprobes.h"
#include "checker/explore/Limits.h"
#include "checker/explore/Prover.h"
#include "checker/explore/SiteInstance.h"
#include "checker/explore/Verdict.h"

namespace patchcheck {

struct PassSetup {
  const SiteInstance* site = nullptr;
  // Per word of the site region (site words, then body words): the images
  // each version holds; version 0 is the word before the transition.
  std::vector<std::vector<UnitImage>> versions;
  std::vector<std::vector<std::string>> versionNames;  // "old", "new", "interim"
  const Timeline* timeline = nullptr;
  const FetchModel* fetch = nullptr;
  BehaviourSpec allowed;
  bool delaySlotInterrupts = true;
  bool unpredictableAsHardware = false;  // [model] unpredictable = "hardware"
  // The trampolines' proven contracts by entry key ("ftrace_caller+8"). A
  // pass that reaches an entry is checked against its contract (modular),
  // or, with inlineTrampolines, runs the trampoline's code (the site's
  // SiteInstance::trampolines()) and goes on from where it resumes.
  const std::map<std::string, TrampolineContract>* contracts = nullptr;
  bool inlineTrampolines = false;
  bool trackReached = false;  // record which allowed alternatives some path takes
  // Only look for one execution whose path condition is satisfiable (that
  // the site's contents admit any pass at all); judge nothing.
  bool witnessOnly = false;
  Budget budget;
  FetchChoices fetchChoices = FetchChoices::Auto;
  unsigned maxSteps = kDefaultMaxSteps;  // per pass (and per inline trampoline run)
  // A byte site's breakpoint protocol (x86 text_poke_bp): the units where
  // the transition writes the breakpoint, each with the instruction of
  // `to` that starts there (what the handler emulates), and what the
  // handler does ([model] int3_handler).
  std::map<unsigned, std::shared_ptr<const UnitImage>> breakpoints;
  ModelSpec::Breakpoint breakpointHandler = ModelSpec::Breakpoint::Emulate;
  // A byte site's units where an instruction of some state the pass may
  // see (from, to, an interim) starts. A pass that decodes from any other
  // unit runs bytes as code that nobody wrote as code there (the tail of a
  // torn instruction, a resume in the middle of a new one): a hazard. Empty
  // on word sites.
  std::set<unsigned> instructionStarts;
  // A byte site's units fetched with the unit before them when both are in
  // one instruction: the two lie in one aligned chunk the model fetches
  // atomically (FetchRules::atomicFetchBytes, F's alignment known) and
  // every step that writes one writes the other, so the k-th version of
  // each is the same store. Empty (none) elsewhere.
  std::vector<bool> fetchedWithPrevious;
  // The handler's vector stays published after the last step: the steps
  // are a prefix of the transition (synthesis), or the versions one moment
  // in its middle (a graph's intermediate state). Otherwise a breakpoint
  // still fetchable after the last step finds no handler.
  bool vectorOutlivesSteps = false;
  // kprobes ([model] kprobe): the site's probes, and which of them are
  // registered while the steps run and once they are done. A pass that
  // executes a registered probe's breakpoint runs the probed instruction
  // through the kprobe handler.
  const Kprobes* kprobes = nullptr;
  KprobeLife kprobeLife;
  // Further facts this exploration assumes (the placement's I-cache line
  // split under stale).
  std::vector<z3::expr> assumptions;
};

struct PassOutcome {
  Verdict verdict = Verdict::Safe;
  Counts counts;
  std::optional<Counterexample> counterexample;
  std::set<std::string> reached;  // OutcomeSpec::str() of alternatives taken
  bool witnessed = false;         // witnessOnly: a feasible execution was found
  std::string unknownReason;
  std::vector<std::string> notes;
};

PassOutcome explorePasses(const PassSetup&, Prover&);

}  // namespace patchcheck
