#pragma once
// Synthesis of safe write orders: which single-unit writes (and barriers
// between them) take the site from one state to another with every
// intermediate execution allowed. A best-first search over orders by cost
// (steps, then barrier weight); a prefix the checker finds unsafe is never
// extended, because every execution of the prefix is also one of each of
// its extensions. Each order reported is proven by a full checker run.
// On a byte site (x86) a unit is a byte, the one interim is int3 where an
// instruction of the target state starts, the one barrier sync_core, and
// the writes between two barriers are tried in address order only (the
// x86 model lets them land in any order).
#include "checker/explore/Progress.h"
#include <z3++.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checker/explore/Checker.h"
#include "checker/explore/SiteInstance.h"

namespace patchcheck {

struct SynthOptions {
  bool interim = false;       // also try interim words taken from the spec's other states (word sites)
  bool all = false;           // every minimal order, not just the first
  unsigned maxChecks = 4000;  // checker runs before the search gives up (undecided)
  CheckOptions check;         // timeout, contracts
  Progress* progress = nullptr;  // one item per candidate, of at most maxChecks
};

struct SafeOrder {
  std::vector<StepSpec> steps;  // ends with the final flush when publication needs it
  unsigned barriers = 0;        // sync/flush/wait steps, the final flush included
  TransitionResult proof;
};

// Why orders starting with one write fail: the cheapest unsafe prefix the
// search found under it.
struct FirstWriteFailure {
  std::string firstWrite;        // "write 1" or `write 2 = "li t0, 1"`
  std::vector<StepSpec> prefix;  // the failing prefix (or full order)
  Verdict verdict = Verdict::Unsafe;
  std::optional<Counterexample> counterexample;
  bool explored = false;         // false: the search stopped before reaching it
};

struct SynthResult {
  std::string transition;
  std::vector<SafeOrder> orders;          // the minimal ones, cheapest first
  std::vector<FirstWriteFailure> failures;  // filled when no order is found
  unsigned prefixesChecked = 0, ordersChecked = 0, pruned = 0;
  unsigned examined = 0;                  // candidate prefixes and orders considered
  bool undecided = false;                 // an UNKNOWN or the check budget stopped the proof of "none"
  std::string undecidedWhy;
};

// `transition` is a transition's name or "A->B" over the spec's states;
// when the spec declares that transition its `when` and `allow` apply, its
// steps do not. An A->B several named transitions share is an error.
std::variant<SynthResult, Diagnostics> synthesize(const SiteInstance&, const std::string& transition,
                                                  const SynthOptions&);

// "write 2, flush, write 1, flush"
std::string stepsText(const std::vector<StepSpec>&);

}  // namespace patchcheck
