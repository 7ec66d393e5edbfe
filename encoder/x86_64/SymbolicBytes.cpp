#include "encoder/x86_64/SymbolicBytes.h"

#include <algorithm>

namespace patchcheck::x86_64 {
namespace {

z3::expr valueTerm(const Value& v, z3::context& c, const SymbolTerm& sym) {
  z3::expr k = c.bv_val(uint64_t(v.addend), 64);
  return v.isConstant() ? k : sym(v.symbol) + k;
}

std::string firstWord(const std::string& s) { return s.substr(0, s.find_first_of(" \t")); }

std::string kindOf(const Field& f) {
  if (f.kind == Field::Kind::PcRelative) return f.size == 1 ? "pc8" : "pc32";
  if (f.size == 8) return "abs64";
  return f.signExtended ? "abs32s" : "abs32";
}

}  // namespace

SymbolicUnit symbolicUnit(const AssembledUnit& u, z3::context& c, const SymbolTerm& sym) {
  size_t n = u.bytes.size();
  std::vector<z3::expr> bytes;  // memory order
  for (uint8_t b : u.bytes) bytes.push_back(c.bv_val(unsigned(b), 8));
  uint64_t known = 0, mask = 0;
  for (size_t k = 0; k < std::min<size_t>(n, 8); ++k)
    known |= uint64_t(u.bytes[k]) << (8 * k), mask |= 0xffull << (8 * k);
  SymbolicUnit out{c.bv_val(0, 1), {}, {}, known, mask};
  if (const Field* f = u.field ? &*u.field : nullptr) {
    z3::expr value = valueTerm(f->value, c, sym);
    z3::expr x = f->kind == Field::Kind::PcRelative ? value - valueTerm(f->relativeTo, c, sym) : value;
    unsigned bits = 8 * f->size;
    for (unsigned k = 0; k < f->size; ++k) {
      bytes[f->offset + k] = x.extract(8 * k + 7, 8 * k);
      if (f->offset + k < 8) out.knownMask &= ~(0xffull << (8 * (f->offset + k)));
    }
    out.knownBits &= out.knownMask;
    if (bits < 64) {
      z3::expr low = x.extract(bits - 1, 0);
      bool sext = f->signExtended || f->kind == Field::Kind::PcRelative;
      out.conditions.push_back((sext ? z3::sext(low, 64 - bits) : z3::zext(low, 64 - bits)) == x);
      std::string insn = u.desc ? "'" + u.source + "'" : firstWord(u.source) + " " + f->text;
      out.reasons.push_back(f->kind == Field::Kind::PcRelative
                                ? insn + " at " + u.address.str() + " reaches " + f->value.str() + " (rel" +
                                      std::to_string(bits) + " from " + f->relativeTo.str() + ")"
                                : insn + ": " + f->value.str() + " fits the " +
                                      (sext ? "sign-extended " : "zero-extended ") + std::to_string(bits) +
                                      "-bit field");
    }
  }
  z3::expr term = bytes.back();
  for (size_t k = n - 1; k-- > 0;) term = z3::concat(term, bytes[k]);
  out.term = term.simplify();
  return out;
}

std::optional<Relocation> relocationOf(const AssembledUnit& u) {
  if (!u.field) return std::nullopt;
  const Field& f = *u.field;
  Relocation r;
  r.kind = kindOf(f);
  r.value = f.value;
  r.text = f.text;
  if (f.kind == Field::Kind::PcRelative) {
    r.relativeTo = f.relativeTo;  // the end of the instruction, where the CPU counts from
    r.formula = "S - P";
  } else {
    r.formula = "S";
  }
  r.pieces = {{0, 8 * f.size, 8 * f.offset}};
  // The encoding exists only when the value fits (symbolicUnit's condition).
  bool sext = f.signExtended || f.kind == Field::Kind::PcRelative;
  if (f.size < 8) r.fits = sext ? Relocation::Fits::Signed : Relocation::Fits::Unsigned;
  return r;
}

}  // namespace patchcheck::x86_64
