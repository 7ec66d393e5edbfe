#include "encoder/arm64/InstructionTable.h"

#include "encoder/arm64/Bitmask.h"
#include "encoder/arm64/Operands.h"
#include "encoder/arm64/SystemNames.h"

namespace patchcheck::arm64 {
namespace {

using O = Opnd;
using R = FieldRule;
constexpr uint16_t A = kAsmOnly, AL = kAlias, BR = kBranch, LK = kLink, CO = kConditional,
                   IN = kIndirect, LD = kLoad, ST = kStore, PR = kPrivileged;

constexpr uint32_t hint(unsigned n) { return 0xd503201fu | (n << 5); }
constexpr uint32_t cond(unsigned c) { return 0x54000000u | c; }
constexpr uint32_t rd(unsigned r) { return r; }
constexpr uint32_t rn(unsigned r) { return r << 5; }
constexpr uint32_t crm(unsigned v) { return v << 8; }

// Order matters: decode returns the first row that matches a word, so an
// alias comes before the row it spells; the assembler tries the rows of a
// mnemonic in table order and takes the first that fits (GNU as's choice:
// the scaled offset before the unscaled one, movz before movn before orr).
// Encodings: Arm ARM (DDI 0487), section C4 "A64 instruction set encoding",
// checked bit for bit against GNU as 2.40 by oracle.gnu_as_diff.
constexpr InstrDesc kTable[] = {
    // --- hints (HINT #CRm:op2); objdump names these numbers
    {"nop", Op::Hint, hint(0), {}, AL},
    {"yield", Op::Hint, hint(1), {}, AL},
    {"wfe", Op::Hint, hint(2), {}, AL},
    {"wfi", Op::Hint, hint(3), {}, AL},
    {"sev", Op::Hint, hint(4), {}, AL},
    {"sevl", Op::Hint, hint(5), {}, AL},
    {"xpaclri", Op::Hint, hint(7), {}, AL},
    {"pacia1716", Op::Hint, hint(8), {}, AL},
    {"pacib1716", Op::Hint, hint(10), {}, AL},
    {"autia1716", Op::Hint, hint(12), {}, AL},
    {"autib1716", Op::Hint, hint(14), {}, AL},
    {"esb", Op::Hint, hint(16), {}, AL},
    {"psb", Op::Hint, hint(17), {O::Keyword}, AL, R::None, "csync"},
    {"tsb", Op::Hint, hint(18), {O::Keyword}, AL, R::None, "csync"},
    {"csdb", Op::Hint, hint(20), {}, AL},
    {"clearbhb", Op::Hint, hint(22), {}, AL},
    {"paciaz", Op::Hint, hint(24), {}, AL},
    {"paciasp", Op::Hint, hint(25), {}, AL},
    {"pacibz", Op::Hint, hint(26), {}, AL},
    {"pacibsp", Op::Hint, hint(27), {}, AL},
    {"autiaz", Op::Hint, hint(28), {}, AL},
    {"autiasp", Op::Hint, hint(29), {}, AL},
    {"autibz", Op::Hint, hint(30), {}, AL},
    {"autibsp", Op::Hint, hint(31), {}, AL},
    {"bti", Op::Hint, hint(32), {}, AL},
    {"bti", Op::Hint, hint(34), {O::Keyword}, AL, R::None, "c"},
    {"bti", Op::Hint, hint(36), {O::Keyword}, AL, R::None, "j"},
    {"bti", Op::Hint, hint(38), {O::Keyword}, AL, R::None, "jc"},
    {"hint", Op::Hint, hint(0), {O::Hint7}},

    // --- branches
    {"b", Op::B, 0x14000000, {O::Label26}, BR},
    {"bl", Op::Bl, 0x94000000, {O::Label26}, BR | LK},
    {"b.eq", Op::BCond, cond(0), {O::Label19}, BR | CO},
    {"b.ne", Op::BCond, cond(1), {O::Label19}, BR | CO},
    {"b.cs", Op::BCond, cond(2), {O::Label19}, BR | CO},
    {"b.cc", Op::BCond, cond(3), {O::Label19}, BR | CO},
    {"b.mi", Op::BCond, cond(4), {O::Label19}, BR | CO},
    {"b.pl", Op::BCond, cond(5), {O::Label19}, BR | CO},
    {"b.vs", Op::BCond, cond(6), {O::Label19}, BR | CO},
    {"b.vc", Op::BCond, cond(7), {O::Label19}, BR | CO},
    {"b.hi", Op::BCond, cond(8), {O::Label19}, BR | CO},
    {"b.ls", Op::BCond, cond(9), {O::Label19}, BR | CO},
    {"b.ge", Op::BCond, cond(10), {O::Label19}, BR | CO},
    {"b.lt", Op::BCond, cond(11), {O::Label19}, BR | CO},
    {"b.gt", Op::BCond, cond(12), {O::Label19}, BR | CO},
    {"b.le", Op::BCond, cond(13), {O::Label19}, BR | CO},
    {"b.al", Op::BCond, cond(14), {O::Label19}, BR | CO},
    {"b.nv", Op::BCond, cond(15), {O::Label19}, BR | CO},
    {"b.hs", Op::BCond, cond(2), {O::Label19}, BR | CO | A},
    {"b.lo", Op::BCond, cond(3), {O::Label19}, BR | CO | A},
    {"cbz", Op::Cbz, 0xb4000000, {O::Xt, O::Label19}, BR | CO},
    {"cbz", Op::Cbz, 0x34000000, {O::Wt, O::Label19}, BR | CO},
    {"cbnz", Op::Cbnz, 0xb5000000, {O::Xt, O::Label19}, BR | CO},
    {"cbnz", Op::Cbnz, 0x35000000, {O::Wt, O::Label19}, BR | CO},
    // tbz: b5 chooses the register width objdump prints; GNU as takes an
    // X register with a bit below 32 (and encodes b5 = 0).
    {"tbz", Op::Tbz, 0x36000000, {O::Wt, O::BitW, O::Label14}, BR | CO},
    {"tbz", Op::Tbz, 0xb6000000, {O::Xt, O::BitX, O::Label14}, BR | CO},
    {"tbz", Op::Tbz, 0x36000000, {O::Xt, O::BitW, O::Label14}, BR | CO | A},
    {"tbnz", Op::Tbnz, 0x37000000, {O::Wt, O::BitW, O::Label14}, BR | CO},
    {"tbnz", Op::Tbnz, 0xb7000000, {O::Xt, O::BitX, O::Label14}, BR | CO},
    {"tbnz", Op::Tbnz, 0x37000000, {O::Xt, O::BitW, O::Label14}, BR | CO | A},
    {"br", Op::Br, 0xd61f0000, {O::Xn}, BR | IN},
    {"blr", Op::Blr, 0xd63f0000, {O::Xn}, BR | IN | LK},
    {"ret", Op::Ret, 0xd65f0000 | rn(30), {}, BR | IN | AL},
    {"ret", Op::Ret, 0xd65f0000, {O::Xn}, BR | IN},

    // --- exceptions and barriers
    {"brk", Op::Brk, 0xd4200000, {O::Imm16}},
    {"svc", Op::Svc, 0xd4000001, {O::Imm16}},
    {"hvc", Op::Hvc, 0xd4000002, {O::Imm16}, PR},
    {"eret", Op::Eret, 0xd69f03e0, {}, BR | PR},  // returns to ELR_EL1 (from EL1 or higher)
    {"udf", Op::Udf, 0x00000000, {O::UdfImm16}},
    {"isb", Op::Isb, 0xd50330df | crm(15), {}, AL},
    {"isb", Op::Isb, 0xd50330df, {O::IsbOpt}},
    {"ssbb", Op::Dsb, 0xd503309f | crm(0), {}, AL},
    {"pssbb", Op::Dsb, 0xd503309f | crm(4), {}, AL},
    {"dsb", Op::Dsb, 0xd503309f, {O::Barrier}},
    {"dmb", Op::Dmb, 0xd50330bf, {O::Barrier}},

    // --- moves: register (orr), to and from sp (add #0), wide immediates
    {"mov", Op::Orr, 0xaa0003e0, {O::Xd, O::Xm}, AL},
    {"mov", Op::Orr, 0x2a0003e0, {O::Wd, O::Wm}, AL},
    {"mov", Op::AddImm, 0x91000000, {O::XdSp, O::XnSp}, AL, R::MovSp},
    {"mov", Op::AddImm, 0x11000000, {O::WdSp, O::WnSp}, AL, R::MovSp},
    {"mov", Op::Movz, 0xd2800000, {O::Xd, O::MovzX}, AL, R::MovWide},
    {"mov", Op::Movz, 0x52800000, {O::Wd, O::MovzW}, AL, R::MovWide},
    {"mov", Op::Movn, 0x92800000, {O::Xd, O::MovnX}, AL, R::MovWide},
    {"mov", Op::Movn, 0x12800000, {O::Wd, O::MovnW}, AL, R::MovWideNotW},
    {"mov", Op::OrrImm, 0xb2000000 | rn(31), {O::XdSp, O::MovBitmaskX}, AL, R::MovBitmaskX},
    {"mov", Op::OrrImm, 0x32000000 | rn(31), {O::WdSp, O::MovBitmaskW}, AL, R::MovBitmaskW},
    {"movz", Op::Movz, 0xd2800000, {O::Xd, O::WideX}},
    {"movz", Op::Movz, 0x52800000, {O::Wd, O::WideW}},
    {"movn", Op::Movn, 0x92800000, {O::Xd, O::WideX}},
    {"movn", Op::Movn, 0x12800000, {O::Wd, O::WideW}},
    {"movk", Op::Movk, 0xf2800000, {O::Xd, O::WideX}},
    {"movk", Op::Movk, 0x72800000, {O::Wd, O::WideW}},

    // --- add and subtract, immediate
    {"cmp", Op::SubsImm, 0xf1000000 | rd(31), {O::XnSp, O::AddImm}, AL},
    {"cmp", Op::SubsImm, 0x71000000 | rd(31), {O::WnSp, O::AddImm}, AL},
    {"cmn", Op::AddsImm, 0xb1000000 | rd(31), {O::XnSp, O::AddImm}, AL},
    {"cmn", Op::AddsImm, 0x31000000 | rd(31), {O::WnSp, O::AddImm}, AL},
    {"add", Op::AddImm, 0x91000000, {O::XdSp, O::XnSp, O::AddImm}},
    {"add", Op::AddImm, 0x11000000, {O::WdSp, O::WnSp, O::AddImm}},
    {"adds", Op::AddsImm, 0xb1000000, {O::Xd, O::XnSp, O::AddImm}},
    {"adds", Op::AddsImm, 0x31000000, {O::Wd, O::WnSp, O::AddImm}},
    {"sub", Op::SubImm, 0xd1000000, {O::XdSp, O::XnSp, O::AddImm}},
    {"sub", Op::SubImm, 0x51000000, {O::WdSp, O::WnSp, O::AddImm}},
    {"subs", Op::SubsImm, 0xf1000000, {O::Xd, O::XnSp, O::AddImm}},
    {"subs", Op::SubsImm, 0x71000000, {O::Wd, O::WnSp, O::AddImm}},

    // --- add and subtract, shifted register (cmp before neg: cmp xzr, x1)
    {"cmp", Op::Subs, 0xeb000000 | rd(31), {O::Xn, O::ShiftedX}, AL, R::NoRor},
    {"cmp", Op::Subs, 0x6b000000 | rd(31), {O::Wn, O::ShiftedW}, AL, R::NoRor},
    {"cmn", Op::Adds, 0xab000000 | rd(31), {O::Xn, O::ShiftedX}, AL, R::NoRor},
    {"cmn", Op::Adds, 0x2b000000 | rd(31), {O::Wn, O::ShiftedW}, AL, R::NoRor},
    {"neg", Op::Sub, 0xcb000000 | rn(31), {O::Xd, O::ShiftedX}, AL, R::NoRor},
    {"neg", Op::Sub, 0x4b000000 | rn(31), {O::Wd, O::ShiftedW}, AL, R::NoRor},
    {"negs", Op::Subs, 0xeb000000 | rn(31), {O::Xd, O::ShiftedX}, AL, R::NoRor},
    {"negs", Op::Subs, 0x6b000000 | rn(31), {O::Wd, O::ShiftedW}, AL, R::NoRor},
    {"add", Op::Add, 0x8b000000, {O::Xd, O::Xn, O::ShiftedX}, 0, R::NoRor},
    {"add", Op::Add, 0x0b000000, {O::Wd, O::Wn, O::ShiftedW}, 0, R::NoRor},
    {"adds", Op::Adds, 0xab000000, {O::Xd, O::Xn, O::ShiftedX}, 0, R::NoRor},
    {"adds", Op::Adds, 0x2b000000, {O::Wd, O::Wn, O::ShiftedW}, 0, R::NoRor},
    {"sub", Op::Sub, 0xcb000000, {O::Xd, O::Xn, O::ShiftedX}, 0, R::NoRor},
    {"sub", Op::Sub, 0x4b000000, {O::Wd, O::Wn, O::ShiftedW}, 0, R::NoRor},
    {"subs", Op::Subs, 0xeb000000, {O::Xd, O::Xn, O::ShiftedX}, 0, R::NoRor},
    {"subs", Op::Subs, 0x6b000000, {O::Wd, O::Wn, O::ShiftedW}, 0, R::NoRor},

    // --- add and subtract, extended register (sp as Rd or Rn)
    {"cmp", Op::SubsExt, 0xeb200000 | rd(31), {O::XnSp, O::ExtendedX}, AL, R::ExtendAmount},
    {"cmp", Op::SubsExt, 0x6b200000 | rd(31), {O::WnSp, O::ExtendedW}, AL, R::ExtendAmount},
    {"cmn", Op::AddsExt, 0xab200000 | rd(31), {O::XnSp, O::ExtendedX}, AL, R::ExtendAmount},
    {"cmn", Op::AddsExt, 0x2b200000 | rd(31), {O::WnSp, O::ExtendedW}, AL, R::ExtendAmount},
    {"add", Op::AddExt, 0x8b200000, {O::XdSp, O::XnSp, O::ExtendedX}, 0, R::ExtendAmount},
    {"add", Op::AddExt, 0x0b200000, {O::WdSp, O::WnSp, O::ExtendedW}, 0, R::ExtendAmount},
    {"adds", Op::AddsExt, 0xab200000, {O::Xd, O::XnSp, O::ExtendedX}, 0, R::ExtendAmount},
    {"adds", Op::AddsExt, 0x2b200000, {O::Wd, O::WnSp, O::ExtendedW}, 0, R::ExtendAmount},
    {"sub", Op::SubExt, 0xcb200000, {O::XdSp, O::XnSp, O::ExtendedX}, 0, R::ExtendAmount},
    {"sub", Op::SubExt, 0x4b200000, {O::WdSp, O::WnSp, O::ExtendedW}, 0, R::ExtendAmount},
    {"subs", Op::SubsExt, 0xeb200000, {O::Xd, O::XnSp, O::ExtendedX}, 0, R::ExtendAmount},
    {"subs", Op::SubsExt, 0x6b200000, {O::Wd, O::WnSp, O::ExtendedW}, 0, R::ExtendAmount},

    // --- logical, immediate (bitmask)
    {"tst", Op::AndsImm, 0xf2000000 | rd(31), {O::Xn, O::BitmaskX}, AL, R::Bitmask},
    {"tst", Op::AndsImm, 0x72000000 | rd(31), {O::Wn, O::BitmaskW}, AL, R::Bitmask},
    {"and", Op::AndImm, 0x92000000, {O::XdSp, O::Xn, O::BitmaskX}, 0, R::Bitmask},
    {"and", Op::AndImm, 0x12000000, {O::WdSp, O::Wn, O::BitmaskW}, 0, R::Bitmask},
    {"orr", Op::OrrImm, 0xb2000000, {O::XdSp, O::Xn, O::BitmaskX}, 0, R::Bitmask},
    {"orr", Op::OrrImm, 0x32000000, {O::WdSp, O::Wn, O::BitmaskW}, 0, R::Bitmask},
    {"eor", Op::EorImm, 0xd2000000, {O::XdSp, O::Xn, O::BitmaskX}, 0, R::Bitmask},
    {"eor", Op::EorImm, 0x52000000, {O::WdSp, O::Wn, O::BitmaskW}, 0, R::Bitmask},
    {"ands", Op::AndsImm, 0xf2000000, {O::Xd, O::Xn, O::BitmaskX}, 0, R::Bitmask},
    {"ands", Op::AndsImm, 0x72000000, {O::Wd, O::Wn, O::BitmaskW}, 0, R::Bitmask},
    // GNU as takes bic with an immediate as and with its inverse
    {"bic", Op::AndImm, 0x92000000, {O::XdSp, O::Xn, O::InvBitmaskX}, A, R::Bitmask},
    {"bic", Op::AndImm, 0x12000000, {O::WdSp, O::Wn, O::InvBitmaskW}, A, R::Bitmask},

    // --- logical, shifted register
    {"tst", Op::Ands, 0xea000000 | rd(31), {O::Xn, O::LogShiftedX}, AL},
    {"tst", Op::Ands, 0x6a000000 | rd(31), {O::Wn, O::LogShiftedW}, AL},
    {"mvn", Op::Orn, 0xaa200000 | rn(31), {O::Xd, O::LogShiftedX}, AL},
    {"mvn", Op::Orn, 0x2a200000 | rn(31), {O::Wd, O::LogShiftedW}, AL},
    {"and", Op::And, 0x8a000000, {O::Xd, O::Xn, O::LogShiftedX}},
    {"and", Op::And, 0x0a000000, {O::Wd, O::Wn, O::LogShiftedW}},
    {"bic", Op::Bic, 0x8a200000, {O::Xd, O::Xn, O::LogShiftedX}},
    {"bic", Op::Bic, 0x0a200000, {O::Wd, O::Wn, O::LogShiftedW}},
    {"orr", Op::Orr, 0xaa000000, {O::Xd, O::Xn, O::LogShiftedX}},
    {"orr", Op::Orr, 0x2a000000, {O::Wd, O::Wn, O::LogShiftedW}},
    {"orn", Op::Orn, 0xaa200000, {O::Xd, O::Xn, O::LogShiftedX}},
    {"orn", Op::Orn, 0x2a200000, {O::Wd, O::Wn, O::LogShiftedW}},
    {"eor", Op::Eor, 0xca000000, {O::Xd, O::Xn, O::LogShiftedX}},
    {"eor", Op::Eor, 0x4a000000, {O::Wd, O::Wn, O::LogShiftedW}},
    {"eon", Op::Eon, 0xca200000, {O::Xd, O::Xn, O::LogShiftedX}},
    {"eon", Op::Eon, 0x4a200000, {O::Wd, O::Wn, O::LogShiftedW}},
    {"ands", Op::Ands, 0xea000000, {O::Xd, O::Xn, O::LogShiftedX}},
    {"ands", Op::Ands, 0x6a000000, {O::Wd, O::Wn, O::LogShiftedW}},
    {"bics", Op::Bics, 0xea200000, {O::Xd, O::Xn, O::LogShiftedX}},
    {"bics", Op::Bics, 0x6a200000, {O::Wd, O::Wn, O::LogShiftedW}},

    // --- conditional select. Aliases first (Arm ARM C6 preferred
    // disassembly): cset/csetm when both sources are the zero register,
    // before cinc/cinv, which otherwise take any Rn = Rm; none of them for
    // al or nv, whose inverse means the same condition.
    {"cset", Op::Csinc, 0x9a9f07e0, {O::Xd, O::InvCond}, AL, R::CondNotAlNv},
    {"cset", Op::Csinc, 0x1a9f07e0, {O::Wd, O::InvCond}, AL, R::CondNotAlNv},
    {"csetm", Op::Csinv, 0xda9f03e0, {O::Xd, O::InvCond}, AL, R::CondNotAlNv},
    {"csetm", Op::Csinv, 0x5a9f03e0, {O::Wd, O::InvCond}, AL, R::CondNotAlNv},
    {"cinc", Op::Csinc, 0x9a800400, {O::Xd, O::XnRm, O::InvCond}, AL, R::SameRnRm},
    {"cinc", Op::Csinc, 0x1a800400, {O::Wd, O::WnRm, O::InvCond}, AL, R::SameRnRm},
    {"cinv", Op::Csinv, 0xda800000, {O::Xd, O::XnRm, O::InvCond}, AL, R::SameRnRm},
    {"cinv", Op::Csinv, 0x5a800000, {O::Wd, O::WnRm, O::InvCond}, AL, R::SameRnRm},
    {"cneg", Op::Csneg, 0xda800400, {O::Xd, O::XnRm, O::InvCond}, AL, R::SameRnRm},
    {"cneg", Op::Csneg, 0x5a800400, {O::Wd, O::WnRm, O::InvCond}, AL, R::SameRnRm},
    {"csel", Op::Csel, 0x9a800000, {O::Xd, O::Xn, O::Xm, O::Cond}},
    {"csel", Op::Csel, 0x1a800000, {O::Wd, O::Wn, O::Wm, O::Cond}},
    {"csinc", Op::Csinc, 0x9a800400, {O::Xd, O::Xn, O::Xm, O::Cond}},
    {"csinc", Op::Csinc, 0x1a800400, {O::Wd, O::Wn, O::Wm, O::Cond}},
    {"csinv", Op::Csinv, 0xda800000, {O::Xd, O::Xn, O::Xm, O::Cond}},
    {"csinv", Op::Csinv, 0x5a800000, {O::Wd, O::Wn, O::Wm, O::Cond}},
    {"csneg", Op::Csneg, 0xda800400, {O::Xd, O::Xn, O::Xm, O::Cond}},
    {"csneg", Op::Csneg, 0x5a800400, {O::Wd, O::Wn, O::Wm, O::Cond}},

    // --- pc-relative addresses
    {"adr", Op::Adr, 0x10000000, {O::Xd, O::AdrLabel}},
    {"adrp", Op::Adrp, 0x90000000, {O::Xd, O::AdrpLabel}},

    // --- loads and stores, unsigned scaled offset; then the unscaled form
    // GNU as falls back to for ldr/str when the offset is negative or not a
    // multiple of the size (objdump prints it as ldur/stur)
    {"ldr", Op::Ldr, 0xf9400000, {O::Xt, O::MemU12X}, LD},
    {"ldr", Op::Ldr, 0xb9400000, {O::Wt, O::MemU12W}, LD},
    {"ldrb", Op::Ldrb, 0x39400000, {O::Wt, O::MemU12B}, LD},
    {"ldrh", Op::Ldrh, 0x79400000, {O::Wt, O::MemU12H}, LD},
    {"ldrsw", Op::Ldrsw, 0xb9800000, {O::Xt, O::MemU12W}, LD},
    {"str", Op::Str, 0xf9000000, {O::Xt, O::MemU12X}, ST},
    {"str", Op::Str, 0xb9000000, {O::Wt, O::MemU12W}, ST},
    {"strb", Op::Strb, 0x39000000, {O::Wt, O::MemU12B}, ST},
    {"strh", Op::Strh, 0x79000000, {O::Wt, O::MemU12H}, ST},
    {"ldr", Op::Ldr, 0xf8400000, {O::Xt, O::MemS9}, LD | A},
    {"ldr", Op::Ldr, 0xb8400000, {O::Wt, O::MemS9}, LD | A},
    {"ldrb", Op::Ldrb, 0x38400000, {O::Wt, O::MemS9}, LD | A},
    {"ldrh", Op::Ldrh, 0x78400000, {O::Wt, O::MemS9}, LD | A},
    {"ldrsw", Op::Ldrsw, 0xb8800000, {O::Xt, O::MemS9}, LD | A},
    {"str", Op::Str, 0xf8000000, {O::Xt, O::MemS9}, ST | A},
    {"str", Op::Str, 0xb8000000, {O::Wt, O::MemS9}, ST | A},
    {"strb", Op::Strb, 0x38000000, {O::Wt, O::MemS9}, ST | A},
    {"strh", Op::Strh, 0x78000000, {O::Wt, O::MemS9}, ST | A},
    {"ldur", Op::Ldr, 0xf8400000, {O::Xt, O::MemS9}, LD},
    {"ldur", Op::Ldr, 0xb8400000, {O::Wt, O::MemS9}, LD},
    {"ldurb", Op::Ldrb, 0x38400000, {O::Wt, O::MemS9}, LD},
    {"ldurh", Op::Ldrh, 0x78400000, {O::Wt, O::MemS9}, LD},
    {"ldursw", Op::Ldrsw, 0xb8800000, {O::Xt, O::MemS9}, LD},
    {"stur", Op::Str, 0xf8000000, {O::Xt, O::MemS9}, ST},
    {"stur", Op::Str, 0xb8000000, {O::Wt, O::MemS9}, ST},
    {"sturb", Op::Strb, 0x38000000, {O::Wt, O::MemS9}, ST},
    {"sturh", Op::Strh, 0x78000000, {O::Wt, O::MemS9}, ST},

    // --- pre-index and post-index
    {"ldr", Op::Ldr, 0xf8400c00, {O::Xt, O::MemPre9}, LD},
    {"ldr", Op::Ldr, 0xb8400c00, {O::Wt, O::MemPre9}, LD},
    {"ldrb", Op::Ldrb, 0x38400c00, {O::Wt, O::MemPre9}, LD},
    {"ldrh", Op::Ldrh, 0x78400c00, {O::Wt, O::MemPre9}, LD},
    {"ldrsw", Op::Ldrsw, 0xb8800c00, {O::Xt, O::MemPre9}, LD},
    {"str", Op::Str, 0xf8000c00, {O::Xt, O::MemPre9}, ST},
    {"str", Op::Str, 0xb8000c00, {O::Wt, O::MemPre9}, ST},
    {"strb", Op::Strb, 0x38000c00, {O::Wt, O::MemPre9}, ST},
    {"strh", Op::Strh, 0x78000c00, {O::Wt, O::MemPre9}, ST},
    {"ldr", Op::Ldr, 0xf8400400, {O::Xt, O::MemBase, O::Post9}, LD},
    {"ldr", Op::Ldr, 0xb8400400, {O::Wt, O::MemBase, O::Post9}, LD},
    {"ldrb", Op::Ldrb, 0x38400400, {O::Wt, O::MemBase, O::Post9}, LD},
    {"ldrh", Op::Ldrh, 0x78400400, {O::Wt, O::MemBase, O::Post9}, LD},
    {"ldrsw", Op::Ldrsw, 0xb8800400, {O::Xt, O::MemBase, O::Post9}, LD},
    {"str", Op::Str, 0xf8000400, {O::Xt, O::MemBase, O::Post9}, ST},
    {"str", Op::Str, 0xb8000400, {O::Wt, O::MemBase, O::Post9}, ST},
    {"strb", Op::Strb, 0x38000400, {O::Wt, O::MemBase, O::Post9}, ST},
    {"strh", Op::Strh, 0x78000400, {O::Wt, O::MemBase, O::Post9}, ST},

    // --- register offset
    {"ldr", Op::Ldr, 0xf8600800, {O::Xt, O::MemRegX}, LD, R::MemRegOption},
    {"ldr", Op::Ldr, 0xb8600800, {O::Wt, O::MemRegW}, LD, R::MemRegOption},
    {"ldrb", Op::Ldrb, 0x38600800, {O::Wt, O::MemRegB}, LD, R::MemRegOption},
    {"ldrh", Op::Ldrh, 0x78600800, {O::Wt, O::MemRegH}, LD, R::MemRegOption},
    {"ldrsw", Op::Ldrsw, 0xb8a00800, {O::Xt, O::MemRegW}, LD, R::MemRegOption},
    {"str", Op::Str, 0xf8200800, {O::Xt, O::MemRegX}, ST, R::MemRegOption},
    {"str", Op::Str, 0xb8200800, {O::Wt, O::MemRegW}, ST, R::MemRegOption},
    {"strb", Op::Strb, 0x38200800, {O::Wt, O::MemRegB}, ST, R::MemRegOption},
    {"strh", Op::Strh, 0x78200800, {O::Wt, O::MemRegH}, ST, R::MemRegOption},

    // --- literal (pc-relative)
    {"ldr", Op::Ldr, 0x58000000, {O::Xt, O::Label19}, LD},
    {"ldr", Op::Ldr, 0x18000000, {O::Wt, O::Label19}, LD},
    {"ldrsw", Op::Ldrsw, 0x98000000, {O::Xt, O::Label19}, LD},

    // --- pairs: signed offset, pre-index, post-index
    {"ldp", Op::Ldp, 0xa9400000, {O::Xt, O::Xt2, O::MemP7X}, LD},
    {"ldp", Op::Ldp, 0x29400000, {O::Wt, O::Wt2, O::MemP7W}, LD},
    {"stp", Op::Stp, 0xa9000000, {O::Xt, O::Xt2, O::MemP7X}, ST},
    {"stp", Op::Stp, 0x29000000, {O::Wt, O::Wt2, O::MemP7W}, ST},
    {"ldp", Op::Ldp, 0xa9c00000, {O::Xt, O::Xt2, O::MemP7PreX}, LD},
    {"ldp", Op::Ldp, 0x29c00000, {O::Wt, O::Wt2, O::MemP7PreW}, LD},
    {"stp", Op::Stp, 0xa9800000, {O::Xt, O::Xt2, O::MemP7PreX}, ST},
    {"stp", Op::Stp, 0x29800000, {O::Wt, O::Wt2, O::MemP7PreW}, ST},
    {"ldp", Op::Ldp, 0xa8c00000, {O::Xt, O::Xt2, O::MemBase, O::Post7X}, LD},
    {"ldp", Op::Ldp, 0x28c00000, {O::Wt, O::Wt2, O::MemBase, O::Post7W}, LD},
    {"stp", Op::Stp, 0xa8800000, {O::Xt, O::Xt2, O::MemBase, O::Post7X}, ST},
    {"stp", Op::Stp, 0x28800000, {O::Wt, O::Wt2, O::MemBase, O::Post7W}, ST},

    // --- cache maintenance (SYS aliases) and system registers
    {"dc", Op::DcCvau, 0xd50b7b20, {O::Keyword, O::Xt}, 0, R::None, "cvau"},
    {"dc", Op::DcCivac, 0xd50b7e20, {O::Keyword, O::Xt}, 0, R::None, "civac"},
    {"dc", Op::DcCvac, 0xd50b7a20, {O::Keyword, O::Xt}, 0, R::None, "cvac"},
    {"dc", Op::DcIvac, 0xd5087620, {O::Keyword, O::Xt}, PR, R::None, "ivac"},
    {"dc", Op::DcZva, 0xd50b7420, {O::Keyword, O::Xt}, 0, R::None, "zva"},
    {"ic", Op::IcIvau, 0xd50b7520, {O::Keyword, O::Xt}, 0, R::None, "ivau"},
    {"ic", Op::IcIallu, 0xd508751f, {O::Keyword}, PR, R::None, "iallu"},
    {"ic", Op::IcIalluis, 0xd508711f, {O::Keyword}, PR, R::None, "ialluis"},
    {"mrs", Op::Mrs, 0xd5300000, {O::Xt, O::SysReg}, 0, R::SysRegRead},
    {"msr", Op::MsrDaifSet, 0xd50340df, {O::Keyword, O::Imm4}, PR, R::None, "daifset"},
    {"msr", Op::MsrDaifClr, 0xd50340ff, {O::Keyword, O::Imm4}, PR, R::None, "daifclr"},
    {"msr", Op::Msr, 0xd5100000, {O::SysReg, O::Xt}, PR, R::SysRegWrite},
};

}  // namespace

std::span<const InstrDesc> instructionTable() { return kTable; }

bool satisfiesRule(FieldRule r, uint32_t w) {
  switch (r) {
    case FieldRule::None: return true;
    case FieldRule::NoRor: return ((w >> 22) & 3) != 3;
    case FieldRule::ExtendAmount: return ((w >> 10) & 7) <= 4;
    case FieldRule::MemRegOption: return (w >> 14) & 1;
    case FieldRule::Bitmask: return decodeBitmask((w >> 10) & 0x1fff, (w >> 31) ? 64 : 32).has_value();
    case FieldRule::MovBitmaskX: case FieldRule::MovBitmaskW: {
      unsigned width = r == FieldRule::MovBitmaskX ? 64 : 32;
      auto v = decodeBitmask((w >> 10) & 0x1fff, width);
      return v && (rdOf(w) == 31 || !(isWideConstant(*v, width) || isWideConstant(~*v, width)));
    }
    case FieldRule::MovWide: return !(((w >> 5) & 0xffff) == 0 && ((w >> 21) & 3) != 0);
    case FieldRule::MovWideNotW:
      return !(((w >> 5) & 0xffff) == 0 && ((w >> 21) & 3) != 0) && ((w >> 5) & 0xffff) != 0xffff;
    case FieldRule::MovSp: return rdOf(w) == 31 || rnOf(w) == 31;
    case FieldRule::SysRegRead: {
      const SystemRegister* s = systemRegister((w >> 5) & 0x7fff);
      return s && s->readable;
    }
    case FieldRule::SysRegWrite: {
      const SystemRegister* s = systemRegister((w >> 5) & 0x7fff);
      return s && s->writable;
    }
    case FieldRule::CondNotAlNv: return ((w >> 13) & 7) != 7;
    case FieldRule::SameRnRm: return rnOf(w) == rmOf(w) && ((w >> 13) & 7) != 7;
  }
  return false;
}

}  // namespace patchcheck::arm64
