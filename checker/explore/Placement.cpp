#include "checker/explore/Placement.h"

namespace patchcheck {

std::vector<FailedCondition> failingConditions(z3::context& c, const std::vector<z3::expr>& constraints,
                                               const std::vector<z3::expr>& conditions) {
  std::vector<FailedCondition> out;
  if (conditions.empty()) return out;
  z3::solver placement(c);
  z3::params p(c);
  p.set("timeout", 60000u);  // a few symbols' bit-vector constraints: milliseconds in practice
  placement.set(p);
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
    z3::check_result r = placement.check();
    if (r == z3::sat) out.push_back({k, placement.get_model()});
    else if (r == z3::unknown) out.push_back({k, std::nullopt});
    placement.pop();
  }
  return out;
}

}  // namespace patchcheck
