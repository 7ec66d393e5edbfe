#include "encoder/arm64/SymbolicWord.h"

#include "encoder/arm64/Operands.h"

namespace patchcheck::arm64 {
namespace {

z3::expr valueTerm(const Value& v, z3::context& c, const SymbolTerm& sym) {
  z3::expr k = c.bv_val(uint64_t(v.addend), 64);
  return v.isConstant() ? k : sym(v.symbol) + k;
}

// The operand whose bits depend on a symbolic address.
const Operand* symbolicOperand(const AssembledUnit& u) {
  if (!u.desc) return &u.operands[0];
  for (const Operand& o : u.operands)
    if (o.kind != Opnd::None && (operandBits(o.kind) & u.symbolicMask)) return &o;
  return nullptr;
}

// `field` (a bit-vector) at `f`'s place in a 32-bit word.
z3::expr placed(const BitField& f, const z3::expr& field) {
  z3::context& c = field.ctx();
  z3::expr wide = f.width == 32 ? field : z3::zext(field, 32 - f.width);
  return f.shift ? z3::shl(wide, c.bv_val(f.shift, 32)) : wide;
}

std::string reach(int64_t bytes) {
  if (bytes >= (int64_t(1) << 30)) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (int64_t(1) << 20)) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

}  // namespace

SymbolicUnit symbolicUnit(const AssembledUnit& u, z3::context& c, const SymbolTerm& sym) {
  unsigned bits = 8 * u.bytes;
  uint64_t known = u.bits & ~u.symbolicMask;
  SymbolicUnit out{c.bv_val(known, bits), {}, {}, known, ~u.symbolicMask & (bits == 64 ? ~0ull : 0xffffffffull)};
  const Operand* op = symbolicOperand(u);
  if (u.isConcrete() || !op) return out;
  auto require = [&](z3::expr cond, std::string why) {
    out.conditions.push_back(cond);
    out.reasons.push_back(std::move(why));
  };
  z3::expr value = valueTerm(op->value, c, sym);
  if (!u.desc) {  // .word / .quad of a symbol
    if (bits == 32) {
      require(z3::sext(value.extract(31, 0), 32) == value || z3::zext(value.extract(31, 0), 32) == value,
              op->value.str() + " fits the 32 bits of '" + u.source + "'");
      out.term = value.extract(31, 0);
    } else {
      out.term = value;
    }
    return out;
  }
  z3::expr pc = valueTerm(u.address, c, sym);
  std::string mnemonic(u.desc->mnemonic), at = u.address.str(), to = op->value.str();
  Layout l = layoutOf(op->kind);
  z3::expr word = out.term;
  switch (op->kind) {
    case Opnd::Label26: case Opnd::Label19: case Opnd::Label14: {
      unsigned width = l.fields[0].width;
      int64_t limit = int64_t(1) << (width + 1);  // bytes
      z3::expr diff = value - pc;
      require((diff & c.bv_val(3, 64)) == 0, "target " + to + " of '" + mnemonic + "' at " + at + " is 4-byte aligned");
      require(diff >= c.bv_val(uint64_t(-limit), 64) && diff < c.bv_val(uint64_t(limit), 64),
              "'" + mnemonic + "' at " + at + " reaches " + to + " (within -" + reach(limit) + "..+" + reach(limit) +
                  " - 4)");
      word = word | placed(l.fields[0], diff.extract(width + 1, 2));
      break;
    }
    case Opnd::AdrLabel: case Opnd::AdrpLabel: {
      bool page = op->kind == Opnd::AdrpLabel;
      z3::expr mask = c.bv_val(~uint64_t(0xfff), 64);
      z3::expr diff = page ? z3::ashr((value & mask) - (pc & mask), 12) : value - pc;
      int64_t limit = int64_t(1) << 20;
      require(diff >= c.bv_val(uint64_t(-limit), 64) && diff < c.bv_val(uint64_t(limit), 64),
              "'" + mnemonic + "' at " + at + " reaches " + to + " (within +-" + reach(page ? limit << 12 : limit) + ")");
      word = word | placed(l.fields[0], diff.extract(20, 2)) | placed(l.fields[1], diff.extract(1, 0));
      break;
    }
    case Opnd::AddImm:
      word = word | placed(l.fields[0], value.extract(11, 0));
      break;
    default: {  // :lo12: in an unsigned-offset load or store, scaled by the access size
      unsigned scale = accessScale(op->kind);
      if (scale)
        require((value & c.bv_val((1u << scale) - 1, 64)) == 0,
                ":lo12:" + to + " of '" + mnemonic + "' at " + at + " is a multiple of the access size " +
                    std::to_string(1u << scale));
      z3::expr lo = value.extract(11, scale);
      word = word | placed(l.fields[1], scale ? z3::zext(lo, scale) : lo);
      break;
    }
  }
  out.term = word.simplify();
  return out;
}

std::optional<Relocation> relocationOf(const AssembledUnit& u) {
  if (u.isConcrete()) return std::nullopt;
  const Operand* op = symbolicOperand(u);
  if (!op) return std::nullopt;
  Relocation r;
  r.value = op->value;
  r.text = op->value.str();
  if (!u.desc) {
    r.kind = u.bytes == 8 ? "abs64" : "abs32";
    r.formula = "S";
    r.pieces = {{0, 8 * u.bytes, 0}};
    return r;
  }
  r.relativeTo = u.address;  // A64 pc-relative fields count from the instruction itself
  Layout l = layoutOf(op->kind);
  // The formula's low bits fill field `f` (one run) of the operand.
  auto whole = [&](unsigned f, unsigned width) { r.pieces = {{0, width, l.fields[f].shift}}; };
  switch (op->kind) {
    case Opnd::Label26: case Opnd::Label14: case Opnd::Label19:
      r.kind = op->kind == Opnd::Label26 ? (u.desc->op == Op::Bl ? "call26" : "jump26")
               : op->kind == Opnd::Label14 ? "tstbr14"
               : (u.desc->flags & kLoad)   ? "ld_prel_lo19"
                                           : "condbr19";
      r.formula = "(S - P) >> 2";
      whole(0, l.fields[0].width);
      break;
    case Opnd::AdrLabel: case Opnd::AdrpLabel:
      // The 21-bit offset (bytes for ADR, 4 KiB pages from the
      // instruction's page for ADRP) is split: immhi = bits 20:2, immlo = 1:0.
      r.kind = op->kind == Opnd::AdrLabel ? "adr_prel_lo21" : "adr_prel_pg_hi21";
      r.formula = op->kind == Opnd::AdrLabel ? "S - P" : "(S >> 12) - (P >> 12)";
      r.pieces = {{2, l.fields[0].width, l.fields[0].shift}, {0, l.fields[1].width, l.fields[1].shift}};
      break;
    case Opnd::AddImm:
      r.kind = "add_abs_lo12_nc", r.relativeTo.reset(), r.text = ":lo12:" + r.text, r.formula = "S & 0xfff";
      whole(0, 12);
      break;
    default: {  // :lo12: of an unsigned-offset load or store, in units of the access size
      unsigned scale = accessScale(op->kind);
      r.kind = "ldst" + std::to_string(8u << scale) + "_abs_lo12_nc";
      r.formula = "(S & 0xfff) >> " + std::to_string(scale);
      r.relativeTo.reset(), r.text = ":lo12:" + r.text;
      whole(1, 12 - scale);
      break;
    }
  }
  return r;
}

}  // namespace patchcheck::arm64
