#pragma once
// Checks one spec on one target: each state alone has exactly its declared
// behaviour; each transition's steps end in `to`, and every execution of a
// pass while the writer runs them stays within the allowed behaviours.
// One Z3 context per run, owned by the caller.
#include <z3++.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "checker/explore/Budget.h"
#include "checker/explore/FetchChoices.h"
#include "checker/explore/Limits.h"
#include "checker/explore/Verdict.h"
#include "checker/spec/Spec.h"
#include "checker/spec/TrampolineContract.h"

namespace patchcheck {

struct CheckOptions {
  Limits limits;  // --timeout per query, --max-steps per execution
  std::optional<std::string> transition;  // only these: Spec::transitionsNamed
  bool statesOnly = false;
  std::map<std::string, TrampolineContract> contracts;  // trampoline contracts by entry key, with their proofs
  bool inlineTrampolines = false;  // run trampoline code inside each pass instead of using contracts
  bool prefix = false;  // synthesis: the steps may stop short of `to` (a prefix of an order)
  Budget budget;        // per exploration: past it, UNKNOWN
  FetchChoices fetchChoices = FetchChoices::Auto;  // --fetch-choices
};

std::variant<SpecResult, Diagnostics> checkSpec(const Spec&, const Target&, z3::context&,
                                                const CheckOptions&);

class SiteInstance;
// One state, or one transition that need not be in the spec (a worker of a
// parallel run, a candidate order in synthesis), on a site already made.
StateResult checkState(const SiteInstance&, const StateSpec&, const CheckOptions&);
std::variant<TransitionResult, Diagnostics> checkTransition(const SiteInstance&, const TransitionSpec&,
                                                            const CheckOptions&);

class SpecChecker;
// A site's states and transitions checked one after another on one prover:
// the site's facts are internalized once, and a question a later check
// asks again is answered from the earlier one (Prover.h).
class SiteChecker {
 public:
  SiteChecker(const SiteInstance&, const CheckOptions&);
  ~SiteChecker();
  StateResult state(const StateSpec&);
  std::variant<TransitionResult, Diagnostics> transition(const TransitionSpec&);

 private:
  std::unique_ptr<SpecChecker> checker_;
};

// The targets a spec runs on: its [target], or with `matrix` every matrix
// entry in both endians.
std::vector<Target> targetsOf(const Spec&, bool matrix);

}  // namespace patchcheck
