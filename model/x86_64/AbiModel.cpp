#include "model/x86_64/AbiModel.h"

#include <algorithm>

#include "model/x86_64/Registers.h"

namespace patchcheck::x86_64 {
namespace {

AbiModel make() {
  AbiModel m;
  m.name = "sysv";
  m.arguments = {reg::rdi, reg::rsi, reg::rdx, reg::rcx, reg::r8, reg::r9};
  m.calleeSaved = {reg::rbx, reg::rbp, reg::r12, reg::r13, reg::r14, reg::r15};
  // Live at a function's entry: the arguments, rax (the varargs count),
  // rsp, the callee-saved registers, DF (clear) and the system flags (IF,
  // TF, AC, ...: a site must not change them). The return address is
  // memory at rsp, which the checker keeps whole.
  m.liveAtEntry = m.arguments;
  m.liveAtEntry.push_back(reg::rax);
  m.liveAtEntry.push_back(reg::rsp);
  m.liveAtEntry.insert(m.liveAtEntry.end(), m.calleeSaved.begin(), m.calleeSaved.end());
  m.liveAtEntry.push_back(reg::df);
  m.liveAtEntry.push_back(reg::sysflags);
  std::sort(m.liveAtEntry.begin(), m.liveAtEntry.end());
  // r10 and r11: ftrace_caller (arch/x86/kernel/ftrace_64.S) saves neither;
  // no argument travels in them.
  m.dead = {reg::r10, reg::r11};
  m.preserved = m.calleeSaved;
  for (unsigned r : {reg::rsp, reg::df, reg::sysflags}) m.preserved.push_back(r);
  std::sort(m.preserved.begin(), m.preserved.end());
  m.sp = reg::rsp;
  m.link = reg::rsp;  // none: the return address is on the stack (see AbiModel.h)
  m.stackAlign = 8;  // the kernel's, not the ABI's 16 (AbiModel.h)
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
  z3::expr sp = s.reg(reg::rsp);
  const uint64_t margin = AbiModel::kStackMargin;
  return (sp & c.bv_val(7, 64)) == c.bv_val(0, 64) && z3::uge(sp, c.bv_val(margin, 64)) &&
         z3::ule(sp, c.bv_val(-margin, 64));
}

void callExternal(MachineState& s, const std::string& name, unsigned tag) {
  z3::context& c = s.ctx;
  const AbiModel& abi = abiModel();
  std::string prefix = name + "#" + std::to_string(tag) + ".";
  for (unsigned r = 0; r < 16; ++r)
    if (!abi.preservedByCall(r)) s.regs[r] = c.bv_const((prefix + std::string(reg::kGprNames[r])).c_str(), 64);
  for (auto [r, n] : {std::pair{reg::cf, "cf"}, {reg::pf, "pf"}, {reg::af, "af"}, {reg::zf, "zf"}, {reg::sf, "sf"},
                      {reg::of, "of"}})
    s.regs[r] = c.bool_const((prefix + n).c_str());
  s.regs[reg::df] = c.bool_val(false);
  z3::expr clobbered = c.constant((prefix + "mem").c_str(), c.array_sort(c.bv_sort(64), c.bv_sort(8)));
  z3::expr a = c.bv_const((prefix + "addr").c_str(), 64);
  z3::expr sp = s.reg(reg::rsp);
  s.memory = z3::lambda(a, z3::ite(z3::ult(a, sp), z3::select(clobbered, a), z3::select(s.memory, a)));
}

}  // namespace patchcheck::x86_64
