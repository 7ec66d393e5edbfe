// An instruction's operands for the semantics: the decoder
// (encoder/riscv/Decoder.h) reads the registers, the CSR number and the
// fence sets from the concrete bits, a compressed instruction as the
// operation it expands to; the immediate is rebuilt here as a term from
// the row's layout, so that one that depends on a symbolic address (a
// branch to a symbol, auipc/jalr's %pcrel_hi/%pcrel_lo) stays exact.
#include "model/riscv/Semantics.h"

namespace patchcheck::riscv {
namespace {

// The row's immediate operand, if it has one.
Opnd immediateKind(const Row& r) {
  for (Opnd k : r.operands)
    if (layoutOf(k).count && k != Opnd::Csr && k != Opnd::Pred && k != Opnd::Succ) return k;
  return Opnd::None;
}

// Bits [hi, lo] of the instruction term.
z3::expr bitsOf(const z3::expr& word, unsigned hi, unsigned lo) { return word.extract(hi, lo); }

// The immediate by its layout (value bit, width, instruction bit), as a
// 64-bit term, sign-extended when the field is signed; scaled and upper
// immediates as the decoder gives them (U-type and c.lui as imm << 12).
z3::expr immediateTerm(const z3::expr& word, Opnd k, z3::context& c) {
  const ImmLayout& l = layoutOf(k);
  z3::expr v = c.bv_val(0, 64);
  for (unsigned i = 0; i < l.count; ++i) {
    const Piece& p = l.pieces[i];
    z3::expr piece = z3::zext(bitsOf(word, p.at + p.width - 1, p.at), 64 - p.width);
    v = v | z3::shl(piece, c.bv_val(p.from, 64));
  }
  if (l.isSigned && l.bits < 64) v = z3::sext(v.extract(l.bits - 1, 0), 64 - l.bits);
  if (k == Opnd::ImmU || k == Opnd::CLui)
    v = z3::sext(z3::concat(v.extract(19, 0), c.bv_val(0, 12)), 32);  // RV64I "LUI": bits 31:12, sign-extended
  return v.simplify();
}

}  // namespace

Operands operandsOf(const Fetched& f, z3::context& c) {
  const Decoded& d = f.d;
  Operands o{d.rd, d.rs1, d.rs2, c.bv_val(uint64_t(d.imm), 64), d.csr, d.pred, d.succ, 0};
  if (!d.row) return o;
  if (f.bytes == 4) o.fm = f.bits >> 28;
  // Zicsr's immediate forms keep their 5-bit immediate where rs1 is:
  // a zero one writes nothing, as rs1 = x0 does.
  if (d.op == Op::Csrrwi || d.op == Op::Csrrsi || d.op == Op::Csrrci) o.rs1 = (f.bits >> 15) & 31;
  Opnd k = immediateKind(*d.row);
  if (k != Opnd::None && !f.word.is_numeral()) o.imm = immediateTerm(f.word, k, c);
  return o;
}

}  // namespace patchcheck::riscv
