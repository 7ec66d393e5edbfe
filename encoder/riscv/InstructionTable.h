#pragma once
// The one table of RISC-V instructions (RV32I/RV64I, M, A, Zicsr,
// Zifencei, C, and the privileged instructions the kernel uses). A row is
// a mnemonic, the fixed bits (`match` under `mask`), its operands in GNU
// syntax order, the extension and register width it needs, and `op`: the
// operation it performs. The assembler, decoder, printer and the model's
// semantics all read this table; nothing else knows an opcode.
//
// Like GNU as and objdump (binutils opcodes/riscv-opc.c), rows are tried in
// order: the assembler takes the first row of a mnemonic whose operands
// fit (so a compressed row placed first is chosen when the C extension is
// on), and the decoder the first row whose bits match (so an alias such as
// `mv` placed before `addi` is what objdump prints). Aliases and
// compressed rows carry the op of the instruction they perform: `mv` is
// Op::Addi, `c.j` is Op::Jal with rd = x0.
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace patchcheck::riscv {

// Operand kinds: syntax, the bits they occupy, and which decoded field
// (Decoded in Decoder.h) they fill.
enum class Opnd : uint8_t {
  None,
  // 32-bit formats
  Rd, Rs1, Rs2,   // x registers at 11:7, 19:15, 24:20
  ImmI,           // signed 12-bit immediate, 31:20
  ImmU,           // 20-bit upper immediate, 31:12, written as the field (0..0xfffff)
  MemI, MemS,     // offset(rs1): I or S immediate, base in 19:15
  BrB, BrJ,       // branch and jal targets (13- and 21-bit signed, even)
  Shamt,          // shift amount, 25:20 (0..63 on RV64, 0..31 on RV32)
  ShamtW,         // shift amount of the *W shifts, 24:20
  Csr,            // CSR number or name, 31:20
  Zimm,           // 5-bit unsigned CSR immediate, 19:15
  Pred, Succ,     // fence sets (iorw), 27:24 and 23:20
  AmoAddr,        // (rs1) with an optional 0 offset: "0(a0)" or "(a0)"
  // 16-bit formats (C extension, RISC-V Unprivileged ISA, chapter "C")
  CRs1Hi,         // a register in 11:7 read as rs1 (c.jr, c.jalr)
  CRs2,           // rs2 in 6:2
  CRdP, CRs2P,    // x8..x15 in 4:2, as rd (loads, c.addi4spn) or rs2
  CRdP9, CRs1P9,  // x8..x15 in 9:7, as rd (= rs1, CA and CB ALU forms) or rs1 (branches)
  Same,           // the register of operand 0 again (rd = rs1); no bits, fills rs1
  RdRs1,          // one register in 11:7 that is both rd and rs1 (c.addi, c.add, c.slli)
  CRdRs1P9,       // x8..x15 in 9:7, both rd and rs1 (c.andi, c.sub, ...)
  SpRd, SpRs1,    // the literal register sp as rd or rs1; no bits
  ZeroRs1, ZeroRs2, // the literal register zero as rs1 or rs2; no bits
  ZeroImm,        // the literal immediate 0; no bits
  LinkRa,         // not written: rd = ra (c.jal, c.jalr)
  CImm6,          // signed 6-bit immediate, 12 and 6:2
  CShamt,         // 6-bit shift amount, 12 and 6:2 (nonzero)
  CLui,           // c.lui's immediate as lui writes it (1..0x1f, 0xfffe0..0xfffff)
  CAddi4spn,      // c.addi4spn: nonzero unsigned multiple of 4 below 1024
  CAddi16sp,      // c.addi16sp: nonzero signed multiple of 16, -512..496
  CMemLwsp, CMemLdsp, CMemSwsp, CMemSdsp,  // offset(sp)
  CMemW, CMemD,   // offset(rs1'), rs1' in 9:7
  CBr, CJmp,      // c.beqz/c.bnez and c.j/c.jal targets
  // F and D (Unprivileged ISA chapters "F" and "D"): f registers in the
  // x-register fields, fs3 of the R4 format, the rounding mode
  Fd, Fs1, Fs2,   // f registers at 11:7, 19:15, 24:20
  Fs3,            // f register at 31:27 (fmadd, ...)
  FRs1Rs2,        // one f register written to both 19:15 and 24:20 (fmv.s, fneg.s, fabs.s)
  Rm,             // rounding mode, 14:12: rne rtz rdn rup rmm (dyn is the row without it)
  CFdP, CFs2P,    // f8..f15 in 4:2, as rd (c.fld, c.flw) or rs2 (c.fsd, c.fsw)
  CFs2,           // an f register in 6:2 (c.fsdsp, c.fswsp); c.fldsp's rd is Fd
};

// The operation a row performs: the model switches on it.
enum class Op : uint8_t {
  // RV32I/RV64I
  Lui, Auipc, Jal, Jalr, Beq, Bne, Blt, Bge, Bltu, Bgeu,
  Lb, Lh, Lw, Ld, Lbu, Lhu, Lwu, Sb, Sh, Sw, Sd,
  Addi, Slti, Sltiu, Xori, Ori, Andi, Slli, Srli, Srai,
  Add, Sub, Sll, Slt, Sltu, Xor, Srl, Sra, Or, And,
  Addiw, Slliw, Srliw, Sraiw, Addw, Subw, Sllw, Srlw, Sraw,
  Fence, FenceTso, Ecall, Ebreak,
  // Zifencei, Zicsr
  FenceI, Csrrw, Csrrs, Csrrc, Csrrwi, Csrrsi, Csrrci,
  // M
  Mul, Mulh, Mulhsu, Mulhu, Div, Divu, Rem, Remu, Mulw, Divw, Divuw, Remw, Remuw,
  // A (aq and rl are Decoded fields)
  LrW, ScW, AmoswapW, AmoaddW, AmoxorW, AmoandW, AmoorW, AmominW, AmomaxW, AmominuW, AmomaxuW,
  LrD, ScD, AmoswapD, AmoaddD, AmoxorD, AmoandD, AmoorD, AmominD, AmomaxD, AmominuD, AmomaxuD,
  // privileged (RISC-V Privileged ISA): returns, wait, address-translation fence
  Sret, Mret, Wfi, SfenceVma,
  // an encoding the ISA defines as illegal (unimp, c.unimp)
  Unimp,
  // F and D: loads and stores, then one op per operation and format
  Flw, Fsw, Fld, Fsd,
  FmaddS, FmsubS, FnmsubS, FnmaddS, FaddS, FsubS, FmulS, FdivS, FsqrtS, FsgnjS, FsgnjnS, FsgnjxS,
  FminS, FmaxS, FcvtWS, FcvtWuS, FcvtLS, FcvtLuS, FcvtSW, FcvtSWu, FcvtSL, FcvtSLu,
  FmvXW, FmvWX, FeqS, FltS, FleS, FclassS,
  FmaddD, FmsubD, FnmsubD, FnmaddD, FaddD, FsubD, FmulD, FdivD, FsqrtD, FsgnjD, FsgnjnD, FsgnjxD,
  FminD, FmaxD, FcvtWD, FcvtWuD, FcvtLD, FcvtLuD, FcvtDW, FcvtDWu, FcvtDL, FcvtDLu,
  FcvtSD, FcvtDS, FmvXD, FmvDX, FeqD, FltD, FleD, FclassD,
};

// Is the op one of the F and D extensions'?
constexpr bool isFloatOp(Op op) { return op >= Op::Flw; }

// Extensions a row needs.
enum Ext : uint16_t {
  kI = 1 << 0, kM = 1 << 1, kA = 1 << 2, kZicsr = 1 << 3, kZifencei = 1 << 4, kC = 1 << 5,
  kPriv = 1 << 6,  // privileged architecture
  kF = 1 << 7, kD = 1 << 8,  // floating point; a target has both or neither (G = IMAFD)
};

enum Flag : uint16_t {
  kAlias = 1 << 0,       // another spelling: objdump -M no-aliases would print another row
  kCompressed = 1 << 1,  // a 16-bit instruction
  kRdNonZero = 1 << 2,   // rd (11:7) must not be x0
  kRs2NonZero = 1 << 3,  // rs2 (6:2) of CR must not be x0
  kImmNonZero = 1 << 4,  // the immediate must not be 0
  kRdNotSp = 1 << 5,     // c.lui: rd must not be x2
  kLink = 1 << 6,        // writes a return address
  kTransfer = 1 << 7,    // a jump or branch
  kPrintOnly = 1 << 8,   // objdump prints it; GNU as never picks it (jal to a label on RV32 stays 4 bytes)
  kRs1EqRs2 = 1 << 9,    // rs1 (19:15) and rs2 (24:20) must be equal (fmv.s, fneg.d, ...)
};

struct Row {
  std::string_view mnemonic;
  Op op;
  uint32_t match, mask;           // an instruction of this row has (bits & mask) == match
  std::array<Opnd, 5> operands;   // in syntax order; Opnd::None ends the list
  uint16_t exts = kI;
  uint8_t xlen = 0;               // 0: both; 32 or 64: only there
  uint16_t flags = 0;

  unsigned operandCount() const {
    unsigned n = 0;
    while (n < operands.size() && operands[n] != Opnd::None) ++n;
    return n;
  }
  unsigned length() const { return (flags & kCompressed) ? 2 : 4; }
  // `fd`: the target has the F and D extensions.
  bool availableOn(unsigned bits, bool rvc, bool fd = false) const {
    return (xlen == 0 || xlen == bits) && (rvc || !(flags & kCompressed)) && (fd || !(exts & (kF | kD)));
  }
};

std::span<const Row> instructionTable();

// An immediate field: bits [from, from + width) of the value are bits
// [at, at + width) of the instruction.
struct Piece {
  uint8_t from, width, at;
};
struct ImmLayout {
  std::array<Piece, 8> pieces{};
  uint8_t count = 0;
  uint8_t bits = 0;      // value width, low zero bits included (BrB: 13)
  bool isSigned = false;
  uint8_t scale = 0;     // low bits that must be zero (BrB: 1, CMemLwsp: 2)
};
// The layout of an immediate operand; count == 0 for a register or literal.
const ImmLayout& layoutOf(Opnd);
// Instruction bits an operand kind occupies.
uint32_t operandBits(Opnd);
// Reads/places an immediate operand's value (sign-extended when signed).
int64_t extractImm(Opnd, uint32_t insn);
uint32_t placeImm(Opnd, uint64_t value);

// Register fields.
constexpr unsigned rdOf(uint32_t w) { return (w >> 7) & 31; }
constexpr unsigned rs1Of(uint32_t w) { return (w >> 15) & 31; }
constexpr unsigned rs2Of(uint32_t w) { return (w >> 20) & 31; }

// Is this row's operand an x register (isRegisterKind; a literal such as
// sp or zero included) or an f register (isFloatRegisterKind)?
bool isRegisterKind(Opnd);
bool isFloatRegisterKind(Opnd);

// The rounding-mode field's names (14:12); 5 and 6 are reserved.
constexpr const char* kRoundingModes[8] = {"rne", "rtz", "rdn", "rup", "rmm", nullptr, nullptr, "dyn"};

}  // namespace patchcheck::riscv
