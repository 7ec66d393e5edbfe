#pragma once
// The enumeration over many concrete scenarios of one transition or state,
// and the checker's verdicts against it:
//   - a SAFE verdict (state or transition) must survive `trials` random and
//     edge placements with random entry registers (and a SAFE state must
//     show each of its declared alternatives on some pass);
//   - an UNSAFE verdict's counterexample (its placement and entry registers)
//     must be reproduced: enumerating every interleaving at exactly that
//     placement and with those registers must find a violation.
#include <z3++.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "checker/explore/Verdict.h"
#include "checker/spec/Spec.h"
#include "tests/bruteforce/Executions.h"
#include "tests/bruteforce/Scenario.h"

namespace bruteforce {

struct Totals {
  uint64_t scenarios = 0, skipped = 0, worlds = 0, instructions = 0, passes = 0;
};

// What the enumeration found for one transition or state over all trials.
struct Finding {
  bool violation = false;
  std::string first;      // the first violation, with its placement
  std::string unreached;  // a state's declared alternative no pass took
  bool bounded = false;
  unsigned trials = 0;
  bool unsafe() const { return violation || !unreached.empty(); }
};

// `transition` null: the state `state` alone.
Finding explore(z3::context&, const patchcheck::Spec&, const mips::Target&, const patchcheck::TransitionSpec*,
                const std::string& state, unsigned trials, uint64_t seed, Totals&);

// The counterexample's placement and entry registers.
bool fromCounterexample(const patchcheck::Counterexample&, const patchcheck::Spec&, const mips::Target&,
                        Placement&, std::array<uint64_t, 32>&);

struct Disagreement {
  std::string item;  // "state X" or "from->to"
  std::string what;
};

struct Comparison {
  unsigned safeConfirmed = 0, unsafeReproduced = 0, unknown = 0, structural = 0;
  std::vector<Disagreement> disagreements;
};

Comparison compareWithChecker(z3::context&, const patchcheck::Spec&, const mips::Target&,
                              const patchcheck::SpecResult&, unsigned trials, uint64_t seed, Totals&);

}  // namespace bruteforce
