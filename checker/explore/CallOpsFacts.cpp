#include "checker/explore/CallOpsFacts.h"

#include <algorithm>
#include <utility>

namespace patchcheck {

CallOpsFacts storeCallOps(const TrampolineCode& code, const z3::expr& ops, const std::string& name,
                          const std::vector<MachineState*>& states, const z3::expr& entrySp, unsigned pointerBytes) {
  const TrampolineCallOps& k = *code.contract.callback.callOps;
  z3::context& c = ops.ctx();
  CallOpsFacts out;
  auto pointer = [&](const z3::expr& a) { return pointerBytes == 8 ? a : a.extract(pointerBytes * 8 - 1, 0); };
  auto at = [&](int64_t off) { return ops + c.bv_val(uint64_t(off), 64); };
  std::vector<std::pair<z3::expr, z3::expr>> facts{{at(k.func), pointer(code.callback())}};
  int64_t end = k.func + pointerBytes;
  if (k.directCall) {
    // Linux: 0 unless register_ftrace_direct() (or modify_ftrace_direct(),
    // WRITE_ONCE) stored a direct trampoline's address there.
    z3::expr d = c.bv_const((name + ".direct_call").c_str(), pointerBytes * 8);
    out.assumptions.push_back(d == c.bv_val(0, pointerBytes * 8) || d == pointer(*code.direct()));
    facts.push_back({at(*k.directCall), d});
    end = std::max(end, *k.directCall + int64_t(pointerBytes));
  }
  for (MachineState* st : states) {
    size_t stored = st->stored.size(), since = st->storedSinceBoundary.size();
    for (const auto& [a, v] : facts) st->store(a, v, pointerBytes);
    // F's memory, not a store of the run: an exception's frame below sp
    // cannot reach it (assumed below), so it is no candidate for clobbering.
    st->stored.resize(stored, c.bool_val(false));
    st->storedSinceBoundary.resize(since, c.bool_val(false));
  }
  out.assumptions.push_back(z3::ult(ops, at(end)));
  z3::expr low = entrySp - c.bv_val(0x10000, 64);
  if (code.opsLiteral) out.apart.push_back({*code.opsLiteral, pointerBytes, ops, uint64_t(end)});
  out.apart.push_back({ops, uint64_t(end), low, 0x10000});
  if (code.opsLiteral) out.apart.push_back({*code.opsLiteral, pointerBytes, low, 0x10000});
  return out;
}

}  // namespace patchcheck
