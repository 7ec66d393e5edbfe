#include "model/ConcreteValues.h"

namespace patchcheck {

std::optional<uint64_t> concreteValue(const z3::expr& e) {
  uint64_t out = 0;
  if (e.is_numeral() && e.is_numeral_u64(out)) return out;
  z3::expr v = e.simplify();
  if (v.is_bool()) {
    if (v.is_true()) return 1;
    if (v.is_false()) return 0;
    return std::nullopt;
  }
  if (v.is_numeral() && v.is_numeral_u64(out)) return out;
  return std::nullopt;
}

std::vector<std::optional<uint8_t>> concreteBytes(const MachineState& state, uint64_t address, size_t n) {
  std::vector<std::optional<uint8_t>> out(n);
  std::vector<bool> done(n, false);
  size_t left = n;
  z3::expr m = state.memory;
  // Newest store first: the first store to an address decides its byte.
  while (left > 0 && m.is_app()) {
    Z3_decl_kind k = m.decl().decl_kind();
    if (k == Z3_OP_CONST_ARRAY) {
      auto v = concreteValue(m.arg(0));
      for (size_t i = 0; i < n; ++i)
        if (!done[i] && v) out[i] = uint8_t(*v);
      return out;
    }
    if (k != Z3_OP_STORE) break;
    auto at = concreteValue(m.arg(1));
    if (!at) break;
    if (*at >= address && *at - address < n && !done[*at - address]) {
      auto v = concreteValue(m.arg(2));
      if (v) out[*at - address] = uint8_t(*v);
      done[*at - address] = true;
      --left;
    }
    m = m.arg(0);
  }
  for (size_t i = 0; i < n; ++i)
    if (!done[i])
      if (auto v = concreteValue(state.loadByte(state.ctx.bv_val(address + i, 64)))) out[i] = uint8_t(*v);
  return out;
}

}  // namespace patchcheck
