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

// One question per group of 8 when every condition holds everywhere (the
// common case), then one per condition of a group that fails, to the prover that holds the placement
// constraints. A condition the solver cannot decide (under --timeout) is
// listed without a placement: it is not known to hold, so it is never taken
// as holding.
std::vector<FailedCondition> failingConditions(Prover&, const std::vector<z3::expr>& conditions);

// The same, where condition k belongs to a unit at `offsets[k]` bytes from
// `f` (none: not F-relative). Conditions that are one condition at
// different offsets (e[f := f + offset], the reach of each `jmp G` in a
// batch) are asked as one question, for a symbolic offset among theirs;
// only those it does not settle are asked as above.
std::vector<FailedCondition> failingConditions(Prover&, const std::vector<z3::expr>& conditions, const z3::expr& f,
                                               const std::vector<std::optional<int64_t>>& offsets);

}  // namespace patchcheck
