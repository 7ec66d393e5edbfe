// The F and D rows of the instruction table (InstructionTable.h): RISC-V
// Unprivileged ISA (20191213) chapter 11 "F" and 12 "D", the listings of
// chapter 24 (RV32F, RV64F, RV32D, RV64D), and the compressed loads and
// stores of chapter 16 (c.fld, c.fsd, c.fldsp, c.fsdsp; on RV32 also c.flw,
// c.fsw, c.flwsp, c.fswsp, whose encodings RV64 gives to c.ld and c.sd).
// Row order and spellings follow GNU binutils 2.40 (opcodes/riscv-opc.c):
// the fcsr aliases, then F, then D. An instruction with a rounding-mode
// field has two rows, as there: the first with rm fixed at dyn (7), which
// GNU as writes when the operand is left out and objdump prints without
// it, the second with the rm operand. fcvt.d.s, fcvt.d.w and fcvt.d.wu
// (exact conversions) take no rm operand in 2.40: rm is fixed at rne (0).
#include "encoder/riscv/FloatRows.h"

namespace patchcheck::riscv {
namespace {

using O = Opnd;
constexpr uint32_t kRm = 0x7000, kF7 = 0xfe00007f, kRs2 = 0x1f00000, kR4 = 0x0600007f, kI = 0x707f, kCI = 0xe003;
constexpr uint32_t kCsrRead = 0xfffff07f, kCsrWriteOnly = 0xfff07fff, kCsrSwap = 0xfff0707f;

// OP-FP (0x53): funct5 and fmt (0 S, 1 D) in funct7, funct3 (rm or a sub-op), rs2 where it selects.
constexpr uint32_t fp(uint32_t f5, uint32_t fmt, uint32_t f3 = 0, uint32_t rs2 = 0) {
  return 0x53 | (f3 << 12) | (rs2 << 20) | (((f5 << 2) | fmt) << 25);
}
// The R4 format: fmadd 0x43, fmsub 0x47, fnmsub 0x4b, fnmadd 0x4f.
constexpr uint32_t r4(uint32_t opcode, uint32_t fmt) { return opcode | (fmt << 25); }
constexpr uint32_t csr(uint32_t f3, uint32_t number) { return 0x73 | (f3 << 12) | (number << 20); }
constexpr uint32_t dyn = 7u << 12;

constexpr uint16_t F = kF, D = kD, ZF = kZicsr | kF, CF = kC | kF, CD = kC | kD;
constexpr uint16_t Al = kAlias, AlC = kAlias | kCompressed, Cm = kCompressed;

#define ROW(name, o, match, mask, ...) Row{name, Op::o, match, mask, {__VA_ARGS__}
// An operation with a rounding mode: the dyn row, then the row that names rm.
#define RM3(name, o, m, mask, a, b, c, e, x) \
  ROW(name, o, (m) | dyn, (mask) | kRm, a, b, c), e, x, 0}, ROW(name, o, m, mask, a, b, c, O::Rm), e, x, 0}
#define RM2(name, o, m, mask, a, b, e, x) \
  ROW(name, o, (m) | dyn, (mask) | kRm, a, b), e, x, 0}, ROW(name, o, m, mask, a, b, O::Rm), e, x, 0}
#define RM4(name, o, m, e) \
  ROW(name, o, (m) | dyn, kR4 | kRm, O::Fd, O::Fs1, O::Fs2, O::Fs3), e, 0, 0}, \
  ROW(name, o, m, kR4, O::Fd, O::Fs1, O::Fs2, O::Fs3, O::Rm), e, 0, 0}
// clang-format off
const Row kFloatRows[] = {
  // ---- fcsr, frm and fflags (CSRs 3, 2, 1) under their F names
  ROW("frcsr", Csrrs, csr(2, 3), kCsrRead, O::Rd), ZF, 0, Al},
  ROW("frsr", Csrrs, csr(2, 3), kCsrRead, O::Rd), ZF, 0, Al},
  ROW("fscsr", Csrrw, csr(1, 3), kCsrWriteOnly, O::Rs1), ZF, 0, Al},
  ROW("fscsr", Csrrw, csr(1, 3), kCsrSwap, O::Rd, O::Rs1), ZF, 0, Al},
  ROW("fssr", Csrrw, csr(1, 3), kCsrWriteOnly, O::Rs1), ZF, 0, Al},
  ROW("fssr", Csrrw, csr(1, 3), kCsrSwap, O::Rd, O::Rs1), ZF, 0, Al},
  ROW("frrm", Csrrs, csr(2, 2), kCsrRead, O::Rd), ZF, 0, Al},
  ROW("fsrm", Csrrw, csr(1, 2), kCsrWriteOnly, O::Rs1), ZF, 0, Al},
  ROW("fsrm", Csrrw, csr(1, 2), kCsrSwap, O::Rd, O::Rs1), ZF, 0, Al},
  ROW("fsrmi", Csrrwi, csr(5, 2), kCsrSwap, O::Rd, O::Zimm), ZF, 0, Al},
  ROW("fsrmi", Csrrwi, csr(5, 2), kCsrWriteOnly, O::Zimm), ZF, 0, Al},
  ROW("frflags", Csrrs, csr(2, 1), kCsrRead, O::Rd), ZF, 0, Al},
  ROW("fsflags", Csrrw, csr(1, 1), kCsrWriteOnly, O::Rs1), ZF, 0, Al},
  ROW("fsflags", Csrrw, csr(1, 1), kCsrSwap, O::Rd, O::Rs1), ZF, 0, Al},
  ROW("fsflagsi", Csrrwi, csr(5, 1), kCsrSwap, O::Rd, O::Zimm), ZF, 0, Al},
  ROW("fsflagsi", Csrrwi, csr(5, 1), kCsrWriteOnly, O::Zimm), ZF, 0, Al},
  // ---- F
  ROW("flw", Flw, 0x6002, kCI, O::Fd, O::CMemLwsp), CF, 32, AlC},
  ROW("flw", Flw, 0x6000, kCI, O::CFdP, O::CMemW), CF, 32, AlC},
  ROW("flw", Flw, 0x2007, kI, O::Fd, O::MemI), F, 0, 0},
  ROW("fsw", Fsw, 0xe002, kCI, O::CFs2, O::CMemSwsp), CF, 32, AlC},
  ROW("fsw", Fsw, 0xe000, kCI, O::CFs2P, O::CMemW), CF, 32, AlC},
  ROW("fsw", Fsw, 0x2027, kI, O::Fs2, O::MemS), F, 0, 0},
  ROW("fmv.x.w", FmvXW, fp(0x1c, 0), kF7 | kRs2 | kRm, O::Rd, O::Fs1), F, 0, 0},
  ROW("fmv.w.x", FmvWX, fp(0x1e, 0), kF7 | kRs2 | kRm, O::Fd, O::Rs1), F, 0, 0},
  ROW("fmv.x.s", FmvXW, fp(0x1c, 0), kF7 | kRs2 | kRm, O::Rd, O::Fs1), F, 0, Al},
  ROW("fmv.s.x", FmvWX, fp(0x1e, 0), kF7 | kRs2 | kRm, O::Fd, O::Rs1), F, 0, Al},
  ROW("fmv.s", FsgnjS, fp(0x04, 0, 0), kF7 | kRm, O::Fd, O::FRs1Rs2), F, 0, Al | kRs1EqRs2},
  ROW("fneg.s", FsgnjnS, fp(0x04, 0, 1), kF7 | kRm, O::Fd, O::FRs1Rs2), F, 0, Al | kRs1EqRs2},
  ROW("fabs.s", FsgnjxS, fp(0x04, 0, 2), kF7 | kRm, O::Fd, O::FRs1Rs2), F, 0, Al | kRs1EqRs2},
  ROW("fsgnj.s", FsgnjS, fp(0x04, 0, 0), kF7 | kRm, O::Fd, O::Fs1, O::Fs2), F, 0, 0},
  ROW("fsgnjn.s", FsgnjnS, fp(0x04, 0, 1), kF7 | kRm, O::Fd, O::Fs1, O::Fs2), F, 0, 0},
  ROW("fsgnjx.s", FsgnjxS, fp(0x04, 0, 2), kF7 | kRm, O::Fd, O::Fs1, O::Fs2), F, 0, 0},
  RM3("fadd.s", FaddS, fp(0x00, 0), kF7, O::Fd, O::Fs1, O::Fs2, F, 0),
  RM3("fsub.s", FsubS, fp(0x01, 0), kF7, O::Fd, O::Fs1, O::Fs2, F, 0),
  RM3("fmul.s", FmulS, fp(0x02, 0), kF7, O::Fd, O::Fs1, O::Fs2, F, 0),
  RM3("fdiv.s", FdivS, fp(0x03, 0), kF7, O::Fd, O::Fs1, O::Fs2, F, 0),
  RM2("fsqrt.s", FsqrtS, fp(0x0b, 0), kF7 | kRs2, O::Fd, O::Fs1, F, 0),
  ROW("fmin.s", FminS, fp(0x05, 0, 0), kF7 | kRm, O::Fd, O::Fs1, O::Fs2), F, 0, 0},
  ROW("fmax.s", FmaxS, fp(0x05, 0, 1), kF7 | kRm, O::Fd, O::Fs1, O::Fs2), F, 0, 0},
  RM4("fmadd.s", FmaddS, r4(0x43, 0), F),
  RM4("fnmadd.s", FnmaddS, r4(0x4f, 0), F),
  RM4("fmsub.s", FmsubS, r4(0x47, 0), F),
  RM4("fnmsub.s", FnmsubS, r4(0x4b, 0), F),
  RM2("fcvt.w.s", FcvtWS, fp(0x18, 0, 0, 0), kF7 | kRs2, O::Rd, O::Fs1, F, 0),
  RM2("fcvt.wu.s", FcvtWuS, fp(0x18, 0, 0, 1), kF7 | kRs2, O::Rd, O::Fs1, F, 0),
  RM2("fcvt.s.w", FcvtSW, fp(0x1a, 0, 0, 0), kF7 | kRs2, O::Fd, O::Rs1, F, 0),
  RM2("fcvt.s.wu", FcvtSWu, fp(0x1a, 0, 0, 1), kF7 | kRs2, O::Fd, O::Rs1, F, 0),
  ROW("fclass.s", FclassS, fp(0x1c, 0, 1), kF7 | kRs2 | kRm, O::Rd, O::Fs1), F, 0, 0},
  ROW("feq.s", FeqS, fp(0x14, 0, 2), kF7 | kRm, O::Rd, O::Fs1, O::Fs2), F, 0, 0},
  ROW("flt.s", FltS, fp(0x14, 0, 1), kF7 | kRm, O::Rd, O::Fs1, O::Fs2), F, 0, 0},
  ROW("fle.s", FleS, fp(0x14, 0, 0), kF7 | kRm, O::Rd, O::Fs1, O::Fs2), F, 0, 0},
  ROW("fgt.s", FltS, fp(0x14, 0, 1), kF7 | kRm, O::Rd, O::Fs2, O::Fs1), F, 0, Al},
  ROW("fge.s", FleS, fp(0x14, 0, 0), kF7 | kRm, O::Rd, O::Fs2, O::Fs1), F, 0, Al},
  RM2("fcvt.l.s", FcvtLS, fp(0x18, 0, 0, 2), kF7 | kRs2, O::Rd, O::Fs1, F, 64),
  RM2("fcvt.lu.s", FcvtLuS, fp(0x18, 0, 0, 3), kF7 | kRs2, O::Rd, O::Fs1, F, 64),
  RM2("fcvt.s.l", FcvtSL, fp(0x1a, 0, 0, 2), kF7 | kRs2, O::Fd, O::Rs1, F, 64),
  RM2("fcvt.s.lu", FcvtSLu, fp(0x1a, 0, 0, 3), kF7 | kRs2, O::Fd, O::Rs1, F, 64),
  // ---- D
  ROW("fld", Fld, 0x2002, kCI, O::Fd, O::CMemLdsp), CD, 0, AlC},
  ROW("fld", Fld, 0x2000, kCI, O::CFdP, O::CMemD), CD, 0, AlC},
  ROW("fld", Fld, 0x3007, kI, O::Fd, O::MemI), D, 0, 0},
  ROW("fsd", Fsd, 0xa002, kCI, O::CFs2, O::CMemSdsp), CD, 0, AlC},
  ROW("fsd", Fsd, 0xa000, kCI, O::CFs2P, O::CMemD), CD, 0, AlC},
  ROW("fsd", Fsd, 0x3027, kI, O::Fs2, O::MemS), D, 0, 0},
  ROW("fmv.d", FsgnjD, fp(0x04, 1, 0), kF7 | kRm, O::Fd, O::FRs1Rs2), D, 0, Al | kRs1EqRs2},
  ROW("fneg.d", FsgnjnD, fp(0x04, 1, 1), kF7 | kRm, O::Fd, O::FRs1Rs2), D, 0, Al | kRs1EqRs2},
  ROW("fabs.d", FsgnjxD, fp(0x04, 1, 2), kF7 | kRm, O::Fd, O::FRs1Rs2), D, 0, Al | kRs1EqRs2},
  ROW("fsgnj.d", FsgnjD, fp(0x04, 1, 0), kF7 | kRm, O::Fd, O::Fs1, O::Fs2), D, 0, 0},
  ROW("fsgnjn.d", FsgnjnD, fp(0x04, 1, 1), kF7 | kRm, O::Fd, O::Fs1, O::Fs2), D, 0, 0},
  ROW("fsgnjx.d", FsgnjxD, fp(0x04, 1, 2), kF7 | kRm, O::Fd, O::Fs1, O::Fs2), D, 0, 0},
  RM3("fadd.d", FaddD, fp(0x00, 1), kF7, O::Fd, O::Fs1, O::Fs2, D, 0),
  RM3("fsub.d", FsubD, fp(0x01, 1), kF7, O::Fd, O::Fs1, O::Fs2, D, 0),
  RM3("fmul.d", FmulD, fp(0x02, 1), kF7, O::Fd, O::Fs1, O::Fs2, D, 0),
  RM3("fdiv.d", FdivD, fp(0x03, 1), kF7, O::Fd, O::Fs1, O::Fs2, D, 0),
  RM2("fsqrt.d", FsqrtD, fp(0x0b, 1), kF7 | kRs2, O::Fd, O::Fs1, D, 0),
  ROW("fmin.d", FminD, fp(0x05, 1, 0), kF7 | kRm, O::Fd, O::Fs1, O::Fs2), D, 0, 0},
  ROW("fmax.d", FmaxD, fp(0x05, 1, 1), kF7 | kRm, O::Fd, O::Fs1, O::Fs2), D, 0, 0},
  RM4("fmadd.d", FmaddD, r4(0x43, 1), D),
  RM4("fnmadd.d", FnmaddD, r4(0x4f, 1), D),
  RM4("fmsub.d", FmsubD, r4(0x47, 1), D),
  RM4("fnmsub.d", FnmsubD, r4(0x4b, 1), D),
  RM2("fcvt.w.d", FcvtWD, fp(0x18, 1, 0, 0), kF7 | kRs2, O::Rd, O::Fs1, D, 0),
  RM2("fcvt.wu.d", FcvtWuD, fp(0x18, 1, 0, 1), kF7 | kRs2, O::Rd, O::Fs1, D, 0),
  ROW("fcvt.d.w", FcvtDW, fp(0x1a, 1, 0, 0), kF7 | kRs2 | kRm, O::Fd, O::Rs1), D, 0, 0},
  ROW("fcvt.d.wu", FcvtDWu, fp(0x1a, 1, 0, 1), kF7 | kRs2 | kRm, O::Fd, O::Rs1), D, 0, 0},
  ROW("fcvt.d.s", FcvtDS, fp(0x08, 1, 0, 0), kF7 | kRs2 | kRm, O::Fd, O::Fs1), D, 0, 0},
  RM2("fcvt.s.d", FcvtSD, fp(0x08, 0, 0, 1), kF7 | kRs2, O::Fd, O::Fs1, D, 0),
  ROW("fclass.d", FclassD, fp(0x1c, 1, 1), kF7 | kRs2 | kRm, O::Rd, O::Fs1), D, 0, 0},
  ROW("feq.d", FeqD, fp(0x14, 1, 2), kF7 | kRm, O::Rd, O::Fs1, O::Fs2), D, 0, 0},
  ROW("flt.d", FltD, fp(0x14, 1, 1), kF7 | kRm, O::Rd, O::Fs1, O::Fs2), D, 0, 0},
  ROW("fle.d", FleD, fp(0x14, 1, 0), kF7 | kRm, O::Rd, O::Fs1, O::Fs2), D, 0, 0},
  ROW("fgt.d", FltD, fp(0x14, 1, 1), kF7 | kRm, O::Rd, O::Fs2, O::Fs1), D, 0, Al},
  ROW("fge.d", FleD, fp(0x14, 1, 0), kF7 | kRm, O::Rd, O::Fs2, O::Fs1), D, 0, Al},
  ROW("fmv.x.d", FmvXD, fp(0x1c, 1), kF7 | kRs2 | kRm, O::Rd, O::Fs1), D, 64, 0},
  ROW("fmv.d.x", FmvDX, fp(0x1e, 1), kF7 | kRs2 | kRm, O::Fd, O::Rs1), D, 64, 0},
  RM2("fcvt.l.d", FcvtLD, fp(0x18, 1, 0, 2), kF7 | kRs2, O::Rd, O::Fs1, D, 64),
  RM2("fcvt.lu.d", FcvtLuD, fp(0x18, 1, 0, 3), kF7 | kRs2, O::Rd, O::Fs1, D, 64),
  RM2("fcvt.d.l", FcvtDL, fp(0x1a, 1, 0, 2), kF7 | kRs2, O::Fd, O::Rs1, D, 64),
  RM2("fcvt.d.lu", FcvtDLu, fp(0x1a, 1, 0, 3), kF7 | kRs2, O::Fd, O::Rs1, D, 64),
  // ---- the compressed loads and stores under their own names (objdump -M no-aliases)
  ROW("c.fld", Fld, 0x2000, kCI, O::CFdP, O::CMemD), CD, 0, Cm},
  ROW("c.fldsp", Fld, 0x2002, kCI, O::Fd, O::CMemLdsp), CD, 0, Cm},
  ROW("c.fsd", Fsd, 0xa000, kCI, O::CFs2P, O::CMemD), CD, 0, Cm},
  ROW("c.fsdsp", Fsd, 0xa002, kCI, O::CFs2, O::CMemSdsp), CD, 0, Cm},
  ROW("c.flw", Flw, 0x6000, kCI, O::CFdP, O::CMemW), CF, 32, Cm},
  ROW("c.flwsp", Flw, 0x6002, kCI, O::Fd, O::CMemLwsp), CF, 32, Cm},
  ROW("c.fsw", Fsw, 0xe000, kCI, O::CFs2P, O::CMemW), CF, 32, Cm},
  ROW("c.fswsp", Fsw, 0xe002, kCI, O::CFs2, O::CMemSwsp), CF, 32, Cm},
};
// clang-format on
#undef RM4
#undef RM2
#undef RM3
#undef ROW

}  // namespace

std::span<const Row> floatRows() { return kFloatRows; }

}  // namespace patchcheck::riscv
