#include "encoder/riscv/SymbolicUnit.h"

namespace patchcheck::riscv {
namespace {

z3::expr valueTerm(const Value& v, z3::context& c, const SymbolTerm& sym) {
  z3::expr k = c.bv_val(uint64_t(v.addend), 64);
  return v.isConstant() ? k : sym(v.symbol) + k;
}

// A 32-bit target computes addresses modulo 2^32, sign-extended.
z3::expr narrow(const z3::expr& x, unsigned xlen) { return xlen == 64 ? x : z3::sext(x.extract(31, 0), 32); }

// Is x within [-2^(bits-1), 2^(bits-1)) as a signed 64-bit number?
z3::expr signedFits(const z3::expr& x, unsigned bits) {
  z3::context& c = x.ctx();
  return x >= c.bv_val(uint64_t(-(int64_t(1) << (bits - 1))), 64) && x < c.bv_val(uint64_t(int64_t(1) << (bits - 1)), 64);
}

// `field` (64 bits) placed by the operand's layout into a unit of `width` bits.
z3::expr place(Opnd k, const z3::expr& field, unsigned width) {
  z3::context& c = field.ctx();
  const ImmLayout& l = layoutOf(k);
  z3::expr out = c.bv_val(0, width);
  for (unsigned i = 0; i < l.count; ++i) {
    const Piece& p = l.pieces[i];
    z3::expr bits = field.extract(p.from + p.width - 1, p.from);
    z3::expr wide = p.width < width ? z3::zext(bits, width - p.width) : bits;
    out = out | z3::shl(wide, c.bv_val(p.at, width));
  }
  return out;
}

}  // namespace

patchcheck::SymbolicUnit symbolicUnit(const AssembledUnit& u, unsigned xlen, z3::context& c, const SymbolTerm& sym) {
  unsigned width = 8 * u.bytes;
  uint64_t all = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  uint64_t known = u.bits & ~u.symbolicMask & all;
  patchcheck::SymbolicUnit out{c.bv_val(known, width), {}, {}, known, ~u.symbolicMask & all};
  if (u.isConcrete()) return out;
  auto require = [&](z3::expr cond, std::string why) {
    out.conditions.push_back(cond);
    out.reasons.push_back(std::move(why));
  };
  if (!u.row) {  // data with a symbolic value
    z3::expr v = valueTerm(u.operands[0].expr.value, c, sym);
    out.term = width == 64 ? v : v.extract(width - 1, 0);
    return out;
  }
  z3::expr term = out.term;
  z3::expr here = valueTerm(u.address, c, sym);
  for (const Operand& op : u.operands) {
    if (op.kind == Opnd::None || (operandBits(op.kind) & u.symbolicMask) == 0) continue;
    z3::expr x = valueTerm(op.expr.value, c, sym);
    std::string name = op.expr.value.str();
    z3::expr field = c.bv_val(0, 64);
    switch (op.expr.reloc) {
      case Reloc::Hi: case Reloc::PcrelHi: {
        bool pcrel = op.expr.reloc == Reloc::PcrelHi;
        z3::expr v = narrow(pcrel ? x - here : x, xlen);
        z3::expr rounded = v + c.bv_val(0x800, 64);
        if (xlen == 64)
          require(z3::sext(rounded.extract(31, 0), 32) == rounded,
                  name + (pcrel ? " lies within +-2 GiB of the auipc that forms it" : " is formed by lui %hi + %lo (within +-2 GiB of 0)"));
        field = z3::lshr(rounded, c.bv_val(12, 64));
        break;
      }
      case Reloc::Lo: field = x; break;
      case Reloc::PcrelLo: field = x - valueTerm(*u.pcrelBase, c, sym); break;
      case Reloc::None: {
        z3::expr offset = narrow(x - here, xlen);
        unsigned bits = layoutOf(op.kind).bits;
        require((offset & c.bv_val(1, 64)) == 0, "target " + name + " is 2-byte aligned");
        require(signedFits(offset, bits), "target " + name + " is within reach of '" + std::string(u.row->mnemonic) +
                                              "' (+-" + std::to_string(int64_t(1) << (bits - 1)) + " bytes)");
        field = offset;
        break;
      }
    }
    term = term | place(op.kind, field, width);
  }
  out.term = term.simplify();
  return out;
}

}  // namespace patchcheck::riscv
