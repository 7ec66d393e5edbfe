#include "encoder/arm64/FieldTerms.h"

#include <vector>

#include "encoder/arm64/SystemNames.h"

namespace patchcheck::arm64 {
namespace {

// The element size DecodeBitMasks reads from N:NOT(imms): the highest set
// bit. One condition per size; none holds for a reserved encoding.
z3::expr elementIs(const z3::expr& w, unsigned esize) {
  z3::context& c = w.ctx();
  z3::expr n = w.extract(22, 22), imms = w.extract(15, 10);
  if (esize == 64) return n == c.bv_val(1, 1);
  unsigned len = 0;
  while ((1u << len) < esize) ++len;
  // imms<5:len> is ones then a zero: 0 for 32, 10 for 16, 110 for 8, ...
  unsigned prefixBits = 6 - len;
  return n == c.bv_val(0, 1) && imms.extract(5, len) == c.bv_val(((1u << prefixBits) - 1) & ~1u, prefixBits);
}

// DecodeBitMasks' validity in a register of `width` bits: a known element
// size no wider than the register, and imms not a whole element of ones.
z3::expr bitmaskValid(const z3::expr& w, unsigned width) {
  z3::context& c = w.ctx();
  z3::expr valid = c.bool_val(false);
  for (unsigned esize = 2; esize <= width; esize *= 2) {
    unsigned len = esize == 64 ? 6 : 0;
    while ((1u << len) < esize) ++len;
    valid = valid || (elementIs(w, esize) && w.extract(10 + len - 1, 10) != c.bv_val(esize - 1, len));
  }
  return valid;
}

// The same with the width sf gives.
z3::expr bitmaskValid(const z3::expr& w) {
  z3::expr sf = w.extract(31, 31) == w.ctx().bv_val(1, 1);
  return z3::ite(sf, bitmaskValid(w, 64), bitmaskValid(w, 32));
}

// The value of a valid encoding, in 64 bits: S+1 ones rotated right by R
// within an element, the element repeated (a multiplication by 0..0101..01
// repeats an element narrower than its period without carries).
z3::expr bitmaskValue(const z3::expr& w, unsigned width) {
  z3::context& c = w.ctx();
  z3::expr imms = z3::zext(w.extract(15, 10), 58), immr = z3::zext(w.extract(21, 16), 58);
  z3::expr value = c.bv_val(0, 64);
  for (unsigned esize = 2; esize <= width; esize *= 2) {
    uint64_t elemMask = esize == 64 ? ~0ull : (uint64_t(1) << esize) - 1, repeat = 0;
    for (unsigned at = 0; at < width; at += esize) repeat |= uint64_t(1) << at;
    z3::expr levels = c.bv_val(esize - 1, 64);
    z3::expr s = imms & levels, r = immr & levels;
    z3::expr ones = z3::shl(c.bv_val(1, 64), s + 1) - 1;
    z3::expr elem = (z3::lshr(ones, r) | z3::shl(ones, c.bv_val(esize, 64) - r)) & c.bv_val(elemMask, 64);
    value = z3::ite(elementIs(w, esize), elem * c.bv_val(repeat, 64), value);
  }
  return value;
}

// isWideConstant as a term: every set bit in one aligned halfword.
z3::expr wideConstant(const z3::expr& v, unsigned width) {
  z3::context& c = v.ctx();
  uint64_t all = width == 64 ? ~uint64_t(0) : uint64_t(0xffffffff);
  z3::expr any = c.bool_val(false);
  for (unsigned shift = 0; shift < width; shift += 16)
    any = any || (v & c.bv_val(uint64_t(all & ~(uint64_t(0xffff) << shift)), 64)) == 0;
  return any;
}

// objdump's choice of mov for orr with the zero register (Bitmask.h).
z3::expr movBitmask(const z3::expr& w, unsigned width) {
  z3::context& c = w.ctx();
  z3::expr v = bitmaskValue(w, width);
  z3::expr inverse = ~v & c.bv_val(width == 64 ? ~uint64_t(0) : uint64_t(0xffffffff), 64);
  return bitmaskValid(w, width) &&
         (w.extract(4, 0) == c.bv_val(31, 5) || !(wideConstant(v, width) || wideConstant(inverse, width)));
}

z3::expr sysreg(const z3::expr& w, bool write) {
  z3::context& c = w.ctx();
  z3::expr any = c.bool_val(false);
  for (const SystemRegister& r : systemRegisters())
    if (write ? r.writable : r.readable) any = any || w.extract(19, 5) == c.bv_val(r.encoding, 15);
  return any;
}

}  // namespace

z3::expr placeTerm(const BitField& f, const z3::expr& value) {
  z3::context& c = value.ctx();
  z3::expr wide = f.width == 32 ? value : z3::zext(value, 32 - f.width);
  return f.shift ? z3::shl(wide, c.bv_val(f.shift, 32)) : wide;
}

z3::expr extractTerm(const BitField& f, const z3::expr& word) { return word.extract(f.shift + f.width - 1, f.shift); }

z3::expr ruleTerm(FieldRule r, const z3::expr& w) {
  z3::context& c = w.ctx();
  z3::expr imm16 = w.extract(20, 5), hw = w.extract(22, 21);
  z3::expr movWide = !(imm16 == c.bv_val(0, 16) && hw != c.bv_val(0, 2));
  switch (r) {
    case FieldRule::None: return c.bool_val(true);
    case FieldRule::NoRor: return w.extract(23, 22) != c.bv_val(3, 2);
    case FieldRule::ExtendAmount: return z3::ule(w.extract(12, 10), c.bv_val(4, 3));
    case FieldRule::MemRegOption: return w.extract(14, 14) == c.bv_val(1, 1);
    case FieldRule::Bitmask: return bitmaskValid(w);
    case FieldRule::MovBitmaskX: return movBitmask(w, 64);
    case FieldRule::MovBitmaskW: return movBitmask(w, 32);
    case FieldRule::MovWide: return movWide;
    case FieldRule::MovWideNotW: return movWide && imm16 != c.bv_val(0xffff, 16);
    case FieldRule::MovSp: return w.extract(4, 0) == c.bv_val(31, 5) || w.extract(9, 5) == c.bv_val(31, 5);
    case FieldRule::SysRegRead: return sysreg(w, false);
    case FieldRule::SysRegWrite: return sysreg(w, true);
    case FieldRule::CondNotAlNv: return w.extract(15, 13) != c.bv_val(7, 3);
    case FieldRule::SameRnRm: return w.extract(9, 5) == w.extract(20, 16) && w.extract(15, 13) != c.bv_val(7, 3);
  }
  return c.bool_val(false);
}

uint32_t ruleBits(FieldRule r) {
  switch (r) {
    case FieldRule::None: return 0;
    case FieldRule::NoRor: return 0x00c00000;
    case FieldRule::ExtendAmount: return 0x00001c00;
    case FieldRule::MemRegOption: return 0x0000e000;
    case FieldRule::Bitmask: return 0x807ffc00;
    case FieldRule::MovBitmaskX: case FieldRule::MovBitmaskW: return 0x007ffc1f;
    case FieldRule::MovWide: case FieldRule::MovWideNotW: return 0x007fffe0;
    case FieldRule::MovSp: return 0x000003ff;
    case FieldRule::SysRegRead: case FieldRule::SysRegWrite: return 0x000fffe0;
    case FieldRule::CondNotAlNv: return 0x0000e000;
    case FieldRule::SameRnRm: return 0x001fe3e0;
  }
  return 0;
}

z3::expr acceptsTerm(const InstrDesc& d, const z3::expr& word) {
  z3::context& c = word.ctx();
  return (word & c.bv_val(d.mask(), 32)) == c.bv_val(d.match, 32) && ruleTerm(d.rule, word);
}

}  // namespace patchcheck::arm64
