// Linux MIPS calling conventions (docs/semantics.md; Linux
// arch/mips/include/asm/regdef.h; SysV MIPS psABI for o32; the MIPSpro N32/N64
// ABI handbook for n32/n64).
#include "model/mips/AbiModel.h"

#include <algorithm>
#include <array>

#include "encoder/mips/Plugin.h"
#include "encoder/mips/Registers.h"
#include "model/mips/Semantics.h"

namespace patchcheck::mips {
namespace {

std::vector<unsigned> range(unsigned first, unsigned last) {
  std::vector<unsigned> v;
  for (unsigned r = first; r <= last; ++r) v.push_back(r);
  return v;
}

AbiModel make(Abi abi) {
  AbiModel m;
  m.name = std::string(name(abi));
  bool o32 = abi == Abi::O32;
  m.arguments = o32 ? range(4, 7) : range(4, 11);        // a0-a3 / a0-a7
  m.calleeSaved = range(16, 23);                          // s0-s7
  m.calleeSaved.push_back(reg::s8);                       // s8/fp
  if (!o32) m.calleeSaved.push_back(reg::gp);             // n32/n64: gp is callee-saved
  std::sort(m.calleeSaved.begin(), m.calleeSaved.end());

  m.liveAtEntry = m.arguments;
  for (unsigned r : {reg::sp, reg::ra, reg::gp}) m.liveAtEntry.push_back(r);
  m.liveAtEntry.insert(m.liveAtEntry.end(), m.calleeSaved.begin(), m.calleeSaved.end());
  std::sort(m.liveAtEntry.begin(), m.liveAtEntry.end());
  m.liveAtEntry.erase(std::unique(m.liveAtEntry.begin(), m.liveAtEntry.end()), m.liveAtEntry.end());

  for (unsigned r = 1; r < 32; ++r)
    if (!m.isLive(r)) m.dead.push_back(r);  // at, v0, v1, t*, t8, t9, k0, k1
  // The Linux kernel keeps the current thread_info in $28 as a global
  // register variable (arch/mips/include/asm/thread_info.h), so no kernel C
  // function changes gp, even under o32 where the psABI lets it.
  m.preserved = m.calleeSaved;
  for (unsigned r : {0u, unsigned(reg::sp), unsigned(reg::gp)}) m.preserved.push_back(r);
  std::sort(m.preserved.begin(), m.preserved.end());
  m.preserved.erase(std::unique(m.preserved.begin(), m.preserved.end()), m.preserved.end());
  m.sp = reg::sp;
  m.link = reg::ra;
  m.stackAlign = o32 ? 8 : 16;
  m.slotBytes = o32 ? 4 : 8;
  m.pointerBytes = abi == Abi::N64 ? 8 : 4;
  m.homeBytes = o32 ? 16 : 0;  // o32: the callee may store a0-a3 at sp
  return m;
}

}  // namespace

const AbiModel& abiModel(Abi abi) {
  static const std::array<AbiModel, 3> all = {make(Abi::O32), make(Abi::N32), make(Abi::N64)};
  return all[unsigned(abi)];
}

z3::expr entryAssumptions(const MachineState& s) {
  z3::context& c = s.ctx;
  const AbiModel& abi = abiModel(targetOf(s.target).abi);
  unsigned w = s.width();
  z3::expr sp = s.reg(reg::sp);
  z3::expr ok = (sp & c.bv_val(abi.stackAlign - 1, w)) == c.bv_val(0, w);
  if (targetOf(s.target).abi == Abi::N32 && w == 64)
    for (unsigned r : {reg::sp, reg::ra, reg::gp}) ok = ok && s.reg(r) == z3::sext(s.reg(r).extract(31, 0), 32);
  // A kernel stack never lies within 64 KB of either end of the address
  // space, so sp + k (|k| <= 64 KB) never wraps: a store just below sp is
  // below it, one just above is above it.
  const uint64_t margin = AbiModel::kStackMargin;
  z3::expr addr = s.address(sp);
  ok = ok && z3::uge(addr, c.bv_val(margin, 64)) && z3::ule(addr, c.bv_val(-margin, 64));
  if (w == 32) {
    // Nor within 64 KB of where a sign-extended address flips (0x80000000).
    z3::expr k = c.bv_val(margin, 32), k64 = c.bv_val(margin, 64);
    ok = ok && z3::sext(sp + k, 32) == z3::sext(sp, 32) + k64 && z3::sext(sp - k, 32) == z3::sext(sp, 32) - k64;
  }
  return ok;
}

void callExternal(MachineState& s, const std::string& name, unsigned tag) {
  z3::context& c = s.ctx;
  Target t = targetOf(s.target);
  const AbiModel& abi = abiModel(t.abi);
  std::string prefix = name + "#" + std::to_string(tag) + ".";
  for (unsigned r = 1; r < 32; ++r)
    if (!abi.preservedByCall(r))
      s.regs[r] = c.bv_const((prefix + std::string(gprName(r, t.abi))).c_str(), s.width());
  if (!t.isR6()) {  // HI/LO are caller-saved
    s.regs[reg::hi] = c.bv_const((prefix + "hi").c_str(), s.width());
    s.regs[reg::lo] = c.bv_const((prefix + "lo").c_str(), s.width());
  }
  // Memory below the caller's sp may change (the callee's frame); at and
  // above it, it does not.
  z3::expr clobbered =
      c.constant((prefix + "mem").c_str(), c.array_sort(c.bv_sort(64), c.bv_sort(8)));
  z3::expr a = c.bv_const((prefix + "addr").c_str(), 64);
  z3::expr sp = s.address(s.reg(reg::sp));
  s.memory = z3::lambda(a, z3::ite(z3::ult(a, sp), z3::select(clobbered, a), z3::select(s.memory, a)));
  s.regs[reg::llbit] = c.bool_val(false);
}

}  // namespace patchcheck::mips
