#include "model/arm64/AbiModel.h"

#include <algorithm>

#include "model/arm64/Semantics.h"

namespace patchcheck::arm64 {
namespace {

std::vector<unsigned> range(unsigned first, unsigned last) {
  std::vector<unsigned> v;
  for (unsigned r = first; r <= last; ++r) v.push_back(r);
  return v;
}

AbiModel make() {
  AbiModel m;
  m.name = "lp64";
  m.arguments = range(0, 7);
  m.calleeSaved = range(19, 29);  // x19-x28 and the frame pointer x29
  // Live at a function's entry: the arguments, x8 (where an indirect
  // result goes), x18 (platform / shadow call stack), the callee-saved
  // registers, the link register and sp.
  m.liveAtEntry = m.arguments;
  for (unsigned r : {8u, 18u, reg::lr, reg::sp}) m.liveAtEntry.push_back(r);
  m.liveAtEntry.insert(m.liveAtEntry.end(), m.calleeSaved.begin(), m.calleeSaved.end());
  std::sort(m.liveAtEntry.begin(), m.liveAtEntry.end());
  // x9-x15 and x16/x17: a site may change them.
  for (unsigned r = 0; r <= reg::sp; ++r)
    if (!m.isLive(r)) m.dead.push_back(r);
  m.preserved = m.calleeSaved;
  m.preserved.push_back(18);
  m.preserved.push_back(reg::sp);
  std::sort(m.preserved.begin(), m.preserved.end());
  m.sp = reg::sp;
  m.link = reg::lr;
  m.stackAlign = 16;
  m.slotBytes = 8;
  m.pointerBytes = 8;
  m.homeBytes = 0;
  return m;
}

}  // namespace

const AbiModel& abiModel() {
  static const AbiModel m = make();
  return m;
}

z3::expr entryAssumptions(const MachineState& s) {
  z3::context& c = s.ctx;
  z3::expr sp = s.reg(reg::sp);
  const uint64_t margin = AbiModel::kStackMargin;
  return (sp & c.bv_val(15, 64)) == c.bv_val(0, 64) && z3::uge(sp, c.bv_val(margin, 64)) &&
         z3::ule(sp, c.bv_val(-margin, 64));
}

void callExternal(MachineState& s, const std::string& name, unsigned tag) {
  z3::context& c = s.ctx;
  const AbiModel& abi = abiModel();
  std::string prefix = name + "#" + std::to_string(tag) + ".";
  for (unsigned r = 0; r <= reg::lr; ++r)
    if (!abi.preservedByCall(r)) s.regs[r] = c.bv_const((prefix + "x" + std::to_string(r)).c_str(), 64);
  for (auto [r, n] : {std::pair{reg::n, "n"}, {reg::z, "z"}, {reg::c, "c"}, {reg::v, "v"}})
    s.regs[r] = c.bool_const((prefix + n).c_str());
  s.regs[reg::btype] = c.bv_val(kBtypeNone, 2);  // the callee returns with ret
  z3::expr clobbered = c.constant((prefix + "mem").c_str(), c.array_sort(c.bv_sort(64), c.bv_sort(8)));
  z3::expr a = c.bv_const((prefix + "addr").c_str(), 64);
  z3::expr sp = s.reg(reg::sp);
  s.memory = z3::lambda(a, z3::ite(z3::ult(a, sp), z3::select(clobbered, a), z3::select(s.memory, a)));
}

}  // namespace patchcheck::arm64
