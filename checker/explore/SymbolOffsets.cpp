#include "checker/explore/SymbolOffsets.h"

#include <algorithm>
#include <set>

namespace patchcheck {

std::optional<std::vector<z3::expr>> SymbolOffsets::symbolsIn(const z3::expr& e) const {
  std::set<unsigned> seen;
  std::vector<z3::expr> todo{e}, used;
  while (!todo.empty()) {
    z3::expr x = todo.back();
    todo.pop_back();
    if (!seen.insert(Z3_get_ast_id(x.ctx(), x)).second || x.is_numeral()) continue;
    if (seen.size() > 4096 || !x.is_app()) return std::nullopt;  // too big to be worth it; a quantifier
    if (x.is_const()) {
      auto s = std::find_if(symbols_.begin(), symbols_.end(), [&](const z3::expr& y) { return z3::eq(x, y); });
      if (s == symbols_.end()) return std::nullopt;  // a register, memory, a fresh value
      used.push_back(x);
      continue;
    }
    for (unsigned i = 0; i < x.num_args(); ++i) todo.push_back(x.arg(i));
  }
  return used;
}

z3::expr SymbolOffsets::rewrite(const z3::expr& e) {
  if (!e.is_bv() || e.get_sort().bv_size() != 64 || e.is_numeral() || e.is_const()) return e;
  unsigned id = Z3_get_ast_id(e.ctx(), e);
  if (auto it = done_.find(id); it != done_.end()) return it->second;
  z3::expr out = e;
  if (auto used = symbolsIn(e); used && !used->empty()) {
    if (!placement_ && !unplaced_) {
      if (prover_.check(e.ctx().bool_val(true)) == Answer::Sat) placement_ = prover_.model();
      else unplaced_ = true;
    }
    for (const z3::expr& s : placement_ ? *used : std::vector<z3::expr>{}) {
      uint64_t k = 0;
      if (!placement_->eval(e - s, true).is_numeral_u64(k)) continue;
      z3::expr candidate = (s + e.ctx().bv_val(k, 64)).simplify();
      if (prover_.check(e != candidate) == Answer::Unsat) {
        out = candidate;
        break;
      }
    }
  }
  done_.emplace(id, out);
  return out;
}

}  // namespace patchcheck
