#include "checker/explore/Placement.h"

#include <algorithm>
#include <map>

namespace patchcheck {

std::vector<FailedCondition> failingConditions(Prover& prover, const std::vector<z3::expr>& conditions) {
  std::vector<FailedCondition> out;
  // A group of conditions at a time, then each of a group that fails: one
  // negated conjunction of hundreds of reach conditions (a batch of jmp
  // sites) bit-blasts every subtraction at once and took 7 s for 256 of
  // them, where 256 single questions take 0.9 s and groups of 8 (the
  // size measured best, 4 to 16 alike) less.
  constexpr size_t kGroup = 8;
  for (size_t first = 0; first < conditions.size(); first += kGroup) {
    size_t last = std::min(conditions.size(), first + kGroup);
    z3::expr_vector group(conditions.front().ctx());
    for (size_t k = first; k < last; ++k) group.push_back(conditions[k]);
    if (prover.check(!z3::mk_and(group)) == Answer::Unsat) continue;
    for (size_t k = first; k < last; ++k) {
      Answer a = prover.check(!conditions[k]);
      if (a == Answer::Sat) out.push_back({k, prover.model()});
      else if (a == Answer::Unknown) out.push_back({k, std::nullopt});
    }
  }
  return out;
}

std::vector<FailedCondition> failingConditions(Prover& prover, const std::vector<z3::expr>& conditions,
                                               const z3::expr& f, const std::vector<std::optional<int64_t>>& offsets) {
  if (conditions.empty()) return {};
  z3::context& c = f.ctx();
  // Each condition moved to offset 0: e[f := f - offset], simplified, so
  // that instances of one condition become one term.
  std::map<unsigned, std::vector<size_t>> groups;
  std::vector<z3::expr> moved;
  for (size_t k = 0; k < conditions.size(); ++k) {
    moved.push_back(conditions[k]);
    if (!offsets[k]) continue;
    z3::expr_vector from(c), to(c);
    from.push_back(f);
    to.push_back(f - c.bv_val(uint64_t(*offsets[k]), 64));
    moved.back() = z3::expr(conditions[k]).substitute(from, to).simplify();
    groups[Z3_get_ast_id(c, moved.back())].push_back(k);
  }
  std::vector<bool> settled(conditions.size(), false);
  for (const auto& [id, members] : groups) {
    if (members.size() < 2) continue;
    // Offsets first + j * step, j < n (a batch's instances); other sets
    // are asked one by one.
    std::vector<int64_t> at;
    for (size_t k : members) at.push_back(*offsets[k]);
    std::sort(at.begin(), at.end());
    int64_t step = at[1] - at[0];
    bool progression = step > 0;
    for (size_t k = 2; k < at.size() && progression; ++k) progression = at[k] - at[k - 1] == step;
    if (!progression) continue;
    // e[f := f + first + j * step]: e_k itself at j = k. j is as narrow
    // as n needs: a product with a constant that bit-blasts small.
    unsigned bits = 1;
    while (bits < 63 && (uint64_t(1) << bits) < at.size()) ++bits;
    z3::expr j = c.bv_const("placement instance", bits);
    z3::expr d = c.bv_val(uint64_t(at[0]), 64) + z3::zext(j, 64 - bits) * c.bv_val(uint64_t(step), 64);
    z3::expr_vector from(c), to(c);
    from.push_back(f);
    to.push_back(f + d);
    z3::expr one = moved[members.front()];
    if (prover.check(z3::ule(j, c.bv_val(uint64_t(at.size() - 1), bits)) && !one.substitute(from, to)) ==
        Answer::Unsat)
      for (size_t k : members) settled[k] = true;
  }
  std::vector<z3::expr> rest;
  std::vector<size_t> index;
  for (size_t k = 0; k < conditions.size(); ++k)
    if (!settled[k]) rest.push_back(conditions[k]), index.push_back(k);
  std::vector<FailedCondition> out = failingConditions(prover, rest);
  for (FailedCondition& fc : out) fc.index = index[fc.index];
  return out;
}

}  // namespace patchcheck
