#include "encoder/riscv/InstructionTable.h"

#include <vector>

#include "encoder/riscv/FloatRows.h"

// Encodings: RISC-V Unprivileged ISA (20191213), chapter 24 "RV32/64G
// Instruction Set Listings" and chapter 16 "C" (Tables 16.4-16.7); the
// privileged ones from the Privileged ISA, chapter 9 (sret, mret, wfi,
// sfence.vma). Row order and spellings follow GNU binutils 2.40
// (opcodes/riscv-opc.c, Debian's binutils-riscv64-linux-gnu), which
// objdump prints and GNU as accepts in that order.

namespace patchcheck::riscv {
namespace {

using O = Opnd;
constexpr uint32_t R = 0xfe00707f, I = 0x707f, U = 0x7f;  // masks of the R, I/S/B, U/J formats
constexpr uint32_t RD = 0xf80, RS1 = 0xf8000, RS2 = 0x1f00000, IMM = 0xfff00000;
constexpr uint32_t CI = 0xe003;                          // c.* with funct3 and quadrant fixed

constexpr uint32_t op(uint32_t opcode, uint32_t f3 = 0, uint32_t f7 = 0) {
  return opcode | (f3 << 12) | (f7 << 25);
}
// An AMO with its funct5 and width (2: .w, 3: .d) and aq/rl bits.
constexpr uint32_t amo(uint32_t f5, uint32_t f3, uint32_t aqrl) { return 0x2f | (f3 << 12) | (aqrl << 25) | (f5 << 27); }
constexpr uint32_t csr(uint32_t f3, uint32_t number) { return 0x73 | (f3 << 12) | (number << 20); }

constexpr uint16_t C = kC, A = kA, M = kM, Z = kZicsr;
constexpr uint16_t Al = kAlias, Cm = kCompressed, AlC = kAlias | kCompressed;

#define ROW(name, o, match, mask, ...) Row{name, Op::o, match, mask, {__VA_ARGS__}
// clang-format off
const Row kTable[] = {
  // ---- illegal encodings, breakpoints, returns and jumps
  ROW("unimp", Unimp, 0x0000, 0xffff), C, 0, AlC},
  ROW("unimp", Unimp, csr(1, 0xc00), 0xffffffff), Z, 0, 0},            // csrrw x0, cycle, x0
  ROW("ebreak", Ebreak, 0x9002, 0xffff), C, 0, AlC},
  ROW("ebreak", Ebreak, 0x00100073, 0xffffffff), kI, 0, 0},
  ROW("ret", Jalr, 0x8002 | (1 << 7), 0xffff), C, 0, AlC | kTransfer},
  ROW("ret", Jalr, op(0x67) | (1 << 15), 0xffffffff), kI, 0, Al | kTransfer},
  ROW("jr", Jalr, 0x8002, 0xf07f, O::CRs1Hi), C, 0, AlC | kRdNonZero | kTransfer},
  ROW("jr", Jalr, op(0x67), I | RD | IMM, O::Rs1), kI, 0, Al | kTransfer},
  ROW("jr", Jalr, op(0x67), I | RD, O::MemI), kI, 0, Al | kTransfer},
  ROW("jalr", Jalr, 0x9002, 0xf07f, O::CRs1Hi, O::LinkRa), C, 0, AlC | kRdNonZero | kTransfer | kLink},
  ROW("jalr", Jalr, op(0x67) | (1 << 7), I | RD | IMM, O::Rs1), kI, 0, Al | kTransfer | kLink},
  ROW("jalr", Jalr, op(0x67) | (1 << 7), I | RD, O::MemI), kI, 0, Al | kTransfer | kLink},
  ROW("jalr", Jalr, op(0x67), I | IMM, O::Rd, O::Rs1), kI, 0, Al | kTransfer | kLink},
  ROW("jalr", Jalr, op(0x67), I, O::Rd, O::MemI), kI, 0, kTransfer | kLink},
  ROW("j", Jal, 0xa001, CI, O::CJmp), C, 0, AlC | kTransfer},
  ROW("j", Jal, op(0x6f), U | RD, O::BrJ), kI, 0, Al | kTransfer},
  ROW("jal", Jal, 0x2001, CI, O::CJmp, O::LinkRa), C, 32, AlC | kTransfer | kLink | kPrintOnly},
  ROW("jal", Jal, op(0x6f) | (1 << 7), U | RD, O::BrJ), kI, 0, Al | kTransfer | kLink},
  ROW("jal", Jal, op(0x6f), U, O::Rd, O::BrJ), kI, 0, kTransfer | kLink},
  // ---- constants and moves
  ROW("nop", Addi, 0x0001, 0xffff), C, 0, AlC},
  ROW("nop", Addi, op(0x13), 0xffffffff), kI, 0, Al},
  ROW("lui", Lui, 0x6001, CI, O::Rd, O::CLui), C, 0, AlC | kRdNonZero | kRdNotSp | kImmNonZero},
  ROW("lui", Lui, op(0x37), U, O::Rd, O::ImmU), kI, 0, 0},
  ROW("li", Addi, 0x4001, CI, O::Rd, O::CImm6), C, 0, AlC | kRdNonZero},
  ROW("li", Addi, op(0x13), I | RS1, O::Rd, O::ImmI), kI, 0, Al},
  ROW("mv", Add, 0x8002, 0xf003, O::Rd, O::CRs2), C, 0, AlC | kRdNonZero | kRs2NonZero},
  ROW("mv", Addi, op(0x13), I | IMM, O::Rd, O::Rs1), kI, 0, Al},
  ROW("move", Add, 0x8002, 0xf003, O::Rd, O::CRs2), C, 0, AlC | kRdNonZero | kRs2NonZero},
  ROW("move", Addi, op(0x13), I | IMM, O::Rd, O::Rs1), kI, 0, Al},
  // ---- ALU; GNU 2.40's objdump prints the immediate forms as add, and, ...
  ROW("zext.b", Andi, op(0x13, 7) | (255u << 20), I | IMM, O::Rd, O::Rs1), kI, 0, Al},
  ROW("and", And, 0x8c61, 0xfc63, O::CRdP9, O::Same, O::CRs2P), C, 0, AlC},
  ROW("and", And, 0x8c61, 0xfc63, O::CRdP9, O::CRs2P, O::Same), C, 0, AlC},
  ROW("and", Andi, 0x8801, 0xec03, O::CRdP9, O::Same, O::CImm6), C, 0, AlC},
  ROW("and", And, op(0x33, 7), R, O::Rd, O::Rs1, O::Rs2), kI, 0, 0},
  ROW("and", Andi, op(0x13, 7), I, O::Rd, O::Rs1, O::ImmI), kI, 0, Al},
  ROW("andi", Andi, 0x8801, 0xec03, O::CRdP9, O::Same, O::CImm6), C, 0, AlC},
  ROW("andi", Andi, op(0x13, 7), I, O::Rd, O::Rs1, O::ImmI), kI, 0, 0},
  ROW("beqz", Beq, 0xc001, CI, O::CRs1P9, O::CBr), C, 0, AlC | kTransfer},
  ROW("beqz", Beq, op(0x63), I | RS2, O::Rs1, O::BrB), kI, 0, Al | kTransfer},
  ROW("beq", Beq, 0xc001, CI, O::CRs1P9, O::ZeroRs2, O::CBr), C, 0, AlC | kTransfer},
  ROW("beq", Beq, op(0x63), I, O::Rs1, O::Rs2, O::BrB), kI, 0, kTransfer},
  ROW("blez", Bge, op(0x63, 5), I | RS1, O::Rs2, O::BrB), kI, 0, Al | kTransfer},
  ROW("bgez", Bge, op(0x63, 5), I | RS2, O::Rs1, O::BrB), kI, 0, Al | kTransfer},
  ROW("bge", Bge, op(0x63, 5), I, O::Rs1, O::Rs2, O::BrB), kI, 0, kTransfer},
  ROW("bgeu", Bgeu, op(0x63, 7), I, O::Rs1, O::Rs2, O::BrB), kI, 0, kTransfer},
  ROW("ble", Bge, op(0x63, 5), I, O::Rs2, O::Rs1, O::BrB), kI, 0, Al | kTransfer},
  ROW("bleu", Bgeu, op(0x63, 7), I, O::Rs2, O::Rs1, O::BrB), kI, 0, Al | kTransfer},
  ROW("bltz", Blt, op(0x63, 4), I | RS2, O::Rs1, O::BrB), kI, 0, Al | kTransfer},
  ROW("bgtz", Blt, op(0x63, 4), I | RS1, O::Rs2, O::BrB), kI, 0, Al | kTransfer},
  ROW("blt", Blt, op(0x63, 4), I, O::Rs1, O::Rs2, O::BrB), kI, 0, kTransfer},
  ROW("bltu", Bltu, op(0x63, 6), I, O::Rs1, O::Rs2, O::BrB), kI, 0, kTransfer},
  ROW("bgt", Blt, op(0x63, 4), I, O::Rs2, O::Rs1, O::BrB), kI, 0, Al | kTransfer},
  ROW("bgtu", Bltu, op(0x63, 6), I, O::Rs2, O::Rs1, O::BrB), kI, 0, Al | kTransfer},
  ROW("bnez", Bne, 0xe001, CI, O::CRs1P9, O::CBr), C, 0, AlC | kTransfer},
  ROW("bnez", Bne, op(0x63, 1), I | RS2, O::Rs1, O::BrB), kI, 0, Al | kTransfer},
  ROW("bne", Bne, 0xe001, CI, O::CRs1P9, O::ZeroRs2, O::CBr), C, 0, AlC | kTransfer},
  ROW("bne", Bne, op(0x63, 1), I, O::Rs1, O::Rs2, O::BrB), kI, 0, kTransfer},
  ROW("add", Add, 0x9002, 0xf003, O::Rd, O::Same, O::CRs2), C, 0, AlC | kRdNonZero | kRs2NonZero},
  ROW("add", Add, 0x9002, 0xf003, O::Rd, O::CRs2, O::Same), C, 0, AlC | kRdNonZero | kRs2NonZero},
  ROW("add", Addi, 0x0001, CI, O::Rd, O::Same, O::CImm6), C, 0, AlC | kRdNonZero},
  ROW("add", Addi, 0x0000, CI, O::CRdP, O::SpRs1, O::CAddi4spn), C, 0, AlC | kImmNonZero},
  ROW("add", Addi, 0x6101, 0xef83, O::SpRd, O::Same, O::CAddi16sp), C, 0, AlC},
  ROW("add", Add, 0x8002, 0xf003, O::Rd, O::ZeroRs1, O::CRs2), C, 0, AlC | kRdNonZero | kRs2NonZero},
  ROW("add", Add, op(0x33), R, O::Rd, O::Rs1, O::Rs2), kI, 0, 0},
  ROW("add", Addi, op(0x13), I, O::Rd, O::Rs1, O::ImmI), kI, 0, Al},
  ROW("addi", Addi, 0x0000, CI, O::CRdP, O::SpRs1, O::CAddi4spn), C, 0, AlC | kImmNonZero},
  ROW("addi", Addi, 0x0001, CI, O::Rd, O::Same, O::CImm6), C, 0, AlC | kRdNonZero | kImmNonZero},
  ROW("addi", Addi, 0x0001, 0xffff, O::Rd, O::Same, O::ZeroImm), C, 0, AlC},
  ROW("addi", Addi, 0x6101, 0xef83, O::SpRd, O::Same, O::CAddi16sp), C, 0, AlC | kImmNonZero},
  ROW("addi", Addi, 0x4001, CI, O::Rd, O::ZeroRs1, O::CImm6), C, 0, AlC | kRdNonZero},
  ROW("addi", Add, 0x8002, 0xf003, O::Rd, O::CRs2, O::ZeroImm), C, 0, AlC | kRdNonZero | kRs2NonZero},
  ROW("addi", Addi, op(0x13), I, O::Rd, O::Rs1, O::ImmI), kI, 0, 0},
  ROW("neg", Sub, op(0x33, 0, 0x20), R | RS1, O::Rd, O::Rs2), kI, 0, Al},
  ROW("sll", Slli, 0x0002, CI, O::Rd, O::Same, O::CShamt), C, 0, AlC | kRdNonZero | kImmNonZero},
  ROW("sll", Sll, op(0x33, 1), R, O::Rd, O::Rs1, O::Rs2), kI, 0, 0},
  ROW("sll", Slli, op(0x13, 1), 0xfc00707f, O::Rd, O::Rs1, O::Shamt), kI, 0, Al},
  ROW("slli", Slli, 0x0002, CI, O::Rd, O::Same, O::CShamt), C, 0, AlC | kRdNonZero | kImmNonZero},
  ROW("slli", Slli, op(0x13, 1), 0xfc00707f, O::Rd, O::Rs1, O::Shamt), kI, 0, 0},
  ROW("srl", Srli, 0x8001, 0xec03, O::CRdP9, O::Same, O::CShamt), C, 0, AlC | kImmNonZero},
  ROW("srl", Srl, op(0x33, 5), R, O::Rd, O::Rs1, O::Rs2), kI, 0, 0},
  ROW("srl", Srli, op(0x13, 5), 0xfc00707f, O::Rd, O::Rs1, O::Shamt), kI, 0, Al},
  ROW("srli", Srli, 0x8001, 0xec03, O::CRdP9, O::Same, O::CShamt), C, 0, AlC | kImmNonZero},
  ROW("srli", Srli, op(0x13, 5), 0xfc00707f, O::Rd, O::Rs1, O::Shamt), kI, 0, 0},
  ROW("sra", Srai, 0x8401, 0xec03, O::CRdP9, O::Same, O::CShamt), C, 0, AlC | kImmNonZero},
  ROW("sra", Sra, op(0x33, 5, 0x20), R, O::Rd, O::Rs1, O::Rs2), kI, 0, 0},
  ROW("sra", Srai, op(0x13, 5, 0x20), 0xfc00707f, O::Rd, O::Rs1, O::Shamt), kI, 0, Al},
  ROW("srai", Srai, 0x8401, 0xec03, O::CRdP9, O::Same, O::CShamt), C, 0, AlC | kImmNonZero},
  ROW("srai", Srai, op(0x13, 5, 0x20), 0xfc00707f, O::Rd, O::Rs1, O::Shamt), kI, 0, 0},
  ROW("sub", Sub, 0x8c01, 0xfc63, O::CRdP9, O::Same, O::CRs2P), C, 0, AlC},
  ROW("sub", Sub, op(0x33, 0, 0x20), R, O::Rd, O::Rs1, O::Rs2), kI, 0, 0},
  // ---- loads and stores
  ROW("lb", Lb, op(0x03, 0), I, O::Rd, O::MemI), kI, 0, 0},
  ROW("lbu", Lbu, op(0x03, 4), I, O::Rd, O::MemI), kI, 0, 0},
  ROW("lh", Lh, op(0x03, 1), I, O::Rd, O::MemI), kI, 0, 0},
  ROW("lhu", Lhu, op(0x03, 5), I, O::Rd, O::MemI), kI, 0, 0},
  ROW("lw", Lw, 0x4002, CI, O::Rd, O::CMemLwsp), C, 0, AlC | kRdNonZero},
  ROW("lw", Lw, 0x4000, CI, O::CRdP, O::CMemW), C, 0, AlC},
  ROW("lw", Lw, op(0x03, 2), I, O::Rd, O::MemI), kI, 0, 0},
  ROW("not", Xori, op(0x13, 4) | IMM, I | IMM, O::Rd, O::Rs1), kI, 0, Al},
  ROW("or", Ori, op(0x13, 6), I, O::Rd, O::Rs1, O::ImmI), kI, 0, Al},
  ROW("or", Or, 0x8c41, 0xfc63, O::CRdP9, O::Same, O::CRs2P), C, 0, AlC},
  ROW("or", Or, 0x8c41, 0xfc63, O::CRdP9, O::CRs2P, O::Same), C, 0, AlC},
  ROW("or", Or, op(0x33, 6), R, O::Rd, O::Rs1, O::Rs2), kI, 0, 0},
  ROW("ori", Ori, op(0x13, 6), I, O::Rd, O::Rs1, O::ImmI), kI, 0, 0},
  ROW("auipc", Auipc, op(0x17), U, O::Rd, O::ImmU), kI, 0, 0},
  ROW("seqz", Sltiu, op(0x13, 3) | (1u << 20), I | IMM, O::Rd, O::Rs1), kI, 0, Al},
  ROW("snez", Sltu, op(0x33, 3), R | RS1, O::Rd, O::Rs2), kI, 0, Al},
  ROW("sltz", Slt, op(0x33, 2), R | RS2, O::Rd, O::Rs1), kI, 0, Al},
  ROW("sgtz", Slt, op(0x33, 2), R | RS1, O::Rd, O::Rs2), kI, 0, Al},
  ROW("slti", Slti, op(0x13, 2), I, O::Rd, O::Rs1, O::ImmI), kI, 0, 0},
  ROW("slt", Slt, op(0x33, 2), R, O::Rd, O::Rs1, O::Rs2), kI, 0, 0},
  ROW("slt", Slti, op(0x13, 2), I, O::Rd, O::Rs1, O::ImmI), kI, 0, Al},
  ROW("sltiu", Sltiu, op(0x13, 3), I, O::Rd, O::Rs1, O::ImmI), kI, 0, 0},
  ROW("sltu", Sltu, op(0x33, 3), R, O::Rd, O::Rs1, O::Rs2), kI, 0, 0},
  ROW("sltu", Sltiu, op(0x13, 3), I, O::Rd, O::Rs1, O::ImmI), kI, 0, Al},
  ROW("sgt", Slt, op(0x33, 2), R, O::Rd, O::Rs2, O::Rs1), kI, 0, Al},
  ROW("sgtu", Sltu, op(0x33, 3), R, O::Rd, O::Rs2, O::Rs1), kI, 0, Al},
  ROW("sb", Sb, op(0x23, 0), I, O::Rs2, O::MemS), kI, 0, 0},
  ROW("sh", Sh, op(0x23, 1), I, O::Rs2, O::MemS), kI, 0, 0},
  ROW("sw", Sw, 0xc002, CI, O::CRs2, O::CMemSwsp), C, 0, AlC},
  ROW("sw", Sw, 0xc000, CI, O::CRs2P, O::CMemW), C, 0, AlC},
  ROW("sw", Sw, op(0x23, 2), I, O::Rs2, O::MemS), kI, 0, 0},
  // ---- fences, counters, system
  ROW("fence", Fence, 0x0ff0000f, 0xffffffff), kI, 0, Al},
  ROW("fence", Fence, op(0x0f), 0xf00fffff, O::Pred, O::Succ), kI, 0, 0},
  ROW("fence.i", FenceI, op(0x0f, 1), 0xffffffff), kZifencei, 0, 0},
  ROW("fence.tso", FenceTso, 0x8330000f, 0xffffffff), kI, 0, 0},
  ROW("rdcycle", Csrrs, csr(2, 0xc00), 0xfffff07f, O::Rd), Z, 0, Al},
  ROW("rdinstret", Csrrs, csr(2, 0xc02), 0xfffff07f, O::Rd), Z, 0, Al},
  ROW("rdtime", Csrrs, csr(2, 0xc01), 0xfffff07f, O::Rd), Z, 0, Al},
  ROW("rdcycleh", Csrrs, csr(2, 0xc80), 0xfffff07f, O::Rd), Z, 32, Al},
  ROW("rdinstreth", Csrrs, csr(2, 0xc82), 0xfffff07f, O::Rd), Z, 32, Al},
  ROW("rdtimeh", Csrrs, csr(2, 0xc81), 0xfffff07f, O::Rd), Z, 32, Al},
  ROW("ecall", Ecall, 0x00000073, 0xffffffff), kI, 0, 0},
  ROW("scall", Ecall, 0x00000073, 0xffffffff), kI, 0, Al},
  ROW("xor", Xori, op(0x13, 4), I, O::Rd, O::Rs1, O::ImmI), kI, 0, Al},
  ROW("xor", Xor, 0x8c21, 0xfc63, O::CRdP9, O::Same, O::CRs2P), C, 0, AlC},
  ROW("xor", Xor, 0x8c21, 0xfc63, O::CRdP9, O::CRs2P, O::Same), C, 0, AlC},
  ROW("xor", Xor, op(0x33, 4), R, O::Rd, O::Rs1, O::Rs2), kI, 0, 0},
  ROW("xori", Xori, op(0x13, 4), I, O::Rd, O::Rs1, O::ImmI), kI, 0, 0},
  ROW("lwu", Lwu, op(0x03, 6), I, O::Rd, O::MemI), kI, 64, 0},
  ROW("ld", Ld, 0x6002, CI, O::Rd, O::CMemLdsp), C, 64, AlC | kRdNonZero},
  ROW("ld", Ld, 0x6000, CI, O::CRdP, O::CMemD), C, 64, AlC},
  ROW("ld", Ld, op(0x03, 3), I, O::Rd, O::MemI), kI, 64, 0},
  ROW("sd", Sd, 0xe002, CI, O::CRs2, O::CMemSdsp), C, 64, AlC},
  ROW("sd", Sd, 0xe000, CI, O::CRs2P, O::CMemD), C, 64, AlC},
  ROW("sd", Sd, op(0x23, 3), I, O::Rs2, O::MemS), kI, 64, 0},
  ROW("sext.w", Addiw, 0x2001, 0xf07f, O::Rd, O::Same), C, 64, AlC | kRdNonZero},
  ROW("sext.w", Addiw, op(0x1b), I | IMM, O::Rd, O::Rs1), kI, 64, Al},
  ROW("addw", Addw, 0x9c21, 0xfc63, O::CRdP9, O::Same, O::CRs2P), C, 64, AlC},
  ROW("addw", Addw, 0x9c21, 0xfc63, O::CRdP9, O::CRs2P, O::Same), C, 64, AlC},
  ROW("addw", Addiw, 0x2001, CI, O::Rd, O::Same, O::CImm6), C, 64, AlC | kRdNonZero},
  ROW("addw", Addw, op(0x3b), R, O::Rd, O::Rs1, O::Rs2), kI, 64, 0},
  ROW("addw", Addiw, op(0x1b), I, O::Rd, O::Rs1, O::ImmI), kI, 64, Al},
  ROW("addiw", Addiw, 0x2001, CI, O::Rd, O::Same, O::CImm6), C, 64, AlC | kRdNonZero},
  ROW("addiw", Addiw, op(0x1b), I, O::Rd, O::Rs1, O::ImmI), kI, 64, 0},
  ROW("negw", Subw, op(0x3b, 0, 0x20), R | RS1, O::Rd, O::Rs2), kI, 64, Al},
  ROW("sllw", Sllw, op(0x3b, 1), R, O::Rd, O::Rs1, O::Rs2), kI, 64, 0},
  ROW("sllw", Slliw, op(0x1b, 1), R, O::Rd, O::Rs1, O::ShamtW), kI, 64, Al},
  ROW("slliw", Slliw, op(0x1b, 1), R, O::Rd, O::Rs1, O::ShamtW), kI, 64, 0},
  ROW("srlw", Srlw, op(0x3b, 5), R, O::Rd, O::Rs1, O::Rs2), kI, 64, 0},
  ROW("srlw", Srliw, op(0x1b, 5), R, O::Rd, O::Rs1, O::ShamtW), kI, 64, Al},
  ROW("srliw", Srliw, op(0x1b, 5), R, O::Rd, O::Rs1, O::ShamtW), kI, 64, 0},
  ROW("sraw", Sraw, op(0x3b, 5, 0x20), R, O::Rd, O::Rs1, O::Rs2), kI, 64, 0},
  ROW("sraw", Sraiw, op(0x1b, 5, 0x20), R, O::Rd, O::Rs1, O::ShamtW), kI, 64, Al},
  ROW("sraiw", Sraiw, op(0x1b, 5, 0x20), R, O::Rd, O::Rs1, O::ShamtW), kI, 64, 0},
  ROW("subw", Subw, 0x9c01, 0xfc63, O::CRdP9, O::Same, O::CRs2P), C, 64, AlC},
  ROW("subw", Subw, op(0x3b, 0, 0x20), R, O::Rd, O::Rs1, O::Rs2), kI, 64, 0},
  // ---- M
  ROW("mul", Mul, op(0x33, 0, 1), R, O::Rd, O::Rs1, O::Rs2), M, 0, 0},
  ROW("mulh", Mulh, op(0x33, 1, 1), R, O::Rd, O::Rs1, O::Rs2), M, 0, 0},
  ROW("mulhu", Mulhu, op(0x33, 3, 1), R, O::Rd, O::Rs1, O::Rs2), M, 0, 0},
  ROW("mulhsu", Mulhsu, op(0x33, 2, 1), R, O::Rd, O::Rs1, O::Rs2), M, 0, 0},
  ROW("div", Div, op(0x33, 4, 1), R, O::Rd, O::Rs1, O::Rs2), M, 0, 0},
  ROW("divu", Divu, op(0x33, 5, 1), R, O::Rd, O::Rs1, O::Rs2), M, 0, 0},
  ROW("rem", Rem, op(0x33, 6, 1), R, O::Rd, O::Rs1, O::Rs2), M, 0, 0},
  ROW("remu", Remu, op(0x33, 7, 1), R, O::Rd, O::Rs1, O::Rs2), M, 0, 0},
  ROW("mulw", Mulw, op(0x3b, 0, 1), R, O::Rd, O::Rs1, O::Rs2), M, 64, 0},
  ROW("divw", Divw, op(0x3b, 4, 1), R, O::Rd, O::Rs1, O::Rs2), M, 64, 0},
  ROW("divuw", Divuw, op(0x3b, 5, 1), R, O::Rd, O::Rs1, O::Rs2), M, 64, 0},
  ROW("remw", Remw, op(0x3b, 6, 1), R, O::Rd, O::Rs1, O::Rs2), M, 64, 0},
  ROW("remuw", Remuw, op(0x3b, 7, 1), R, O::Rd, O::Rs1, O::Rs2), M, 64, 0},
  // ---- A: each with .aq, .rl and .aqrl (acquire and release bits 26 and 25)
  ROW("lr.w", LrW, amo(0x02, 2, 0), R | RS2, O::Rd, O::AmoAddr), A, 0, 0},
  ROW("lr.w.aq", LrW, amo(0x02, 2, 2), R | RS2, O::Rd, O::AmoAddr), A, 0, 0},
  ROW("lr.w.rl", LrW, amo(0x02, 2, 1), R | RS2, O::Rd, O::AmoAddr), A, 0, 0},
  ROW("lr.w.aqrl", LrW, amo(0x02, 2, 3), R | RS2, O::Rd, O::AmoAddr), A, 0, 0},
  ROW("lr.d", LrD, amo(0x02, 3, 0), R | RS2, O::Rd, O::AmoAddr), A, 64, 0},
  ROW("lr.d.aq", LrD, amo(0x02, 3, 2), R | RS2, O::Rd, O::AmoAddr), A, 64, 0},
  ROW("lr.d.rl", LrD, amo(0x02, 3, 1), R | RS2, O::Rd, O::AmoAddr), A, 64, 0},
  ROW("lr.d.aqrl", LrD, amo(0x02, 3, 3), R | RS2, O::Rd, O::AmoAddr), A, 64, 0},
  ROW("sc.w", ScW, amo(0x03, 2, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("sc.w.aq", ScW, amo(0x03, 2, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("sc.w.rl", ScW, amo(0x03, 2, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("sc.w.aqrl", ScW, amo(0x03, 2, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("sc.d", ScD, amo(0x03, 3, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("sc.d.aq", ScD, amo(0x03, 3, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("sc.d.rl", ScD, amo(0x03, 3, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("sc.d.aqrl", ScD, amo(0x03, 3, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoadd.w", AmoaddW, amo(0x00, 2, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoadd.w.aq", AmoaddW, amo(0x00, 2, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoadd.w.rl", AmoaddW, amo(0x00, 2, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoadd.w.aqrl", AmoaddW, amo(0x00, 2, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoadd.d", AmoaddD, amo(0x00, 3, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoadd.d.aq", AmoaddD, amo(0x00, 3, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoadd.d.rl", AmoaddD, amo(0x00, 3, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoadd.d.aqrl", AmoaddD, amo(0x00, 3, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoswap.w", AmoswapW, amo(0x01, 2, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoswap.w.aq", AmoswapW, amo(0x01, 2, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoswap.w.rl", AmoswapW, amo(0x01, 2, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoswap.w.aqrl", AmoswapW, amo(0x01, 2, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoswap.d", AmoswapD, amo(0x01, 3, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoswap.d.aq", AmoswapD, amo(0x01, 3, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoswap.d.rl", AmoswapD, amo(0x01, 3, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoswap.d.aqrl", AmoswapD, amo(0x01, 3, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoand.w", AmoandW, amo(0x0c, 2, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoand.w.aq", AmoandW, amo(0x0c, 2, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoand.w.rl", AmoandW, amo(0x0c, 2, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoand.w.aqrl", AmoandW, amo(0x0c, 2, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoand.d", AmoandD, amo(0x0c, 3, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoand.d.aq", AmoandD, amo(0x0c, 3, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoand.d.rl", AmoandD, amo(0x0c, 3, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoand.d.aqrl", AmoandD, amo(0x0c, 3, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoor.w", AmoorW, amo(0x08, 2, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoor.w.aq", AmoorW, amo(0x08, 2, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoor.w.rl", AmoorW, amo(0x08, 2, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoor.w.aqrl", AmoorW, amo(0x08, 2, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoor.d", AmoorD, amo(0x08, 3, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoor.d.aq", AmoorD, amo(0x08, 3, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoor.d.rl", AmoorD, amo(0x08, 3, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoor.d.aqrl", AmoorD, amo(0x08, 3, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoxor.w", AmoxorW, amo(0x04, 2, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoxor.w.aq", AmoxorW, amo(0x04, 2, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoxor.w.rl", AmoxorW, amo(0x04, 2, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoxor.w.aqrl", AmoxorW, amo(0x04, 2, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amoxor.d", AmoxorD, amo(0x04, 3, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoxor.d.aq", AmoxorD, amo(0x04, 3, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoxor.d.rl", AmoxorD, amo(0x04, 3, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amoxor.d.aqrl", AmoxorD, amo(0x04, 3, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomax.w", AmomaxW, amo(0x14, 2, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomax.w.aq", AmomaxW, amo(0x14, 2, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomax.w.rl", AmomaxW, amo(0x14, 2, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomax.w.aqrl", AmomaxW, amo(0x14, 2, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomax.d", AmomaxD, amo(0x14, 3, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomax.d.aq", AmomaxD, amo(0x14, 3, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomax.d.rl", AmomaxD, amo(0x14, 3, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomax.d.aqrl", AmomaxD, amo(0x14, 3, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomaxu.w", AmomaxuW, amo(0x1c, 2, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomaxu.w.aq", AmomaxuW, amo(0x1c, 2, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomaxu.w.rl", AmomaxuW, amo(0x1c, 2, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomaxu.w.aqrl", AmomaxuW, amo(0x1c, 2, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomaxu.d", AmomaxuD, amo(0x1c, 3, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomaxu.d.aq", AmomaxuD, amo(0x1c, 3, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomaxu.d.rl", AmomaxuD, amo(0x1c, 3, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomaxu.d.aqrl", AmomaxuD, amo(0x1c, 3, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomin.w", AmominW, amo(0x10, 2, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomin.w.aq", AmominW, amo(0x10, 2, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomin.w.rl", AmominW, amo(0x10, 2, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomin.w.aqrl", AmominW, amo(0x10, 2, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amomin.d", AmominD, amo(0x10, 3, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomin.d.aq", AmominD, amo(0x10, 3, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomin.d.rl", AmominD, amo(0x10, 3, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amomin.d.aqrl", AmominD, amo(0x10, 3, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amominu.w", AmominuW, amo(0x18, 2, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amominu.w.aq", AmominuW, amo(0x18, 2, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amominu.w.rl", AmominuW, amo(0x18, 2, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amominu.w.aqrl", AmominuW, amo(0x18, 2, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 0, 0},
  ROW("amominu.d", AmominuD, amo(0x18, 3, 0), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amominu.d.aq", AmominuD, amo(0x18, 3, 2), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amominu.d.rl", AmominuD, amo(0x18, 3, 1), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  ROW("amominu.d.aqrl", AmominuD, amo(0x18, 3, 3), R, O::Rd, O::Rs2, O::AmoAddr), A, 64, 0},
  // ---- Zicsr and its aliases
  ROW("csrr", Csrrs, csr(2, 0), I | RS1, O::Rd, O::Csr), Z, 0, Al},
  ROW("csrw", Csrrw, csr(1, 0), I | RD, O::Csr, O::Rs1), Z, 0, Al},
  ROW("csrw", Csrrwi, csr(5, 0), I | RD, O::Csr, O::Zimm), Z, 0, Al},
  ROW("csrs", Csrrs, csr(2, 0), I | RD, O::Csr, O::Rs1), Z, 0, Al},
  ROW("csrs", Csrrsi, csr(6, 0), I | RD, O::Csr, O::Zimm), Z, 0, Al},
  ROW("csrc", Csrrc, csr(3, 0), I | RD, O::Csr, O::Rs1), Z, 0, Al},
  ROW("csrc", Csrrci, csr(7, 0), I | RD, O::Csr, O::Zimm), Z, 0, Al},
  ROW("csrwi", Csrrwi, csr(5, 0), I | RD, O::Csr, O::Zimm), Z, 0, Al},
  ROW("csrsi", Csrrsi, csr(6, 0), I | RD, O::Csr, O::Zimm), Z, 0, Al},
  ROW("csrci", Csrrci, csr(7, 0), I | RD, O::Csr, O::Zimm), Z, 0, Al},
  ROW("csrrw", Csrrw, csr(1, 0), I, O::Rd, O::Csr, O::Rs1), Z, 0, 0},
  ROW("csrrw", Csrrwi, csr(5, 0), I, O::Rd, O::Csr, O::Zimm), Z, 0, Al},
  ROW("csrrs", Csrrs, csr(2, 0), I, O::Rd, O::Csr, O::Rs1), Z, 0, 0},
  ROW("csrrs", Csrrsi, csr(6, 0), I, O::Rd, O::Csr, O::Zimm), Z, 0, Al},
  ROW("csrrc", Csrrc, csr(3, 0), I, O::Rd, O::Csr, O::Rs1), Z, 0, 0},
  ROW("csrrc", Csrrci, csr(7, 0), I, O::Rd, O::Csr, O::Zimm), Z, 0, Al},
  ROW("csrrwi", Csrrwi, csr(5, 0), I, O::Rd, O::Csr, O::Zimm), Z, 0, 0},
  ROW("csrrsi", Csrrsi, csr(6, 0), I, O::Rd, O::Csr, O::Zimm), Z, 0, 0},
  ROW("csrrci", Csrrci, csr(7, 0), I, O::Rd, O::Csr, O::Zimm), Z, 0, 0},
  // ---- privileged
  ROW("sret", Sret, 0x10200073, 0xffffffff), kPriv, 0, 0},
  ROW("mret", Mret, 0x30200073, 0xffffffff), kPriv, 0, 0},
  ROW("wfi", Wfi, 0x10500073, 0xffffffff), kPriv, 0, 0},
  ROW("sfence.vma", SfenceVma, 0x12000073, 0xffffffff), kPriv, 0, 0},
  ROW("sfence.vma", SfenceVma, 0x12000073, 0xfff07fff, O::Rs1), kPriv, 0, 0},
  ROW("sfence.vma", SfenceVma, 0x12000073, 0xfe007fff, O::Rs1, O::Rs2), kPriv, 0, 0},
  // ---- the compressed instructions under their own names (objdump -M no-aliases;
  // the decoder's canonical rows, which the model reads)
  ROW("c.unimp", Unimp, 0x0000, 0xffff), C, 0, Cm},
  ROW("c.ebreak", Ebreak, 0x9002, 0xffff), C, 0, Cm},
  ROW("c.jr", Jalr, 0x8002, 0xf07f, O::CRs1Hi), C, 0, Cm | kRdNonZero | kTransfer},
  ROW("c.jalr", Jalr, 0x9002, 0xf07f, O::CRs1Hi, O::LinkRa), C, 0, Cm | kRdNonZero | kTransfer | kLink},
  ROW("c.j", Jal, 0xa001, CI, O::CJmp), C, 0, Cm | kTransfer},
  ROW("c.jal", Jal, 0x2001, CI, O::CJmp, O::LinkRa), C, 32, Cm | kTransfer | kLink},
  ROW("c.beqz", Beq, 0xc001, CI, O::CRs1P9, O::CBr), C, 0, Cm | kTransfer},
  ROW("c.bnez", Bne, 0xe001, CI, O::CRs1P9, O::CBr), C, 0, Cm | kTransfer},
  ROW("c.nop", Addi, 0x0001, 0xffff), C, 0, Cm},
  ROW("c.nop", Addi, 0x0001, 0xef83, O::CImm6), C, 0, Cm | kImmNonZero},  // a HINT
  ROW("c.addi", Addi, 0x0001, CI, O::RdRs1, O::CImm6), C, 0, Cm},
  ROW("c.addiw", Addiw, 0x2001, CI, O::RdRs1, O::CImm6), C, 64, Cm | kRdNonZero},
  ROW("c.addi4spn", Addi, 0x0000, CI, O::CRdP, O::SpRs1, O::CAddi4spn), C, 0, Cm | kImmNonZero},
  ROW("c.addi16sp", Addi, 0x6101, 0xef83, O::SpRd, O::CAddi16sp), C, 0, Cm | kImmNonZero},
  ROW("c.li", Addi, 0x4001, CI, O::Rd, O::CImm6), C, 0, Cm},
  ROW("c.lui", Lui, 0x6001, CI, O::Rd, O::CLui), C, 0, Cm | kRdNotSp | kImmNonZero},
  ROW("c.mv", Add, 0x8002, 0xf003, O::Rd, O::CRs2), C, 0, Cm | kRs2NonZero},
  ROW("c.add", Add, 0x9002, 0xf003, O::RdRs1, O::CRs2), C, 0, Cm | kRs2NonZero},
  ROW("c.slli", Slli, 0x0002, CI, O::RdRs1, O::CShamt), C, 0, Cm | kImmNonZero},
  ROW("c.slli64", Slli, 0x0002, 0xf07f, O::RdRs1), C, 0, Cm},  // shift by 0: a HINT
  ROW("c.srli", Srli, 0x8001, 0xec03, O::CRdRs1P9, O::CShamt), C, 0, Cm | kImmNonZero},
  ROW("c.srli64", Srli, 0x8001, 0xfc7f, O::CRdRs1P9), C, 0, Cm},
  ROW("c.srai", Srai, 0x8401, 0xec03, O::CRdRs1P9, O::CShamt), C, 0, Cm | kImmNonZero},
  ROW("c.srai64", Srai, 0x8401, 0xfc7f, O::CRdRs1P9), C, 0, Cm},
  ROW("c.andi", Andi, 0x8801, 0xec03, O::CRdRs1P9, O::CImm6), C, 0, Cm},
  ROW("c.sub", Sub, 0x8c01, 0xfc63, O::CRdRs1P9, O::CRs2P), C, 0, Cm},
  ROW("c.xor", Xor, 0x8c21, 0xfc63, O::CRdRs1P9, O::CRs2P), C, 0, Cm},
  ROW("c.or", Or, 0x8c41, 0xfc63, O::CRdRs1P9, O::CRs2P), C, 0, Cm},
  ROW("c.and", And, 0x8c61, 0xfc63, O::CRdRs1P9, O::CRs2P), C, 0, Cm},
  ROW("c.subw", Subw, 0x9c01, 0xfc63, O::CRdRs1P9, O::CRs2P), C, 64, Cm},
  ROW("c.addw", Addw, 0x9c21, 0xfc63, O::CRdRs1P9, O::CRs2P), C, 64, Cm},
  ROW("c.lw", Lw, 0x4000, CI, O::CRdP, O::CMemW), C, 0, Cm},
  ROW("c.ld", Ld, 0x6000, CI, O::CRdP, O::CMemD), C, 64, Cm},
  ROW("c.sw", Sw, 0xc000, CI, O::CRs2P, O::CMemW), C, 0, Cm},
  ROW("c.sd", Sd, 0xe000, CI, O::CRs2P, O::CMemD), C, 64, Cm},
  ROW("c.lwsp", Lw, 0x4002, CI, O::Rd, O::CMemLwsp), C, 0, Cm | kRdNonZero},
  ROW("c.ldsp", Ld, 0x6002, CI, O::Rd, O::CMemLdsp), C, 64, Cm | kRdNonZero},
  ROW("c.swsp", Sw, 0xc002, CI, O::CRs2, O::CMemSwsp), C, 0, Cm},
  ROW("c.sdsp", Sd, 0xe002, CI, O::CRs2, O::CMemSdsp), C, 64, Cm},
};
// clang-format on
#undef ROW

constexpr ImmLayout layout(std::initializer_list<Piece> ps, uint8_t bits, bool isSigned, uint8_t scale) {
  ImmLayout l;
  for (Piece p : ps) l.pieces[l.count++] = p;
  l.bits = bits, l.isSigned = isSigned, l.scale = scale;
  return l;
}

}  // namespace

std::span<const Row> instructionTable() {
  // The F and D rows first: their fcsr aliases must precede csrr and csrw.
  static const std::vector<Row> all = [] {
    std::vector<Row> v(floatRows().begin(), floatRows().end());
    v.insert(v.end(), std::begin(kTable), std::end(kTable));
    return v;
  }();
  return all;
}

const ImmLayout& layoutOf(Opnd k) {
  // Unprivileged ISA 2.3 (Figure 2.4, immediate encoding variants) and
  // 16.2-16.5 (compressed formats): each piece is {value bit, width, insn bit}.
  static const ImmLayout none{}, immI = layout({{0, 12, 20}}, 12, true, 0),
      immS = layout({{0, 5, 7}, {5, 7, 25}}, 12, true, 0),
      brB = layout({{1, 4, 8}, {5, 6, 25}, {11, 1, 7}, {12, 1, 31}}, 13, true, 1),
      brJ = layout({{1, 10, 21}, {11, 1, 20}, {12, 8, 12}, {20, 1, 31}}, 21, true, 1),
      immU = layout({{0, 20, 12}}, 20, false, 0), shamt = layout({{0, 6, 20}}, 6, false, 0),
      shamtW = layout({{0, 5, 20}}, 5, false, 0), csr = layout({{0, 12, 20}}, 12, false, 0),
      zimm = layout({{0, 5, 15}}, 5, false, 0), pred = layout({{0, 4, 24}}, 4, false, 0),
      succ = layout({{0, 4, 20}}, 4, false, 0), cimm6 = layout({{0, 5, 2}, {5, 1, 12}}, 6, true, 0),
      cshamt = layout({{0, 5, 2}, {5, 1, 12}}, 6, false, 0),
      cAddi4spn = layout({{2, 1, 6}, {3, 1, 5}, {4, 2, 11}, {6, 4, 7}}, 10, false, 2),
      cAddi16sp = layout({{4, 1, 6}, {5, 1, 2}, {6, 1, 5}, {7, 2, 3}, {9, 1, 12}}, 10, true, 4),
      lwsp = layout({{2, 3, 4}, {5, 1, 12}, {6, 2, 2}}, 8, false, 2),
      ldsp = layout({{3, 2, 5}, {5, 1, 12}, {6, 3, 2}}, 9, false, 3),
      swsp = layout({{2, 4, 9}, {6, 2, 7}}, 8, false, 2), sdsp = layout({{3, 3, 10}, {6, 3, 7}}, 9, false, 3),
      cw = layout({{2, 1, 6}, {3, 3, 10}, {6, 1, 5}}, 7, false, 2),
      cd = layout({{3, 3, 10}, {6, 2, 5}}, 8, false, 3),
      cbr = layout({{1, 2, 3}, {3, 2, 10}, {5, 1, 2}, {6, 2, 5}, {8, 1, 12}}, 9, true, 1),
      cj = layout({{1, 3, 3}, {4, 1, 11}, {5, 1, 2}, {6, 1, 7}, {7, 1, 6}, {8, 2, 9}, {10, 1, 8}, {11, 1, 12}}, 12,
                  true, 1);
  switch (k) {
    case Opnd::ImmI: case Opnd::MemI: return immI;
    case Opnd::MemS: return immS;
    case Opnd::BrB: return brB;
    case Opnd::BrJ: return brJ;
    case Opnd::ImmU: return immU;
    case Opnd::Shamt: return shamt;
    case Opnd::ShamtW: return shamtW;
    case Opnd::Csr: return csr;
    case Opnd::Zimm: return zimm;
    case Opnd::Pred: return pred;
    case Opnd::Succ: return succ;
    case Opnd::CImm6: case Opnd::CLui: return cimm6;
    case Opnd::CShamt: return cshamt;
    case Opnd::CAddi4spn: return cAddi4spn;
    case Opnd::CAddi16sp: return cAddi16sp;
    case Opnd::CMemLwsp: return lwsp;
    case Opnd::CMemLdsp: return ldsp;
    case Opnd::CMemSwsp: return swsp;
    case Opnd::CMemSdsp: return sdsp;
    case Opnd::CMemW: return cw;
    case Opnd::CMemD: return cd;
    case Opnd::CBr: return cbr;
    case Opnd::CJmp: return cj;
    default: return none;
  }
}

uint32_t operandBits(Opnd k) {
  uint32_t bits = 0;
  const ImmLayout& l = layoutOf(k);
  for (unsigned i = 0; i < l.count; ++i) bits |= ((1u << l.pieces[i].width) - 1) << l.pieces[i].at;
  switch (k) {
    case Opnd::Rd: case Opnd::CRs1Hi: case Opnd::RdRs1: return 0xf80;
    case Opnd::Rs1: case Opnd::AmoAddr: return 0xf8000;
    case Opnd::Rs2: return 0x1f00000;
    case Opnd::MemI: case Opnd::MemS: return bits | 0xf8000;
    case Opnd::CRs2: return 0x7c;
    case Opnd::CRdP: case Opnd::CRs2P: return 0x1c;
    case Opnd::CRdP9: case Opnd::CRs1P9: case Opnd::CRdRs1P9: return 0x380;
    case Opnd::CMemW: case Opnd::CMemD: return bits | 0x380;
    case Opnd::Fd: return 0xf80;
    case Opnd::Fs1: return 0xf8000;
    case Opnd::Fs2: return 0x1f00000;
    case Opnd::Fs3: return 0xf8000000;
    case Opnd::FRs1Rs2: return 0x1ff8000;
    case Opnd::Rm: return 0x7000;
    case Opnd::CFdP: case Opnd::CFs2P: return 0x1c;
    case Opnd::CFs2: return 0x7c;
    default: return bits;
  }
}

int64_t extractImm(Opnd k, uint32_t insn) {
  const ImmLayout& l = layoutOf(k);
  uint64_t v = 0;
  for (unsigned i = 0; i < l.count; ++i) {
    const Piece& p = l.pieces[i];
    v |= uint64_t((insn >> p.at) & ((1u << p.width) - 1)) << p.from;
  }
  if (l.isSigned && l.bits && (v >> (l.bits - 1)) & 1) v |= ~uint64_t(0) << l.bits;
  return int64_t(v);
}

uint32_t placeImm(Opnd k, uint64_t value) {
  const ImmLayout& l = layoutOf(k);
  uint32_t out = 0;
  for (unsigned i = 0; i < l.count; ++i) {
    const Piece& p = l.pieces[i];
    out |= uint32_t((value >> p.from) & ((1u << p.width) - 1)) << p.at;
  }
  return out;
}

bool isRegisterKind(Opnd k) {
  switch (k) {
    case Opnd::Rd: case Opnd::Rs1: case Opnd::Rs2: case Opnd::CRs1Hi: case Opnd::CRs2: case Opnd::CRdP:
    case Opnd::CRs2P: case Opnd::CRdP9: case Opnd::CRs1P9: case Opnd::Same: case Opnd::RdRs1: case Opnd::CRdRs1P9: case Opnd::SpRd: case Opnd::SpRs1:
    case Opnd::ZeroRs1: case Opnd::ZeroRs2:
      return true;
    default: return false;
  }
}

bool isFloatRegisterKind(Opnd k) {
  switch (k) {
    case Opnd::Fd: case Opnd::Fs1: case Opnd::Fs2: case Opnd::Fs3: case Opnd::FRs1Rs2: case Opnd::CFdP:
    case Opnd::CFs2P: case Opnd::CFs2:
      return true;
    default: return false;
  }
}

}  // namespace patchcheck::riscv
