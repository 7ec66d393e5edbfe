#include "encoder/mips/FieldTerms.h"

#include "encoder/mips/Fields.h"

namespace patchcheck::mips {
namespace {

// Bit positions of the 5-bit register fields `placeRegister` writes.
std::vector<unsigned> registerShifts(Opnd k) {
  std::vector<unsigned> out;
  uint32_t ones = placeRegister(k, 31);
  for (unsigned s = 0; s + 5 <= 32;) {
    if (((ones >> s) & 31) == 31) {
      out.push_back(s);
      s += 5;
    } else {
      ++s;
    }
  }
  return out;
}

}  // namespace

std::vector<Field> fieldsOf(Opnd k) {
  std::vector<Field> out;
  if (isRegisterKind(k) || isMemoryKind(k)) {
    auto shifts = registerShifts(k);
    if (!shifts.empty()) out.push_back({5, shifts});
  }
  if (unsigned w = immediateWidth(k)) out.push_back({w, {immediateShift(k)}});
  return out;
}

z3::expr placeTerm(const Field& f, const z3::expr& value) {
  z3::context& c = value.ctx();
  z3::expr word = c.bv_val(0, 32);
  z3::expr wide = f.width == 32 ? value : z3::zext(value, 32 - f.width);
  for (unsigned s : f.shifts) word = word | z3::shl(wide, c.bv_val(s, 32));
  return word;
}

z3::expr extractTerm(const Field& f, unsigned place, const z3::expr& word) {
  unsigned s = f.shifts[place];
  return word.extract(s + f.width - 1, s);
}

z3::expr extractTerm(const Field& f, const z3::expr& word) { return extractTerm(f, 0, word); }

z3::expr ruleTerm(FieldRule r, const z3::expr& word) {
  z3::context& c = word.ctx();
  z3::expr s = word.extract(25, 21), t = word.extract(20, 16);
  z3::expr zero = c.bv_val(0, 5);
  switch (r) {
    case FieldRule::None: return c.bool_val(true);
    case FieldRule::RsZero: return s == zero;
    case FieldRule::RsNonZero: return s != zero;
    case FieldRule::RsZeroRtNonZero: return s == zero && t != zero;
    case FieldRule::RsEqRtNonZero: return s == t && t != zero;
    case FieldRule::RsNeRtBothNonZero: return s != t && s != zero && t != zero;
    case FieldRule::RsGeRt: return z3::uge(s, t);
    case FieldRule::RsNonZeroRsLtRt: return s != zero && z3::ult(s, t);
    case FieldRule::RtNotRa: return t != c.bv_val(31, 5);
  }
  return c.bool_val(false);
}

z3::expr acceptsTerm(const InstrDesc& d, const z3::expr& word) {
  z3::context& c = word.ctx();
  return (word & c.bv_val(d.mask(), 32)) == c.bv_val(d.match, 32) && ruleTerm(d.rule, word);
}

}  // namespace patchcheck::mips
