#pragma once
// Encoding side conditions against placements: a word whose immediate
// depends on a symbolic address is valid only where its conditions hold
// (j/jal region, branch reach, lui reach). A condition that fails for some
// placement the constraints allow is a relocation overflow.
#include <z3++.h>

#include <string>
#include <vector>

namespace patchcheck {

struct FailedCondition {
  size_t index;    // into the conditions given
  z3::model where;  // a placement where it fails
};

// One question when every condition holds everywhere (the common case),
// then one per condition.
std::vector<FailedCondition> failingConditions(z3::context&, const std::vector<z3::expr>& constraints,
                                               const std::vector<z3::expr>& conditions);

}  // namespace patchcheck
