#include "checker/explore/Placement.h"

namespace patchcheck {

std::vector<FailedCondition> failingConditions(z3::context& c, const std::vector<z3::expr>& constraints,
                                               const std::vector<z3::expr>& conditions) {
  std::vector<FailedCondition> out;
  if (conditions.empty()) return out;
  z3::solver placement(c);
  for (const z3::expr& e : constraints) placement.add(e);
  z3::expr_vector all(c);
  for (const z3::expr& k : conditions) all.push_back(k);
  placement.push();
  placement.add(!z3::mk_and(all));
  bool anyFails = placement.check() != z3::unsat;
  placement.pop();
  if (!anyFails) return out;
  for (size_t k = 0; k < conditions.size(); ++k) {
    placement.push();
    placement.add(!conditions[k]);
    if (placement.check() == z3::sat) out.push_back({k, placement.get_model()});
    placement.pop();
  }
  return out;
}

}  // namespace patchcheck
