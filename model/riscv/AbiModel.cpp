#include "model/riscv/AbiModel.h"

#include <algorithm>

#include "encoder/riscv/Registers.h"
#include "model/riscv/RegisterFile.h"

namespace patchcheck::riscv {
namespace {

std::vector<unsigned> range(unsigned first, unsigned last) {
  std::vector<unsigned> v;
  for (unsigned r = first; r <= last; ++r) v.push_back(r);
  return v;
}

void sortUnique(std::vector<unsigned>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

AbiModel make(bool wide) {
  AbiModel m;
  m.name = wide ? "lp64" : "ilp32";
  m.arguments = range(reg::a0, reg::a7);
  m.calleeSaved = {reg::s0, reg::s1};
  for (unsigned r = 18; r <= 27; ++r) m.calleeSaved.push_back(r);  // s2-s11
  m.liveAtEntry = m.arguments;
  for (unsigned r : {reg::ra, reg::sp, reg::gp, reg::tp}) m.liveAtEntry.push_back(r);
  m.liveAtEntry.insert(m.liveAtEntry.end(), m.calleeSaved.begin(), m.calleeSaved.end());
  sortUnique(m.liveAtEntry);
  for (unsigned r = 1; r < 32; ++r)
    if (!m.isLive(r)) m.dead.push_back(r);  // t0-t6
  m.preserved = m.calleeSaved;
  for (unsigned r : {reg::zero, reg::sp, reg::gp, reg::tp}) m.preserved.push_back(r);
  sortUnique(m.preserved);
  m.sp = reg::sp;
  m.link = reg::ra;
  m.stackAlign = 16;  // psABI: 16 under lp64 and ilp32 (ilp32e alone has 4)
  m.slotBytes = wide ? 8 : 4;
  m.pointerBytes = wide ? 8 : 4;
  m.homeBytes = 0;
  return m;
}

}  // namespace

const AbiModel& abiModel(unsigned registerBits) {
  static const AbiModel lp64 = make(true), ilp32 = make(false);
  return registerBits == 64 ? lp64 : ilp32;
}

z3::expr entryAssumptions(const MachineState& s) {
  z3::context& c = s.ctx;
  unsigned w = s.width();
  z3::expr sp = s.reg(reg::sp);
  z3::expr ok = (sp & c.bv_val(15, w)) == c.bv_val(0, w);
  const uint64_t margin = AbiModel::kStackMargin;
  z3::expr addr = s.address(sp);
  ok = ok && z3::uge(addr, c.bv_val(margin, 64)) && z3::ule(addr, c.bv_val(-margin, 64));
  if (w == 32) {
    // RV32 addresses are held sign-extended (model/MachineState.h): keep
    // sp 64 KiB away from 0x80000000 as well, so sp + k never flips.
    z3::expr k = c.bv_val(margin, 32), k64 = c.bv_val(margin, 64);
    ok = ok && z3::sext(sp + k, 32) == z3::sext(sp, 32) + k64 && z3::sext(sp - k, 32) == z3::sext(sp, 32) - k64;
  }
  return ok;
}

void callExternal(MachineState& s, const std::string& name, unsigned tag) {
  z3::context& c = s.ctx;
  const AbiModel& abi = abiModel(s.width());
  std::string prefix = name + "#" + std::to_string(tag) + ".";
  for (unsigned r = 1; r < 32; ++r)
    if (!abi.preservedByCall(r)) s.regs[r] = c.bv_const((prefix + std::string(gprName(r))).c_str(), s.width());
  // The callee may leave a reservation of its own (an LR without an SC).
  s.regs[regfile::reservation] = c.bool_const((prefix + "reservation").c_str());
  s.regs[regfile::reservationAddress] = c.bv_const((prefix + "reservation_addr").c_str(), 64);
  if (s.regs.size() > regfile::fsOn) {
    // F/D state: the psABI's callee-saved fs0-fs11 (f8, f9, f18-f27) are
    // kept; the other f registers and fflags may change, and so may FS
    // (kernel_fpu_begin/end turn it on and off).
    for (unsigned r = 0; r < 32; ++r)
      if (r != 8 && r != 9 && (r < 18 || r > 27))
        s.regs[regfile::f(r)] = c.bv_const((prefix + std::string(fprName(r))).c_str(), 64);
    s.regs[regfile::fflags] = c.bv_const((prefix + "fflags").c_str(), 5);
    s.regs[regfile::fsOn] = c.bool_const((prefix + "sstatus.FS").c_str());
  }
  z3::expr clobbered = c.constant((prefix + "mem").c_str(), c.array_sort(c.bv_sort(64), c.bv_sort(8)));
  z3::expr a = c.bv_const((prefix + "addr").c_str(), 64);
  z3::expr sp = s.address(s.reg(reg::sp));
  s.memory = z3::lambda(a, z3::ite(z3::ult(a, sp), z3::select(clobbered, a), z3::select(s.memory, a)));
}

}  // namespace patchcheck::riscv
