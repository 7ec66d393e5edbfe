#pragma once
// A spec checked on several targets as independent jobs, one per target:
// its own checker run with its own Z3 context (contexts are not
// thread-safe), which makes the site once, proves the trampolines'
// contracts, then checks the states and each transition in spec order on
// one prover (SiteChecker). Results come back in the order `checkSpec`
// gives them, whatever the number of threads: no job shares anything with
// another.
#include <functional>
#include <variant>
#include <vector>

#include "checker/explore/Checker.h"
#include "checker/explore/Progress.h"

namespace patchcheck {

struct RunControl {
  unsigned jobs = 1;
  Progress* progress = nullptr;
};

// Which transitions to check on a target; all when empty.
using TransitionFilter = std::function<bool(const Target&, const TransitionSpec&)>;

// A spec and the targets to check it on.
struct SpecCheck {
  const Spec* spec;
  std::vector<Target> targets;
  CheckOptions options;
  TransitionFilter filter = {};
};

// Every target of every spec as one job on one pool of rc.jobs threads,
// the heaviest-looking first. Per spec, what checkTargets returns.
std::vector<std::variant<std::vector<SpecResult>, Diagnostics>> checkSpecs(const std::vector<SpecCheck>&,
                                                                           const RunControl&);

// One SpecResult per target, in the order given. The first input error (in
// target order) when any job finds one.
std::variant<std::vector<SpecResult>, Diagnostics> checkTargets(const Spec&, const std::vector<Target>&,
                                                                const CheckOptions&, const RunControl&,
                                                                const TransitionFilter& = {});

}  // namespace patchcheck
