#pragma once
// The one table of A64 instructions. Each row gives a mnemonic, the fixed
// bits of its encoding and its operands in GNU syntax order. The assembler,
// encoder, decoder, printer and (later) the semantics' dispatch all read
// this table; nothing else knows an opcode. 32- and 64-bit forms are
// separate rows (sf is a fixed bit), so every operand kind has one width.
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace patchcheck::arm64 {

// Operand kinds. Each names its syntax and the bits it occupies
// (Operands.h gives the fields). "Sp" register kinds read 31 as sp/wsp,
// the others as xzr/wzr.
enum class Opnd : uint8_t {
  None,
  Keyword,  // the row's `keyword` spelled literally ("c" of `bti c`); no bits
  // general registers: Rd 4-0, Rn 9-5, Rm 20-16, Rt 4-0, Rt2 14-10
  Xd, Wd, XdSp, WdSp, Xn, Wn, XnSp, WnSp, Xm, Wm, Xt, Wt, Xt2, Wt2,
  // pc-relative targets (a label or an address)
  Label26,   // b, bl: imm26 words, bits 25-0
  Label19,   // b.cond, cbz, ldr (literal): imm19 words, bits 23-5
  Label14,   // tbz, tbnz: imm14 words, bits 18-5
  AdrLabel,  // adr: 21-bit byte offset, immhi 23-5 : immlo 30-29
  AdrpLabel, // adrp: 21-bit offset in 4 KiB pages, same fields
  // small immediates
  BitW,      // tbz bit number 0..31, b40 in bits 23-19 (b5 = 0)
  BitX,      // tbz bit number 32..63 as b40 + 32 (b5 = 1 in the row)
  Imm16,     // brk, svc, hvc: 16 bits 20-5, printed in hex
  UdfImm16,  // udf: 16 bits 15-0, printed in decimal
  Hint7,     // hint number CRm:op2, bits 11-5
  Barrier,   // dsb/dmb option CRm, bits 11-8 (sy, ish, ... or #n)
  IsbOpt,    // isb option CRm, bits 11-8 (sy or #n)
  Imm4,      // msr daifset/daifclr: CRm, bits 11-8
  // arithmetic and logical operands
  AddImm,    // #imm12 {, lsl #12}: imm12 21-10, sh 22
  ShiftedX,  // Xm {, lsl|lsr|asr #0..63}: Rm, shift 23-22, imm6 15-10 (add/sub)
  ShiftedW,  // Wm {, lsl|lsr|asr #0..31}: Rm, shift, imm5 14-10 (bit 15 is 0)
  LogShiftedX, LogShiftedW,  // the same with ror as well (logical)
  ExtendedX, // Wm|Xm {, extend {#0..4}}: Rm, option 15-13, imm3 12-10 (64-bit rows)
  ExtendedW, // Wm {, extend {#0..4}} (32-bit rows)
  BitmaskX,  // logical immediate: N:immr:imms, bits 22-10
  BitmaskW,  // logical immediate: immr:imms, bits 21-10 (N = 0)
  InvBitmaskX, InvBitmaskW,  // bic #imm: the bitmask of ~imm (and with the inverse)
  WideX,     // #imm16 {, lsl #0|16|32|48}: imm16 20-5, hw 22-21
  WideW,     // #imm16 {, lsl #0|16}: imm16, hw 21 (bit 22 is 0)
  MovzX, MovzW,  // mov alias of movz: the value imm16 << 16*hw
  MovnX, MovnW,  // mov alias of movn: the value ~(imm16 << 16*hw)
  MovBitmaskX, MovBitmaskW,  // mov alias of orr (immediate): the bitmask value
  // memory operands, [Xn|SP ...]; the suffix is log2 of the access size
  MemU12B, MemU12H, MemU12W, MemU12X,  // [Xn|SP{, #uimm12 * size}]
  MemS9,     // [Xn|SP{, #simm9}] (ldur/stur), imm9 20-12
  MemPre9,   // [Xn|SP, #simm9]!
  MemBase,   // [Xn|SP] of a post-index access
  Post9,     // #simm9 after [Xn|SP]
  MemRegB, MemRegH, MemRegW, MemRegX,  // [Xn|SP, Xm|Wm{, extend {#amount}}]
  MemP7W, MemP7X,        // [Xn|SP{, #simm7 * size}] (ldp/stp), imm7 21-15
  MemP7PreW, MemP7PreX,  // [Xn|SP, #simm7 * size]!
  Post7W, Post7X,        // #simm7 * size after [Xn|SP]
  SysReg,    // mrs/msr system register o0:op1:CRn:CRm:op2, bits 19-5
  // conditional select
  Cond,      // condition eq..nv, bits 15-12
  InvCond,   // cset, cinc, ...: bits 15-12 hold the inverse of the condition
             // written, which may not be al or nv
  XnRm, WnRm,  // cinc, cinv, cneg: one register written to both Rn and Rm
};
constexpr unsigned kOpndKinds = unsigned(Opnd::WnRm) + 1;

// Semantic identity: aliases share the Op of the instruction they spell
// (every hint is Hint: the number says which; mov is Orr, Movz, ...).
enum class Op : uint16_t {
  Hint, B, Bl, BCond, Cbz, Cbnz, Tbz, Tbnz, Br, Blr, Ret,
  Brk, Hvc, Svc, Udf, Isb, Dsb, Dmb,
  Movz, Movn, Movk,
  AddImm, AddsImm, SubImm, SubsImm,
  Add, Adds, Sub, Subs,              // shifted register
  AddExt, AddsExt, SubExt, SubsExt,  // extended register
  AndImm, OrrImm, EorImm, AndsImm,
  And, Bic, Orr, Orn, Eor, Eon, Ands, Bics,
  Adr, Adrp,
  // loads and stores, every addressing mode (the operand kind says which)
  Ldr, Str, Ldrb, Strb, Ldrh, Strh, Ldrsw, Ldp, Stp,
  DcCvau, DcCivac, DcCvac, DcIvac, DcZva, IcIvau, IcIallu, IcIalluis,
  Mrs, Msr, MsrDaifSet, MsrDaifClr,
  Csel, Csinc, Csinv, Csneg,
  Eret,
};

enum Flag : uint16_t {
  kAsmOnly = 1 << 0,     // assembler spelling only; never chosen by decode
  kAlias = 1 << 1,       // an alias objdump prints in place of another row
  kBranch = 1 << 2,      // a control transfer
  kLink = 1 << 3,        // writes x30
  kConditional = 1 << 4, // may fall through
  kIndirect = 1 << 5,    // target from a register
  kLoad = 1 << 6,
  kStore = 1 << 7,
  kPrivileged = 1 << 8,  // EL1 or higher (msr to a system register, hvc, dc ivac)
};

// Relations between fields that some rows require beyond their fixed
// bits (an alias applies only to some values; some values are reserved).
enum class FieldRule : uint8_t {
  None,
  NoRor,          // add/sub shifted register: shift type 3 is reserved
  ExtendAmount,   // extended register: imm3 <= 4
  MemRegOption,   // register offset: option<1> = 1 (uxtw, lsl, sxtw, sxtx)
  Bitmask,        // N:immr:imms is a valid logical immediate
  MovBitmaskX,    // valid, and Rd is sp or movz/movn cannot give the value (mov
                  // alias of orr, as objdump decides: Bitmask.h)
  MovBitmaskW,
  MovWide,        // not (imm16 = 0 and hw != 0): mov alias of movz / 64-bit movn
  MovWideNotW,    // the same, and imm16 != 0xffff: mov alias of 32-bit movn
  MovSp,          // Rd or Rn is 31: mov alias of add #0 to or from sp
  SysRegRead,     // a system register mrs may name (SystemNames.h)
  SysRegWrite,    // a system register msr may name
  CondNotAlNv,    // cond is not 111x (al, nv): cset, csetm, whose Rn and Rm are fixed
  SameRnRm,       // Rn == Rm and cond is not 111x: cinc, cinv, cneg (the Arm ARM's
                  // preferred disassembly; cset/csetm come first for Rn = 31)
};

struct InstrDesc {
  std::string_view mnemonic;
  Op op;
  uint32_t match;                // fixed bits; operand bits are zero here
  std::array<Opnd, 4> operands;  // syntax order; Opnd::None ends the list
  uint16_t flags = 0;
  FieldRule rule = FieldRule::None;
  std::string_view keyword = {};  // spelling of an Opnd::Keyword operand

  unsigned operandCount() const {
    unsigned n = 0;
    while (n < operands.size() && operands[n] != Opnd::None) ++n;
    return n;
  }
  constexpr uint32_t mask() const;  // every bit no operand covers is fixed
  bool isBranch() const { return flags & kBranch; }
};

std::span<const InstrDesc> instructionTable();

// Bits occupied by an operand kind in the word.
constexpr uint32_t operandBits(Opnd k) {
  switch (k) {
    case Opnd::None: case Opnd::Keyword: return 0;
    case Opnd::Xd: case Opnd::Wd: case Opnd::XdSp: case Opnd::WdSp:
    case Opnd::Xt: case Opnd::Wt: return 0x0000001f;
    case Opnd::Xn: case Opnd::Wn: case Opnd::XnSp: case Opnd::WnSp: case Opnd::MemBase: return 0x000003e0;
    case Opnd::Xm: case Opnd::Wm: return 0x001f0000;
    case Opnd::Xt2: case Opnd::Wt2: return 0x00007c00;
    case Opnd::Label26: return 0x03ffffff;
    case Opnd::Label19: return 0x00ffffe0;
    case Opnd::Label14: return 0x0007ffe0;
    case Opnd::AdrLabel: case Opnd::AdrpLabel: return 0x60ffffe0;
    case Opnd::BitW: case Opnd::BitX: return 0x00f80000;
    case Opnd::Imm16: return 0x001fffe0;
    case Opnd::UdfImm16: return 0x0000ffff;
    case Opnd::Hint7: return 0x00000fe0;
    case Opnd::Barrier: case Opnd::IsbOpt: case Opnd::Imm4: return 0x00000f00;
    case Opnd::AddImm: return 0x007ffc00;
    case Opnd::ShiftedX: case Opnd::LogShiftedX: return 0x00dffc00;
    case Opnd::ShiftedW: case Opnd::LogShiftedW: return 0x00df7c00;
    case Opnd::ExtendedX: case Opnd::ExtendedW: return 0x001ffc00;
    case Opnd::BitmaskX: case Opnd::MovBitmaskX: case Opnd::InvBitmaskX: return 0x007ffc00;
    case Opnd::BitmaskW: case Opnd::MovBitmaskW: case Opnd::InvBitmaskW: return 0x003ffc00;
    case Opnd::WideX: case Opnd::MovzX: case Opnd::MovnX: return 0x007fffe0;
    case Opnd::WideW: case Opnd::MovzW: case Opnd::MovnW: return 0x003fffe0;
    case Opnd::MemU12B: case Opnd::MemU12H: case Opnd::MemU12W: case Opnd::MemU12X: return 0x003fffe0;
    case Opnd::MemS9: case Opnd::MemPre9: return 0x001ff3e0;
    case Opnd::Post9: return 0x001ff000;
    case Opnd::MemRegB: case Opnd::MemRegH: case Opnd::MemRegW: case Opnd::MemRegX: return 0x001ff3e0;
    case Opnd::MemP7W: case Opnd::MemP7X: case Opnd::MemP7PreW: case Opnd::MemP7PreX: return 0x003f83e0;
    case Opnd::Post7W: case Opnd::Post7X: return 0x003f8000;
    case Opnd::SysReg: return 0x000fffe0;
    case Opnd::Cond: case Opnd::InvCond: return 0x0000f000;
    case Opnd::XnRm: case Opnd::WnRm: return 0x001f03e0;
  }
  return 0;
}

constexpr uint32_t InstrDesc::mask() const {
  uint32_t bits = 0;
  for (Opnd k : operands) bits |= operandBits(k);
  return ~bits;
}

// Does `w` satisfy the row's rule?
bool satisfiesRule(FieldRule, uint32_t w);

// Field accessors shared by every layer.
constexpr unsigned rdOf(uint32_t w) { return w & 31; }
constexpr unsigned rnOf(uint32_t w) { return (w >> 5) & 31; }
constexpr unsigned rmOf(uint32_t w) { return (w >> 16) & 31; }
constexpr unsigned rt2Of(uint32_t w) { return (w >> 10) & 31; }

}  // namespace patchcheck::arm64
