#pragma once
// Encoding side conditions against placements: a word whose immediate
// depends on a symbolic address is valid only where its conditions hold
// (j/jal region, branch reach, lui reach). A condition that fails for some
// placement the constraints allow is a relocation overflow.
#include <z3++.h>

#include <optional>
#include <string>
#include <vector>

#include "checker/explore/Prover.h"

namespace patchcheck {

struct FailedCondition {
  size_t index;                    // into the conditions given
  std::optional<z3::model> where;  // a placement where it fails; none: the solver could not tell
};

// One question when every condition holds everywhere (the common case),
// then one per condition, to the prover that holds the placement
// constraints. A condition the solver cannot decide (under --timeout) is
// listed without a placement: it is not known to hold, so it is never taken
// as holding.
std::vector<FailedCondition> failingConditions(Prover&, const std::vector<z3::expr>& conditions);

}  // namespace patchcheck
