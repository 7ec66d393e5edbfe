#include "model/x86_64/Flags.h"

#include "model/x86_64/Registers.h"

namespace patchcheck::x86_64 {
namespace {

z3::expr bit(const z3::expr& v, unsigned k) { return v.extract(k, k) == v.ctx().bv_val(1, 1); }
z3::expr sign(const z3::expr& v) { return bit(v, v.get_sort().bv_size() - 1); }
z3::expr isZero(const z3::expr& v) { return v == v.ctx().bv_val(0, v.get_sort().bv_size()); }
z3::expr asBit(const z3::expr& b, unsigned width) {
  z3::context& c = b.ctx();
  return z3::ite(b, c.bv_val(1, width), c.bv_val(0, width));
}

// SF, ZF, PF of a result.
void resultFlags(const z3::expr& r, FlagUpdate& f) {
  f.sf = sign(r);
  f.zf = isZero(r);
  f.pf = parity(r);
}

// AF: a carry or borrow out of bit 3, for addition and subtraction alike.
z3::expr auxiliary(const z3::expr& a, const z3::expr& b, const z3::expr& r) { return bit(a ^ b ^ r, 4); }

}  // namespace

void apply(MachineState& s, const FlagUpdate& f) {
  auto set = [&](unsigned r, const std::optional<z3::expr>& v) {
    if (v) s.setReg(r, v->simplify());
  };
  set(reg::cf, f.cf);
  set(reg::pf, f.pf);
  set(reg::af, f.af);
  set(reg::zf, f.zf);
  set(reg::sf, f.sf);
  set(reg::of, f.of);
}

z3::expr parity(const z3::expr& result) {
  z3::expr low = result.extract(7, 0);
  z3::expr x = low.extract(0, 0);
  for (unsigned k = 1; k < 8; ++k) x = x ^ low.extract(k, k);
  return x == result.ctx().bv_val(0, 1);
}

z3::expr add(const z3::expr& a, const z3::expr& b, const z3::expr& carry, FlagUpdate& f) {
  unsigned w = a.get_sort().bv_size();
  z3::expr wide = z3::zext(a, 1) + z3::zext(b, 1) + asBit(carry, w + 1);
  z3::expr r = wide.extract(w - 1, 0);
  f.cf = bit(wide, w);
  f.of = sign(a) == sign(b) && sign(r) != sign(a);
  f.af = auxiliary(a, b, r);
  resultFlags(r, f);
  return r;
}

z3::expr subtract(const z3::expr& a, const z3::expr& b, const z3::expr& borrow, FlagUpdate& f) {
  unsigned w = a.get_sort().bv_size();
  z3::expr r = a - b - asBit(borrow, w);
  f.cf = z3::ult(z3::zext(a, 1), z3::zext(b, 1) + asBit(borrow, w + 1));
  f.of = sign(a) != sign(b) && sign(r) != sign(a);
  f.af = auxiliary(a, b, r);
  resultFlags(r, f);
  return r;
}

FlagUpdate logical(MachineState& s, const z3::expr& r) {
  z3::context& c = s.ctx;
  FlagUpdate f;
  f.cf = c.bool_val(false);
  f.of = c.bool_val(false);
  f.af = s.fresh("af.undefined", 0);
  resultFlags(r, f);
  return f;
}

z3::expr shift(MachineState& s, Shift kind, const z3::expr& a, const z3::expr& count, FlagUpdate& f) {
  z3::context& c = s.ctx;
  unsigned w = a.get_sort().bv_size();
  auto n = [&](uint64_t v) { return c.bv_val(v, w); };
  z3::expr r = kind == Shift::Left ? z3::shl(a, count) : kind == Shift::Logical ? z3::lshr(a, count) : z3::ashr(a, count);
  // The last bit shifted out: SHL's is bit w - count of a, SHR's and
  // SAR's bit count - 1 (SAR's a copy of the sign once the count passes
  // the width, which 8- and 16-bit operands allow: counts reach 31).
  z3::expr out = kind == Shift::Left ? bit(z3::shl(z3::zext(a, 64), z3::zext(count, 64)), w)
                 : kind == Shift::Logical ? bit(z3::lshr(a, count - n(1)), 0)
                                          : bit(z3::ashr(a, count - n(1)), 0);
  // `v` where `defined` holds, else a fresh value (made only when needed).
  auto orUndefined = [&](const z3::expr& defined, const z3::expr& v, const char* what) {
    z3::expr d = defined.simplify();
    return d.is_true() ? v : z3::ite(d, v, s.fresh(what, 0));
  };
  z3::expr cf = kind == Shift::Arithmetic ? out : orUndefined(z3::ult(count, n(w)), out, "cf.undefined");
  // OF on 1-bit shifts: SHL the MSB of the result XOR CF; SHR the MSB of
  // the operand; SAR 0. Otherwise undefined.
  z3::expr of1 = kind == Shift::Left ? sign(r) != out : kind == Shift::Logical ? sign(a) : c.bool_val(false);
  z3::expr of = orUndefined(count == n(1), of1, "of.undefined");
  FlagUpdate g;
  resultFlags(r, g);
  g.cf = cf;
  g.of = of;
  g.af = orUndefined(count == n(0), s.reg(reg::af), "af.undefined");
  // Count 0: no flag changes.
  z3::expr zero = (count == n(0)).simplify();
  auto keep = [&](unsigned reg, const z3::expr& v) { return z3::ite(zero, s.reg(reg), v).simplify(); };
  f.cf = keep(reg::cf, *g.cf);
  f.pf = keep(reg::pf, *g.pf);
  f.af = keep(reg::af, *g.af);
  f.zf = keep(reg::zf, *g.zf);
  f.sf = keep(reg::sf, *g.sf);
  f.of = keep(reg::of, *g.of);
  return r;
}

z3::expr conditionHolds(const MachineState& s, unsigned cc) {
  const z3::expr &cf = s.reg(reg::cf), &zf = s.reg(reg::zf), &sf = s.reg(reg::sf), &of = s.reg(reg::of),
                 &pf = s.reg(reg::pf);
  z3::expr r = cf;
  switch (cc >> 1) {
    case 0: r = of; break;
    case 1: r = cf; break;
    case 2: r = zf; break;
    case 3: r = cf || zf; break;
    case 4: r = sf; break;
    case 5: r = pf; break;
    case 6: r = sf != of; break;
    default: r = zf || sf != of; break;
  }
  return (cc & 1) ? !r : r;
}

z3::expr flagsImage(const MachineState& s) {
  z3::context& c = s.ctx;
  auto at = [&](unsigned r, uint64_t mask) { return z3::ite(s.reg(r), c.bv_val(mask, 64), c.bv_val(0, 64)); };
  z3::expr v = (s.reg(reg::sysflags) & c.bv_val(kSystemFlags, 64)) | c.bv_val(rflags::Reserved1, 64);
  v = v | at(reg::cf, rflags::CF) | at(reg::pf, rflags::PF) | at(reg::af, rflags::AF) | at(reg::zf, rflags::ZF) |
      at(reg::sf, rflags::SF) | at(reg::df, rflags::DF) | at(reg::of, rflags::OF);
  return v.simplify();
}

void loadFlags(MachineState& s, const z3::expr& image, unsigned bits) {
  z3::context& c = s.ctx;
  z3::expr v = bits == 64 ? image : z3::zext(image, 64 - bits);
  auto on = [&](uint64_t mask) { return ((v & c.bv_val(mask, 64)) != c.bv_val(0, 64)).simplify(); };
  s.setReg(reg::cf, on(rflags::CF));
  s.setReg(reg::pf, on(rflags::PF));
  s.setReg(reg::af, on(rflags::AF));
  s.setReg(reg::zf, on(rflags::ZF));
  s.setReg(reg::sf, on(rflags::SF));
  s.setReg(reg::df, on(rflags::DF));
  s.setReg(reg::of, on(rflags::OF));
  // A 16-bit popf writes only the low 16 flags.
  uint64_t writable = kPopfWritable & (bits == 64 ? ~uint64_t(0) : 0xffff);
  z3::expr w = c.bv_val(writable, 64);
  s.setReg(reg::sysflags, ((s.reg(reg::sysflags) & ~w) | (v & w)).simplify());
}

}  // namespace patchcheck::x86_64
