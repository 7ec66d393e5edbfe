#include "encoder/riscv/Decoder.h"

#include <algorithm>

namespace patchcheck::riscv {
namespace {

// The immediate operand of a row, if it has one.
Opnd immediateOf(const Row& r) {
  for (Opnd k : r.operands)
    if (layoutOf(k).count && k != Opnd::Csr && k != Opnd::Pred && k != Opnd::Succ) return k;
  return Opnd::None;
}

// Fills the fields one operand kind carries.
void fill(Decoded& d, Opnd k, uint32_t w) {
  auto prime = [](uint32_t v) { return uint8_t(8 + (v & 7)); };
  switch (k) {
    case Opnd::Rd: d.rd = uint8_t(rdOf(w)); return;
    case Opnd::Rs1: case Opnd::AmoAddr: d.rs1 = uint8_t(rs1Of(w)); return;
    case Opnd::Rs2: d.rs2 = uint8_t(rs2Of(w)); return;
    case Opnd::RdRs1: d.rd = d.rs1 = uint8_t(rdOf(w)); return;
    case Opnd::CRs1Hi: d.rs1 = uint8_t(rdOf(w)); return;
    case Opnd::CRs2: d.rs2 = uint8_t((w >> 2) & 31); return;
    case Opnd::CRdP: d.rd = prime(w >> 2); return;
    case Opnd::CRs2P: d.rs2 = prime(w >> 2); return;
    case Opnd::CRdP9: d.rd = prime(w >> 7); return;
    case Opnd::CRs1P9: d.rs1 = prime(w >> 7); return;
    case Opnd::CRdRs1P9: d.rd = d.rs1 = prime(w >> 7); return;
    case Opnd::Same: d.rs1 = d.rd; return;
    case Opnd::SpRd: d.rd = d.rs1 = 2; return;
    case Opnd::SpRs1: d.rs1 = 2; return;
    case Opnd::ZeroRs1: d.rs1 = 0; return;
    case Opnd::ZeroRs2: d.rs2 = 0; return;
    case Opnd::LinkRa: d.rd = 1; return;
    case Opnd::ZeroImm: d.imm = 0; return;
    case Opnd::MemI: case Opnd::MemS: d.rs1 = uint8_t(rs1Of(w)); break;
    case Opnd::CMemLwsp: case Opnd::CMemLdsp: case Opnd::CMemSwsp: case Opnd::CMemSdsp: d.rs1 = 2; break;
    case Opnd::CMemW: case Opnd::CMemD: d.rs1 = prime(w >> 7); break;
    case Opnd::Csr: d.csr = uint16_t(extractImm(k, w)); return;
    case Opnd::Pred: d.pred = uint8_t(extractImm(k, w)); return;
    case Opnd::Succ: d.succ = uint8_t(extractImm(k, w)); return;
    case Opnd::Fd: d.rd = uint8_t(rdOf(w)); return;
    case Opnd::Fs1: d.rs1 = uint8_t(rs1Of(w)); return;
    case Opnd::Fs2: d.rs2 = uint8_t(rs2Of(w)); return;
    case Opnd::Fs3: d.rs3 = uint8_t(w >> 27); return;
    case Opnd::FRs1Rs2: d.rs1 = d.rs2 = uint8_t(rs1Of(w)); return;
    case Opnd::Rm: d.rm = uint8_t((w >> 12) & 7); return;
    case Opnd::CFdP: d.rd = prime(w >> 2); return;
    case Opnd::CFs2P: d.rs2 = prime(w >> 2); return;
    case Opnd::CFs2: d.rs2 = uint8_t((w >> 2) & 31); return;
    case Opnd::ImmU: d.imm = int64_t(int32_t(uint32_t(extractImm(k, w)) << 12)); return;
    case Opnd::CLui: d.imm = extractImm(k, w) * 4096; return;
    default: break;
  }
  d.imm = extractImm(k, w);
}

}  // namespace

namespace {

bool matches(const Row& r, uint32_t bits, unsigned xlen, bool rvc, bool fd, bool architectural) {
  if (!r.availableOn(xlen, rvc, fd)) return false;
  uint32_t w = (r.flags & kCompressed) ? (bits & 0xffff) : bits;
  if ((w & r.mask) != r.match) return false;
  if (r.flags & kCompressed ? (bits & 3) == 3 : (bits & 3) != 3) return false;
  if ((r.flags & kRdNonZero) && rdOf(w) == 0) return false;
  if ((r.flags & kRdNotSp) && rdOf(w) == 2) return false;
  if ((r.flags & kRs2NonZero) && ((w >> 2) & 31) == 0) return false;
  if ((r.flags & kRs1EqRs2) && rs1Of(w) != rs2Of(w)) return false;
  // Rounding modes 5 and 6 are reserved (F, "Floating-Point Control and
  // Status Register"): an illegal instruction, which objdump prints.
  if (architectural && std::find(r.operands.begin(), r.operands.end(), Opnd::Rm) != r.operands.end() &&
      !kRoundingModes[(w >> 12) & 7])
    return false;
  Opnd imm = immediateOf(r);
  if ((r.flags & kImmNonZero) && imm != Opnd::None && extractImm(imm, w) == 0) return false;
  // RV32: a shift amount with bit 5 set is reserved (Unprivileged ISA 2.4,
  // 16.5), though objdump 2.40 prints it as a shift.
  if (architectural && xlen == 32 && (imm == Opnd::Shamt || imm == Opnd::CShamt) && extractImm(imm, w) >= 32)
    return false;
  return true;
}

}  // namespace

bool rowMatches(const Row& r, uint32_t bits, unsigned xlen, bool rvc, bool fd) {
  return matches(r, bits, xlen, rvc, fd, true);
}

const Row* decodeAlias(uint32_t bits, unsigned xlen, bool rvc, bool fd) {
  for (const Row& r : instructionTable())
    if (matches(r, bits, xlen, rvc, fd, false)) return &r;
  return nullptr;
}

Decoded decode(uint32_t bits, unsigned xlen, bool rvc, bool fd) {
  Decoded d;
  d.length = lengthOf(uint16_t(bits));
  if (d.length == 0 || (d.length == 2 && !rvc)) return d;
  uint32_t w = d.length == 2 ? (bits & 0xffff) : bits;
  for (const Row& r : instructionTable()) {
    if ((r.flags & kAlias) || !rowMatches(r, w, xlen, rvc, fd)) continue;
    d.row = &r;
    d.op = r.op;
    if (isFloatOp(r.op) && d.length == 4) d.rm = uint8_t((w >> 12) & 7);  // also where the row fixes it
    for (Opnd k : r.operands)
      if (k != Opnd::None) fill(d, k, w);
    if (r.op >= Op::LrW && r.op <= Op::AmomaxuD) d.aq = (w >> 26) & 1, d.rl = (w >> 25) & 1;
    return d;
  }
  return d;
}

Decoded decode(std::span<const uint8_t> bytes, unsigned xlen, bool rvc, bool fd) {
  if (bytes.size() < 2) return {};
  uint32_t bits = uint32_t(bytes[0]) | uint32_t(bytes[1]) << 8;
  unsigned n = lengthOf(uint16_t(bits));
  if (n == 4) {
    if (bytes.size() < 4) return {};
    bits |= uint32_t(bytes[2]) << 16 | uint32_t(bytes[3]) << 24;
  }
  return decode(bits, xlen, rvc, fd);
}

}  // namespace patchcheck::riscv
