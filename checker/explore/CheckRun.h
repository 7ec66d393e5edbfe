#pragma once
// A spec checked on several targets as independent jobs: per target first
// one job that proves its trampolines' contracts, then one job for the
// states and one per transition, each its own checker run with its own Z3
// context (contexts are not thread-safe). Results come back in the order
// `checkSpec` gives them, whatever the number of threads.
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

// One SpecResult per target, in the order given. The first input error (in
// job order) when any job finds one.
std::variant<std::vector<SpecResult>, Diagnostics> checkTargets(const Spec&, const std::vector<Target>&,
                                                                const CheckOptions&, const RunControl&,
                                                                const TransitionFilter& = {});

}  // namespace patchcheck
