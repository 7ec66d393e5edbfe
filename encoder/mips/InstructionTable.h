#pragma once
// The one table of MIPS instructions. Each row gives a mnemonic, the fixed
// bits of its encoding, where it exists, and its operands in GNU syntax
// order. The assembler, encoder, decoder, printer and the semantics'
// dispatch all read this table; nothing else knows an opcode.
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "encoder/mips/Target.h"

namespace patchcheck::mips {

// Operand kinds. Each names both its syntax and the bits it occupies.
enum class Opnd : uint8_t {
  None,
  Rs, Rt, Rd,     // GPR in bits 25-21, 20-16, 15-11
  Zero,           // the literal register $zero; occupies no bits (div $0, ...)
  RtRs,           // one GPR written to both rt and rs (R6 bgezc, bltzc, ...)
  Sa,             // shift amount 0..31, bits 10-6
  SaHi,           // shift amount 32..63 as the *32 form (dsll $4,$5,40); asm only
  Simm16,         // signed 16-bit immediate, bits 15-0
  Uimm16,         // unsigned 16-bit immediate, bits 15-0
  LiSimm,         // li value that fits int16 (addiu rt, $0, imm); asm only
  LiUimm,         // li value that fits uint16 (ori rt, $0, imm); asm only
  LiHi,           // li value with a zero low half (lui rt, imm >> 16); asm only
  Mem16,          // offset(base): signed 16-bit offset in 15-0, base in rs
  Mem9,           // offset(base): signed 9-bit offset in 15-7, base in rs (R6)
  Br16,           // branch target, signed 16-bit word offset from the delay slot
  Br21,           // R6 beqzc/bnezc target, 21-bit word offset, bits 20-0
  Br26,           // R6 bc/balc target, 26-bit word offset, bits 25-0
  Jump26,         // j/jal target within the delay slot's 256 MB region
  Code20,         // syscall/sdbbp code, bits 25-6
  Code19,         // wait code, bits 24-6
  Code10Hi,       // break code, bits 25-16
  Code10Lo,       // break second code / trap code, bits 15-6
  Cp0Reg,         // coprocessor 0 register number in rd (printed $N)
  Sel,            // coprocessor 0 select, bits 2-0
  Stype,          // sync type, bits 10-6
  Op5,            // cache operation / prefetch hint in the rt field
  RsAgain,        // the rs operand written a second time (R6 dahi/dati rs, rs, imm);
                  // occupies no bits of its own
  RdRt,           // one GPR written to both rd and rt (pre-R6 clz, clo, dclz, dclo)
  Pos,            // bit-field position 0..31 (ins/ext lsb), bits 10-6
  PosHi,          // bit-field position 32..63 as pos - 32 (dextu, dinsu), bits 10-6
  SizeExt,        // ext/dext/dextu size 1..32 as size - 1 (msbd), bits 15-11
  SizeExtHi,      // dextm size 33..64 as size - 33, bits 15-11
  SizeIns,        // ins/dins size as pos + size - 1 (msb), bits 15-11
  SizeInsHi,      // dinsm/dinsu size as pos + size - 33, bits 15-11
  LsaSa,          // R6 lsa/dlsa shift 1..4 as sa - 1, bits 7-6
  Bp2,            // R6 align byte position 0..3, bits 7-6
  Bp3,            // R6 dalign byte position 0..7, bits 8-6
  HwReg,          // rdhwr hardware register number in rd (printed $N)
  HwSel,          // R6 rdhwr select, bits 8-6
  Pc19,           // R6 lapc/lwpc/lwupc address: pc + 19-bit word offset, bits 18-0
  PcOff19,        // R6 addiupc byte offset: a multiple of 4, 19-bit word offset, bits 18-0
  Pc18,           // R6 ldpc address: (pc & ~7) + 18-bit doubleword offset, bits 17-0
};
constexpr unsigned kOpndKinds = unsigned(Opnd::Pc18) + 1;

// Semantic identity: aliases share the Op of the instruction they spell.
enum class Op : uint16_t {
  // ALU, register forms
  Add, Addu, Sub, Subu, Dadd, Daddu, Dsub, Dsubu, And, Or, Xor, Nor, Slt, Sltu,
  Seleqz, Selnez, Movz, Movn,
  // ALU, immediate forms
  Addi, Addiu, Daddi, Daddiu, Slti, Sltiu, Andi, Ori, Xori, Lui, Aui, Daui,
  Dahi, Dati,
  // shifts
  Sll, Srl, Sra, Sllv, Srlv, Srav, Rotr, Rotrv, Dsll, Dsrl, Dsra, Dsll32,
  Dsrl32, Dsra32, Dsllv, Dsrlv, Dsrav, Drotr, Drotr32, Drotrv,
  // multiply and divide, pre-R6
  Mult, Multu, Div, Divu, Dmult, Dmultu, Ddiv, Ddivu, Mfhi, Mflo, Mthi, Mtlo,
  Mul2,  // pre-R6 SPECIAL2 mul rd, rs, rt
  Madd, Maddu, Msub, Msubu,  // pre-R6 HI/LO accumulate
  // multiply and divide, R6
  Mul, Muh, Mulu, Muhu, Div6, Mod, Divu6, Modu, Dmul, Dmuh, Dmulu, Dmuhu,
  Ddiv6, Dmod, Ddivu6, Dmodu,
  // loads and stores
  Lb, Lbu, Lh, Lhu, Lw, Lwu, Ld, Sb, Sh, Sw, Sd, Lwl, Lwr, Swl, Swr, Ldl, Ldr,
  Sdl, Sdr, Ll, Sc, Lld, Scd,
  // branches with a delay slot
  Beq, Bne, Blez, Bgtz, Bltz, Bgez, Bltzal, Bgezal, Beql, Bnel, Blezl, Bgtzl,
  Bltzl, Bgezl, Bltzall, Bgezall,
  // jumps
  J, Jal, Jr, Jalr, JrHb, JalrHb,
  // R6 compact branches
  Bc, Balc, Jic, Jialc, Beqzc, Bnezc, Beqc, Bnec, Bltc, Bgec, Bltuc, Bgeuc,
  Blezc, Bgezc, Bgtzc, Bltzc, Beqzalc, Bnezalc, Blezalc, Bgezalc, Bgtzalc,
  Bltzalc, Bovc, Bnvc,
  // system, traps, barriers, privileged
  Sync, Synci, Cache, Pref, Eret, Deret, Wait, Break, Syscall, Sdbbp, Teq, Tne,
  Tge, Tgeu, Tlt, Tltu, Teqi, Tnei, Tgei, Tgeiu, Tlti, Tltiu, Mfc0, Mtc0,
  Dmfc0, Dmtc0, Di, Ei, Tlbp, Tlbr, Tlbwi, Tlbwr,
  // bit fields, byte and bit order, counting (R2 and R6)
  Ins, Ext, Dins, Dinsm, Dinsu, Dext, Dextm, Dextu, Wsbh, Dsbh, Dshd, Seb, Seh,
  Bitswap, Dbitswap, Align, Dalign, Lsa, Dlsa, Clz, Clo, Dclz, Dclo,
  // R6 PC-relative
  Addiupc, Auipc, Aluipc, Lwpc, Lwupc, Ldpc,
  // hardware registers, shadow registers, R6 system
  Rdhwr, Rdpgpr, Wrpgpr, Sigrie, Dvp, Evp, Eretnc, Tlbinv, Tlbinvf,
};

// What kind of control transfer a row is; the model and checker ask this.
enum Flag : uint16_t {
  kAsmOnly = 1 << 0,       // assembler spelling only; never chosen by decode
  kDelaySlot = 1 << 1,     // branch or jump with a delay slot
  kLikely = 1 << 2,        // branch-likely: delay slot annulled if not taken
  kCompact = 1 << 3,       // R6 compact branch (no delay slot)
  kForbiddenSlot = 1 << 4, // R6 conditional compact: next word is forbidden slot
  kLink = 1 << 5,          // writes a return address
  kPrivileged = 1 << 6,    // kernel mode only
  kCommutative = 1 << 7,   // R6 beqc/bnec: assembler orders rs < rt
  kAlias = 1 << 8,         // decoder-chosen alias GNU marks as such: objdump
                           // -M no-aliases prints the canonical row instead
  kCommutativeHi = 1 << 9, // R6 bovc/bnvc: assembler orders rs >= rt
};

// Relations between the rs and rt fields some R6 encodings require
// (the R6 manuals reuse one opcode for several instructions this way).
enum class FieldRule : uint8_t {
  None,
  RsZero, RsNonZero,          // jic/beqzc, jialc/bnezc, lui/aui
  RsZeroRtNonZero,            // blezc, bgtzc, beqzalc, ...
  RsEqRtNonZero,              // bgezc, bltzc, bgezalc, bltzalc
  RsNeRtBothNonZero,          // bgec, bltc, bgeuc, bltuc
  RsGeRt,                     // bovc, bnvc
  RsNonZeroRsLtRt,            // beqc, bnec
  RtNotRa,                    // jalrc rt (GNU as: $31 must be spelled jialc $31, 0)
};

struct InstrDesc {
  std::string_view mnemonic;
  Op op;
  uint32_t match;                 // fixed bits; operand bits are zero here
  IsaSet isas;
  std::array<Opnd, 4> operands;   // in syntax order; Opnd::None ends the list
  uint16_t flags = 0;
  FieldRule rule = FieldRule::None;

  unsigned operandCount() const {
    unsigned n = 0;
    while (n < operands.size() && operands[n] != Opnd::None) ++n;
    return n;
  }
  // Every bit not covered by an operand is fixed.
  constexpr uint32_t mask() const;
  bool isControlTransfer() const {
    return flags & (kDelaySlot | kCompact);
  }
};

std::span<const InstrDesc> instructionTable();

// Encodings that belong to an instruction class patchcheck does not model
// (FPU, COP2, MSA, DSP, EVA, MT, VZ, microMIPS/MIPS16 mode switches, R6
// optional extensions): the decoder calls them reserved like any word
// without a row, and the printer names the class instead of a bare .word.
struct ExcludedClass {
  std::string_view name;  // "FPU", "MSA", ...
  uint32_t mask, match;   // a word is in the class when (word & mask) == match
  IsaSet isas;
};
std::span<const ExcludedClass> excludedClasses();

// Bits occupied by an operand kind in the word.
constexpr uint32_t operandBits(Opnd k) {
  switch (k) {
    case Opnd::None:
    case Opnd::Zero:
    case Opnd::RsAgain: return 0;
    case Opnd::Rs: return 0x03e00000;
    case Opnd::Rt: return 0x001f0000;
    case Opnd::Rd: return 0x0000f800;
    case Opnd::RtRs: return 0x03ff0000;
    case Opnd::RdRt: return 0x001ff800;
    case Opnd::Pos:
    case Opnd::PosHi: return 0x000007c0;
    case Opnd::SizeExt:
    case Opnd::SizeExtHi:
    case Opnd::SizeIns:
    case Opnd::SizeInsHi:
    case Opnd::HwReg: return 0x0000f800;
    case Opnd::LsaSa:
    case Opnd::Bp2: return 0x000000c0;
    case Opnd::Bp3:
    case Opnd::HwSel: return 0x000001c0;
    case Opnd::Pc19:
    case Opnd::PcOff19: return 0x0007ffff;
    case Opnd::Pc18: return 0x0003ffff;
    case Opnd::Sa:
    case Opnd::SaHi:
    case Opnd::Stype: return 0x000007c0;
    case Opnd::Simm16:
    case Opnd::Uimm16:
    case Opnd::LiSimm:
    case Opnd::LiUimm:
    case Opnd::LiHi:
    case Opnd::Br16: return 0x0000ffff;
    case Opnd::Mem16: return 0x03e0ffff;
    case Opnd::Mem9: return 0x03e0ff80;
    case Opnd::Br21: return 0x001fffff;
    case Opnd::Br26:
    case Opnd::Jump26: return 0x03ffffff;
    case Opnd::Code20: return 0x03ffffc0;
    case Opnd::Code19: return 0x01ffffc0;
    case Opnd::Code10Hi: return 0x03ff0000;
    case Opnd::Code10Lo: return 0x0000ffc0;
    case Opnd::Cp0Reg: return 0x0000f800;
    case Opnd::Sel: return 0x00000007;
    case Opnd::Op5: return 0x001f0000;
  }
  return 0;
}

constexpr uint32_t InstrDesc::mask() const {
  uint32_t bits = 0;
  for (Opnd k : operands) bits |= operandBits(k);
  return ~bits;
}

// Does `w` satisfy the row's rs/rt rule?
bool satisfiesRule(FieldRule, uint32_t w);

// Field accessors shared by every layer.
constexpr unsigned rsOf(uint32_t w) { return (w >> 21) & 31; }
constexpr unsigned rtOf(uint32_t w) { return (w >> 16) & 31; }
constexpr unsigned rdOf(uint32_t w) { return (w >> 11) & 31; }
constexpr unsigned saOf(uint32_t w) { return (w >> 6) & 31; }
constexpr unsigned functOf(uint32_t w) { return w & 63; }

}  // namespace patchcheck::mips
