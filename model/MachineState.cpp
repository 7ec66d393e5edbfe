#include "model/MachineState.h"

#include <stdexcept>

#include "encoder/Registers.h"

namespace patchcheck::mips {
namespace {

std::array<z3::expr, 32> zeroRegisters(z3::context& c, unsigned bits) {
  return {c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits),
          c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits), c.bv_val(0, bits)};
}

}  // namespace

MachineState::MachineState(z3::context& c, const Target& t)
    : ctx(c),
      target(t),
      gpr(zeroRegisters(c, t.gprBits())),
      hi(c.bv_val(0, t.gprBits())),
      lo(c.bv_val(0, t.gprBits())),
      memory(z3::const_array(c.bv_sort(64), c.bv_val(0, 8))),
      llbit(c.bool_val(false)) {}

MachineState& MachineState::operator=(const MachineState& o) {
  if (&ctx != &o.ctx) throw std::logic_error("MachineState: assignment across Z3 contexts");
  target = o.target;
  gpr = o.gpr;
  hi = o.hi;
  lo = o.lo;
  memory = o.memory;
  effects = o.effects;
  llbit = o.llbit;
  freshCount = o.freshCount;
  concrete = o.concrete;
  return *this;
}

MachineState MachineState::symbolic(z3::context& c, const Target& t, const std::string& prefix) {
  MachineState s(c, t);
  unsigned w = t.gprBits();
  for (unsigned r = 1; r < 32; ++r)
    s.gpr[r] = c.bv_const((prefix + std::string(gprName(r, t.abi))).c_str(), w);
  if (!t.isR6()) {
    s.hi = c.bv_const((prefix + "hi").c_str(), w);
    s.lo = c.bv_const((prefix + "lo").c_str(), w);
  }
  s.memory = c.constant((prefix + "mem").c_str(), c.array_sort(c.bv_sort(64), c.bv_sort(8)));
  s.llbit = c.bool_const((prefix + "llbit").c_str());
  return s;
}

void MachineState::setReg(unsigned r, const z3::expr& v) {
  r &= 31;
  if (r == 0) return;
  gpr[r] = v;
}

z3::expr MachineState::address(const z3::expr& v) const {
  return target.is64() ? v : z3::sext(v, 32);
}

z3::expr MachineState::fromAddress(const z3::expr& a) const {
  return target.is64() ? a : a.extract(31, 0);
}

z3::expr MachineState::normalize(const z3::expr& a) const {
  return target.is64() ? a : z3::sext(a.extract(31, 0), 32);
}

z3::expr MachineState::load(const z3::expr& addr64, unsigned bytes) const {
  // Big endian: the byte at the lowest address is the most significant.
  z3::expr value = z3::select(memory, addr64);
  for (unsigned i = 1; i < bytes; ++i) {
    z3::expr b = z3::select(memory, addr64 + ctx.bv_val(i, 64));
    value = target.endian == Endian::Big ? z3::concat(value, b) : z3::concat(b, value);
  }
  return value;
}

void MachineState::store(const z3::expr& addr64, const z3::expr& value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) {
    unsigned byte = target.endian == Endian::Big ? bytes - 1 - i : i;  // significance of byte i
    memory = z3::store(memory, addr64 + ctx.bv_val(i, 64), value.extract(8 * byte + 7, 8 * byte));
  }
}

z3::expr MachineState::fresh(const std::string& what, unsigned bits) {
  std::string n = what + "#" + std::to_string(++freshCount);
  return bits == 0 ? ctx.bool_const(n.c_str()) : ctx.bv_const(n.c_str(), bits);
}

}  // namespace patchcheck::mips
