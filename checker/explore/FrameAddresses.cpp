#include "checker/explore/FrameAddresses.h"

#include "model/IsaModel.h"

namespace patchcheck {

FrameAddresses::FrameAddresses(const MachineState& caller)
    : sp32_(caller.reg(modelOf(caller.target).abi(caller.target).sp)), base_(caller.address(sp32_)),
      wide_(caller.width() == 64) {}

z3::expr FrameAddresses::index(const z3::expr& a) const {
  if (wide_ || !a.is_bv() || a.get_sort().bv_size() != 64) return a;
  z3::expr d = (a.extract(31, 0) - sp32_).simplify();
  uint64_t v = 0;
  if (!d.is_numeral() || !d.is_numeral_u64(v)) return a;
  int64_t k = int32_t(uint32_t(v));
  if (k < -0x10000 || k > 0x10000) return a;
  return (base_ + a.ctx().bv_val(uint64_t(k), 64)).simplify();
}

// x when e is sext(x) from 32 to 64 bits, as Z3 writes it: sign_extend,
// or concat of 32 copies of x's sign bit and x once it has simplified.
std::optional<z3::expr> FrameAddresses::sextOf(const z3::expr& e) {
  if (!e.is_app() || !e.is_bv() || e.get_sort().bv_size() != 64) return std::nullopt;
  Z3_decl_kind k = e.decl().decl_kind();
  if (k == Z3_OP_SIGN_EXT && e.arg(0).get_sort().bv_size() == 32) return e.arg(0);
  if (k != Z3_OP_CONCAT || e.num_args() != 33) return std::nullopt;
  z3::expr x = e.arg(32);
  if (x.get_sort().bv_size() != 32) return std::nullopt;
  for (unsigned i = 0; i < 32; ++i) {
    z3::expr b = e.arg(i);
    if (!b.is_app() || b.decl().decl_kind() != Z3_OP_EXTRACT || b.hi() != 31 || b.lo() != 31 || !z3::eq(b.arg(0), x))
      return std::nullopt;
  }
  return x;
}

z3::expr FrameAddresses::rewrite(const z3::expr& e) {
  if (wide_ || !e.is_app()) return e;  // lambdas keep their bodies: built from canonical parts
  unsigned id = Z3_get_ast_id(e.ctx(), e);
  if (auto it = done_.find(id); it != done_.end()) return it->second.second;
  z3::expr_vector args(e.ctx());
  bool changed = false;
  for (unsigned i = 0; i < e.num_args(); ++i) {
    z3::expr a = rewrite(e.arg(i));
    Z3_decl_kind k = e.decl().decl_kind();
    if (i == 1 && (k == Z3_OP_SELECT || k == Z3_OP_STORE)) a = index(a);
    changed = changed || !z3::eq(a, e.arg(i));
    args.push_back(a);
  }
  z3::expr out = changed ? e.decl()(args) : e;
  // Any frame address, not only an index: a load through the memory a
  // callback left (a lambda over the offset from its sp) has its address
  // inlined into that offset, which then only folds to a number in this
  // form.
  if (sextOf(out)) out = index(out);
  done_.emplace(id, std::make_pair(e, out));
  return out;
}

void FrameAddresses::canonicalize(MachineState& s) {
  if (wide_) return;
  s.memory = rewrite(s.memory);
  for (z3::expr& r : s.regs) {
    if (r.is_numeral() || r.is_const()) continue;
    z3::expr x = rewrite(r);
    if (!z3::eq(x, r)) r = x.simplify();
  }
}

}  // namespace patchcheck
