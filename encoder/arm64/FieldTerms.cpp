#include "encoder/arm64/FieldTerms.h"

#include <vector>

#include "encoder/arm64/SystemNames.h"

namespace patchcheck::arm64 {
namespace {

// DecodeBitMasks' validity of N:immr:imms for a register of sf ? 64 : 32
// bits: the element size is given by the highest set bit of N:NOT(imms),
// and imms may not select a whole element of ones.
z3::expr bitmaskValid(const z3::expr& w) {
  z3::context& c = w.ctx();
  z3::expr n = w.extract(22, 22), imms = w.extract(15, 10), sf = w.extract(31, 31);
  z3::expr one = c.bv_val(1, 1), zero = c.bv_val(0, 1);
  z3::expr valid = n == one && imms != c.bv_val(63, 6) && sf == one;
  for (unsigned esize = 32; esize >= 2; esize /= 2) {
    unsigned len = 0;
    while ((1u << len) < esize) ++len;
    // imms<5:len> = ones then a zero: 0 for 32, 10 for 16, 110 for 8, ...
    unsigned prefixBits = 6 - len;
    uint64_t prefix = ((1u << prefixBits) - 1) & ~1u;
    z3::expr size = n == zero && imms.extract(5, len) == c.bv_val(prefix, prefixBits);
    z3::expr s = imms.extract(len - 1, 0);
    valid = valid || (size && s != c.bv_val(esize - 1, len));
  }
  return valid;
}

// MoveWidePreferred for a register of `width` bits.
z3::expr moveWidePreferred(const z3::expr& w, unsigned width) {
  z3::context& c = w.ctx();
  z3::expr n = w.extract(22, 22);
  z3::expr s = z3::zext(w.extract(15, 10), 2), r = z3::zext(w.extract(21, 16), 2);  // 8 bits: no wrap
  z3::expr form = width == 64 ? n == c.bv_val(1, 1) : (n == c.bv_val(0, 1) && w.extract(15, 15) == c.bv_val(0, 1));
  auto k = [&](unsigned v) { return c.bv_val(v, 8); };
  z3::expr low = z3::ult(s, k(16)) && z3::ule((k(0) - r) & k(15), k(15) - s);
  z3::expr high = z3::uge(s, k(width - 15)) && z3::ule(r & k(15), s - k(width - 15));
  return form && (low || high);
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
    case FieldRule::MovBitmaskX: return bitmaskValid(w) && !moveWidePreferred(w, 64);
    case FieldRule::MovBitmaskW: return bitmaskValid(w) && !moveWidePreferred(w, 32);
    case FieldRule::MovWide: return movWide;
    case FieldRule::MovWideNotW: return movWide && imm16 != c.bv_val(0xffff, 16);
    case FieldRule::MovSp: return w.extract(4, 0) == c.bv_val(31, 5) || w.extract(9, 5) == c.bv_val(31, 5);
    case FieldRule::SysRegRead: return sysreg(w, false);
    case FieldRule::SysRegWrite: return sysreg(w, true);
  }
  return c.bool_val(false);
}

uint32_t ruleBits(FieldRule r) {
  switch (r) {
    case FieldRule::None: return 0;
    case FieldRule::NoRor: return 0x00c00000;
    case FieldRule::ExtendAmount: return 0x00001c00;
    case FieldRule::MemRegOption: return 0x0000e000;
    case FieldRule::Bitmask: case FieldRule::MovBitmaskX: case FieldRule::MovBitmaskW: return 0x807ffc00;
    case FieldRule::MovWide: case FieldRule::MovWideNotW: return 0x007fffe0;
    case FieldRule::MovSp: return 0x000003ff;
    case FieldRule::SysRegRead: case FieldRule::SysRegWrite: return 0x000fffe0;
  }
  return 0;
}

z3::expr acceptsTerm(const InstrDesc& d, const z3::expr& word) {
  z3::context& c = word.ctx();
  return (word & c.bv_val(d.mask(), 32)) == c.bv_val(d.match, 32) && ruleTerm(d.rule, word);
}

}  // namespace patchcheck::arm64
