#pragma once
// Instruction bits -> table row and fields. This is the model half's way
// in (model/riscv): decode the parcel(s) at pc, switch on `op`, read the
// fields. Every field is filled as the operation uses it, whatever row
// spelt it: a compressed instruction comes back as the operation it
// expands to (c.addi a0,1 is Op::Addi with rd = rs1 = a0, imm = 1; c.j is
// Op::Jal with rd = x0; c.jalr a5 is Op::Jalr with rd = ra, rs1 = a5,
// imm = 0), so the model needs no case for the C extension beyond
// `length` (pc advances by 2 or 4, the link register gets pc + length).
//
//   Decoded d = riscv::decode(bits, xlen, rvc);   // bits: the low 16 or 32 bits
//   if (!d.row) -> illegal instruction (d.length still says 2 or 4)
//   switch (d.op) { case Op::Addi: x[d.rd] = x[d.rs1] + d.imm; ... }
//
// Immediates: `imm` is the value the operation adds or compares, sign-
// extended: I/S-type offsets, U-type as imm20 << 12 (lui, auipc, c.lui),
// branch and jump offsets in bytes from the instruction's own address,
// shift amounts, and the 5-bit zimm of csrr*i. `csr` is the CSR number;
// `pred`/`succ` are fence's sets (bit 3 i, 2 o, 1 r, 0 w), fence.tso is its
// own op. `aq`/`rl` are the A extension's ordering bits.
#include <cstdint>
#include <span>

#include "encoder/riscv/InstructionTable.h"

namespace patchcheck::riscv {

struct Decoded {
  const Row* row = nullptr;  // the canonical row (objdump -M no-aliases); nullptr: no instruction
  unsigned length = 0;       // 2 or 4; 0 when the low bits announce a longer instruction
  Op op = Op::Unimp;
  uint8_t rd = 0, rs1 = 0, rs2 = 0;  // F/D: f or x registers as the op says (FloatOperands)
  uint8_t rs3 = 0;                    // fmadd and the other R4 instructions
  uint8_t rm = 0;                     // F/D: bits 14:12 (the rounding mode where the op rounds)
  int64_t imm = 0;
  uint16_t csr = 0;
  uint8_t pred = 0, succ = 0;
  bool aq = false, rl = false;
};

// The length the first 16-bit parcel announces (Unprivileged ISA 1.5,
// "Base Instruction-Length Encoding"): 2 unless bits 1:0 are 11, 4 unless
// bits 4:2 are also 111; 0 for the longer formats, which no extension
// here uses.
constexpr unsigned lengthOf(uint16_t parcel) {
  if ((parcel & 3) != 3) return 2;
  return (parcel & 0x1c) != 0x1c ? 4 : 0;
}

// `bits`: the instruction, low parcel first (a 16-bit one in the low half;
// the upper half is ignored). `xlen` 32 or 64; `rvc`: the C extension is
// on (without it a 16-bit parcel is an illegal instruction); `fd`: the F
// and D extensions are (without them their encodings are no instruction).
Decoded decode(uint32_t bits, unsigned xlen, bool rvc, bool fd = false);
// The same from memory (little-endian parcels); length 0 and no row when
// `bytes` is shorter than the instruction.
Decoded decode(std::span<const uint8_t> bytes, unsigned xlen, bool rvc, bool fd = false);

// The first row (in table order, aliases included) that accepts the bits:
// what objdump prints. nullptr when none does. Like objdump it takes an
// RV32 shift by 32..63, which the architecture reserves (decode does not),
// and the reserved rounding modes 5 and 6 (it prints them "unknown").
const Row* decodeAlias(uint32_t bits, unsigned xlen, bool rvc, bool fd = false);

// Does the row accept these bits on that target (fixed bits, width and
// the row's register and immediate rules)?
bool rowMatches(const Row&, uint32_t bits, unsigned xlen, bool rvc, bool fd = false);

}  // namespace patchcheck::riscv
