#include "model/Executor.h"

namespace patchcheck {

void Execution::assume(const z3::expr& c) {
  if (!c.simplify().is_true()) path.push_back(c);
}

z3::expr Execution::condition() const {
  z3::context& c = cpu.state.ctx;
  if (path.empty()) return c.bool_val(true);
  z3::expr_vector v(c);
  for (const z3::expr& e : path) v.push_back(e);
  return z3::mk_and(v);
}

Answer decideByValue(const std::vector<z3::expr>& path, const z3::expr& cond) {
  auto value = [](const z3::expr& e) -> std::optional<bool> {
    z3::expr s = e.simplify();
    if (s.is_true()) return true;
    if (s.is_false()) return false;
    return std::nullopt;
  };
  for (const z3::expr& e : path) {
    auto v = value(e);
    if (!v) return Answer::Unknown;
    if (!*v) return Answer::Unsat;
  }
  auto v = value(cond);
  if (!v) return Answer::Unknown;
  return *v ? Answer::Sat : Answer::Unsat;
}

}  // namespace patchcheck
