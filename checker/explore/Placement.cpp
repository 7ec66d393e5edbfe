#include "checker/explore/Placement.h"

namespace patchcheck {

std::vector<FailedCondition> failingConditions(Prover& prover, const std::vector<z3::expr>& conditions) {
  std::vector<FailedCondition> out;
  if (conditions.empty()) return out;
  z3::expr_vector all(conditions.front().ctx());
  for (const z3::expr& k : conditions) all.push_back(k);
  if (prover.check(!z3::mk_and(all)) == Answer::Unsat) return out;
  for (size_t k = 0; k < conditions.size(); ++k) {
    Answer a = prover.check(!conditions[k]);
    if (a == Answer::Sat) out.push_back({k, prover.model()});
    else if (a == Answer::Unknown) out.push_back({k, std::nullopt});
  }
  return out;
}

}  // namespace patchcheck
