// Linux MIPS calling conventions (../shared/FACTS.md; Linux
// arch/mips/include/asm/regdef.h; SysV MIPS psABI for o32; the MIPSpro N32/N64
// ABI handbook for n32/n64).
#include "model/mips/AbiModel.h"

#include <algorithm>

#include "encoder/mips/Registers.h"

namespace patchcheck::mips {
namespace {

std::vector<unsigned> range(unsigned first, unsigned last) {
  std::vector<unsigned> v;
  for (unsigned r = first; r <= last; ++r) v.push_back(r);
  return v;
}

}  // namespace

AbiModel AbiModel::of(Abi abi) {
  AbiModel m;
  m.abi = abi;
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
  m.stackAlign = o32 ? 8 : 16;
  m.slotBytes = o32 ? 4 : 8;
  m.pointerBytes = abi == Abi::N64 ? 8 : 4;
  return m;
}

bool AbiModel::isLive(unsigned r) const {
  return std::find(liveAtEntry.begin(), liveAtEntry.end(), r) != liveAtEntry.end();
}

bool AbiModel::preservedByCall(unsigned r) const {
  // The Linux kernel keeps the current thread_info in $28 as a global
  // register variable (arch/mips/include/asm/thread_info.h), so no kernel C
  // function changes gp, even under o32 where the psABI lets it.
  if (r == 0 || r == reg::sp || r == reg::gp) return true;
  return std::find(calleeSaved.begin(), calleeSaved.end(), r) != calleeSaved.end();
}

z3::expr AbiModel::entryAssumptions(const MachineState& s) const {
  z3::context& c = s.ctx;
  unsigned w = s.width();
  z3::expr sp = s.reg(reg::sp);
  z3::expr ok = (sp & c.bv_val(stackAlign - 1, w)) == c.bv_val(0, w);
  if (abi == Abi::N32 && w == 64)
    for (unsigned r : {reg::sp, reg::ra, reg::gp}) ok = ok && s.reg(r) == z3::sext(s.reg(r).extract(31, 0), 32);
  // A kernel stack never lies within 64 KB of either end of the address
  // space, so sp + k (|k| <= 64 KB) never wraps: a store just below sp is
  // below it, one just above is above it.
  z3::expr addr = s.address(sp);
  ok = ok && z3::uge(addr, c.bv_val(kStackMargin, 64)) && z3::ule(addr, c.bv_val(-kStackMargin, 64));
  if (w == 32) {
    // Nor within 64 KB of where a sign-extended address flips (0x80000000).
    z3::expr k = c.bv_val(kStackMargin, 32), k64 = c.bv_val(kStackMargin, 64);
    ok = ok && z3::sext(sp + k, 32) == z3::sext(sp, 32) + k64 && z3::sext(sp - k, 32) == z3::sext(sp, 32) - k64;
  }
  return ok;
}

void callExternal(MachineState& s, const AbiModel& abi, const std::string& name, unsigned tag) {
  z3::context& c = s.ctx;
  std::string prefix = name + "#" + std::to_string(tag) + ".";
  for (unsigned r = 1; r < 32; ++r)
    if (!abi.preservedByCall(r))
      s.gpr[r] = c.bv_const((prefix + std::string(gprName(r, abi.abi))).c_str(), s.width());
  if (!s.target.isR6()) {  // HI/LO are caller-saved
    s.hi = c.bv_const((prefix + "hi").c_str(), s.width());
    s.lo = c.bv_const((prefix + "lo").c_str(), s.width());
  }
  // Memory below the caller's sp may change (the callee's frame); at and
  // above it, it does not.
  z3::expr clobbered =
      c.constant((prefix + "mem").c_str(), c.array_sort(c.bv_sort(64), c.bv_sort(8)));
  z3::expr a = c.bv_const((prefix + "addr").c_str(), 64);
  z3::expr sp = s.address(s.reg(reg::sp));
  s.memory = z3::lambda(a, z3::ite(z3::ult(a, sp), z3::select(clobbered, a), z3::select(s.memory, a)));
  s.llbit = c.bool_val(false);
}

}  // namespace patchcheck::mips
