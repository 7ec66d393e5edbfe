#include "encoder/mips/SymbolicWord.h"

#include "encoder/mips/Fields.h"

namespace patchcheck::mips {
namespace {

z3::expr valueTerm(const Value& v, z3::context& c, const SymbolTerm& sym) {
  z3::expr k = c.bv_val(uint64_t(v.addend), 64);
  return v.isConstant() ? k : sym(v.symbol) + k;
}

// %hi/%lo/%higher/%highest as terms (16 bits wide); None keeps 64 bits.
z3::expr relocTerm(Reloc r, const z3::expr& x) {
  z3::context& c = x.ctx();
  switch (r) {
    case Reloc::None: return x;
    case Reloc::Hi: return (x + c.bv_val(0x8000, 64)).extract(31, 16);
    case Reloc::Lo: return x.extract(15, 0);
    case Reloc::Higher: return (x + c.bv_val(uint64_t(0x80008000ull), 64)).extract(47, 32);
    case Reloc::Highest: return (x + c.bv_val(uint64_t(0x800080008000ull), 64)).extract(63, 48);
  }
  return x;
}

// A 32-bit ISA computes addresses modulo 2^32, sign-extended.
z3::expr addressTerm(const z3::expr& x, const Target& t) {
  return t.is64() ? x : z3::sext(x.extract(31, 0), 32);
}

}  // namespace

SymbolicWord symbolicWord(const AssembledWord& w, const Target& t, z3::context& c,
                          const SymbolTerm& sym) {
  SymbolicWord out{c.bv_val(w.bits & ~w.symbolicMask, 32), {}, {}, w.bits & ~w.symbolicMask,
                   ~w.symbolicMask};
  if (w.isConcrete()) return out;
  auto require = [&](z3::expr cond, std::string why) {
    out.conditions.push_back(cond);
    out.reasons.push_back(std::move(why));
  };
  if (!w.desc) {  // .word with a symbolic value
    z3::expr v = relocTerm(w.operands[0].expr.reloc, valueTerm(w.operands[0].expr.value, c, sym));
    out.word = v.get_sort().bv_size() == 16 ? z3::zext(v, 16) : v.extract(31, 0);
    return out;
  }
  z3::expr word = out.word;
  for (const Operand& op : w.operands) {
    if (op.kind == Opnd::None || (operandBits(op.kind) & w.symbolicMask) == 0) continue;
    if (op.expr.isConstant() && !isBranchKind(op.kind) && op.kind != Opnd::Jump26) continue;
    unsigned width = immediateWidth(op.kind), shift = immediateShift(op.kind);
    z3::expr value = addressTerm(valueTerm(op.expr.value, c, sym), t);
    z3::expr field = c.bv_val(0, width);
    if (op.kind == Opnd::Jump26) {
      z3::expr slot = addressTerm(valueTerm(w.address.plus(4), c, sym), t);
      z3::expr region = c.bv_val(~uint64_t(0x0fffffff), 64);
      require((value & c.bv_val(3, 64)) == 0, "jump target " + op.expr.value.str() + " is word-aligned");
      require((value & region) == (slot & region),
              "jump target " + op.expr.value.str() + " lies in the 256 MB region of the delay slot");
      field = value.extract(27, 2);
    } else if (isBranchKind(op.kind)) {
      z3::expr slot = addressTerm(valueTerm(w.address.plus(4), c, sym), t);
      z3::expr diff = addressTerm(value - slot, t);
      int64_t limit = int64_t(1) << (width + 1);  // in bytes
      require((diff & c.bv_val(3, 64)) == 0, "branch target " + op.expr.value.str() + " is word-aligned");
      require(diff >= c.bv_val(uint64_t(-limit), 64) && diff < c.bv_val(uint64_t(limit), 64),
              "branch target " + op.expr.value.str() + " is within reach of '" +
                  std::string(w.desc->mnemonic) + "'");
      field = diff.extract(width + 1, 2);
    } else if (op.expr.reloc != Reloc::None) {
      if (op.expr.reloc == Reloc::Hi && t.is64() && w.desc->mnemonic == "lui") {
        // lui gives a sign-extended 32-bit value, and daddiu %lo adds
        // -0x8000..0x7fff in 64 bits: x is formed iff x + 0x8000 is a
        // sign-extended 32-bit value (0xffffffff7fff8000 is, 0x7fff8000 is not).
        z3::expr rounded = value + c.bv_val(0x8000, 64);
        require(z3::sext(rounded.extract(31, 0), 32) == rounded,
                op.expr.value.str() + " formed by lui %hi + daddiu %lo (in the 32-bit compatibility segments: "
                                      "x + 0x8000 a sign-extended 32-bit value)");
      }
      field = relocTerm(op.expr.reloc, value);
    } else {
      auto r = immediateRange(op.kind);
      require(value >= c.bv_val(uint64_t(r->lo), 64) && value <= c.bv_val(uint64_t(r->hi), 64),
              op.expr.value.str() + " fits the immediate of '" + std::string(w.desc->mnemonic) + "'");
      field = value.extract(width - 1, 0);
    }
    z3::expr placed = z3::zext(field, 32 - width);
    if (shift) placed = z3::shl(placed, c.bv_val(shift, 32));
    word = word | placed;
  }
  out.word = word.simplify();
  return out;
}

}  // namespace patchcheck::mips
