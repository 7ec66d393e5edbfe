#include "model/ExceptionFrame.h"

#include <optional>
#include <set>
#include <vector>

#include "model/AbiModel.h"

namespace patchcheck {
namespace {

// Where `a` lies from `sp`, when the terms say so: a - sp as a small
// signed numeral. Exact under the entry assumptions (no wrap within the
// stack margin of sp).
std::optional<int64_t> offsetFrom(const z3::expr& a, const z3::expr& sp, bool wide) {
  z3::expr d = (wide ? a - sp : a.extract(31, 0) - sp.extract(31, 0)).simplify();
  uint64_t v = 0;
  if (!d.is_numeral() || !d.is_numeral_u64(v)) return std::nullopt;
  int64_t k = wide ? int64_t(v) : int64_t(int32_t(uint32_t(v)));
  if (k < -int64_t(AbiModel::kStackMargin) / 2 || k >= int64_t(AbiModel::kStackMargin) / 2) return std::nullopt;
  return k;
}

}  // namespace

void clobberFrameBelow(MachineState& s, const z3::expr& spAddress, uint64_t frame) {
  z3::context& c = s.ctx;
  z3::expr sp = spAddress.simplify();
  // With sp where it was at the last boundary, only bytes stored since
  // then can have new contents to lose.
  bool sameSp = s.boundarySp && z3::eq(*s.boundarySp, sp);
  std::vector<z3::expr> candidates = sameSp ? s.storedSinceBoundary : s.stored;
  std::set<unsigned> seen;
  for (const z3::expr& a : candidates) {
    if (!seen.insert(a.id()).second) continue;
    z3::expr inFrame = c.bool_val(true);
    if (auto k = offsetFrom(a, sp, s.width() == 64)) {
      if (*k >= 0 || *k < -int64_t(frame)) continue;
    } else {
      inFrame = z3::ult(a - (sp - c.bv_val(frame, 64)), c.bv_val(frame, 64));
    }
    z3::expr garbage = s.havoc("exc.mem", 8);
    z3::expr value = inFrame.is_true() ? garbage : z3::ite(inFrame, garbage, s.loadByte(a));
    s.memory = z3::store(s.memory, a, value.simplify());
  }
  s.storedSinceBoundary.clear();
  s.boundarySp = sp;
}

bool dependsOnExceptionValue(const z3::expr& e) {
  std::set<unsigned> seen;
  std::vector<z3::expr> todo{e};
  while (!todo.empty()) {
    z3::expr x = todo.back();
    todo.pop_back();
    if (!seen.insert(x.id()).second || !x.is_app()) continue;
    if (x.num_args() == 0) {
      if (x.decl().name().str().rfind("exc.", 0) == 0) return true;
      continue;
    }
    for (unsigned i = 0; i < x.num_args(); ++i) todo.push_back(x.arg(i));
  }
  return false;
}

}  // namespace patchcheck
