#include "encoder/mips/InstructionTable.h"

namespace patchcheck::mips {
namespace {

using O = Opnd;
constexpr uint32_t opc(uint32_t o) { return o << 26; }
constexpr uint32_t sp(uint32_t funct) { return funct; }           // SPECIAL
constexpr uint32_t sp2(uint32_t funct) { return opc(0x1c) | funct; }
constexpr uint32_t sp3(uint32_t funct) { return opc(0x1f) | funct; }
constexpr uint32_t regimm(uint32_t rt) { return opc(1) | (rt << 16); }
constexpr uint32_t cop0(uint32_t rs) { return opc(0x10) | (rs << 21); }
constexpr uint32_t cop1(uint32_t rs) { return opc(0x11) | (rs << 21); }
constexpr uint32_t sa(uint32_t v) { return v << 6; }
constexpr uint32_t rs(uint32_t v) { return v << 21; }
constexpr uint32_t rt(uint32_t v) { return v << 16; }
constexpr uint32_t pcrel(uint32_t v, unsigned shift) { return opc(0x3b) | (v << shift); }

constexpr uint16_t D = kDelaySlot, L = kLink, LK = kLikely, P = kPrivileged,
                   A = kAsmOnly, C = kCompact, FS = kCompact | kForbiddenSlot,
                   AL = kAlias;
using R = FieldRule;

// Order matters for decoding: the first row that matches a word wins, so
// aliases (nop, move, b, ...) come before the instruction they spell.
// Every alias a decoder picks must reassemble to the same word.
constexpr InstrDesc kTable[] = {
    // --- aliases chosen by the decoder (AL: objdump -M no-aliases prints the
    // canonical row; pause and negu are instructions of their own to GNU)
    {"nop", Op::Sll, 0x00000000, kAll, {}, AL},
    {"ssnop", Op::Sll, 0x00000040, kAll, {}, AL},
    {"ehb", Op::Sll, 0x000000c0, kAll, {}, AL},
    {"pause", Op::Sll, 0x00000140, kAll, {}},
    {"move", Op::Or, sp(0x25), kAll, {O::Rd, O::Rs}, AL},
    {"negu", Op::Subu, sp(0x23), kAll, {O::Rd, O::Rt}},
    {"dnegu", Op::Dsubu, sp(0x2f), k64, {O::Rd, O::Rt}},
    {"neg", Op::Sub, sp(0x22), kAll, {O::Rd, O::Rt}},
    {"dneg", Op::Dsub, sp(0x2e), k64, {O::Rd, O::Rt}},
    {"b", Op::Beq, opc(0x04), kAll, {O::Br16}, D | AL},
    // bal and nal are bgezal/bltzal $0; R6 keeps only these two spellings.
    {"bal", Op::Bgezal, regimm(0x11), kAll, {O::Br16}, D | L | AL},
    {"nal", Op::Bltzal, regimm(0x10), kAll, {}, D | L | AL},
    {"beqz", Op::Beq, opc(0x04), kAll, {O::Rs, O::Br16}, D | AL},
    {"bnez", Op::Bne, opc(0x05), kAll, {O::Rs, O::Br16}, D | AL},
    {"beqzl", Op::Beql, opc(0x14), kPreR6, {O::Rs, O::Br16}, D | LK | AL},
    {"bnezl", Op::Bnel, opc(0x15), kPreR6, {O::Rs, O::Br16}, D | LK | AL},
    {"jr", Op::Jalr, sp(0x09), kR6, {O::Rs}, D | AL},
    {"jr.hb", Op::JalrHb, sp(0x09) | 0x400, kR6, {O::Rs}, D | AL},
    // --- assembler-only spellings
    {"li", Op::Addiu, opc(0x09), kAll, {O::Rt, O::LiSimm}, A},
    {"li", Op::Ori, opc(0x0d), kAll, {O::Rt, O::LiUimm}, A},
    {"li", Op::Lui, opc(0x0f), kAll, {O::Rt, O::LiHi}, A},
    {"not", Op::Nor, sp(0x27), kAll, {O::Rd, O::Rs}, A},
    // R6: lui is aui with rs = $0 (GNU as assembles `aui rt, $0, imm` so).
    {"aui", Op::Lui, opc(0x0f), kR6, {O::Rt, O::Zero, O::Uimm16}, A},
    {"dsll", Op::Dsll32, sp(0x3c), k64, {O::Rd, O::Rt, O::SaHi}, A},
    {"dsrl", Op::Dsrl32, sp(0x3e), k64, {O::Rd, O::Rt, O::SaHi}, A},
    {"dsra", Op::Dsra32, sp(0x3f), k64, {O::Rd, O::Rt, O::SaHi}, A},
    {"drotr", Op::Drotr32, sp(0x3e) | rs(1), k64, {O::Rd, O::Rt, O::SaHi}, A},
    // GNU's names for the sync types of the Linux barriers.
    {"sync_wmb", Op::Sync, sp(0x0f) | sa(0x04), kAll, {}, A},
    {"sync_mb", Op::Sync, sp(0x0f) | sa(0x10), kAll, {}, A},
    {"sync_acquire", Op::Sync, sp(0x0f) | sa(0x11), kAll, {}, A},
    {"sync_release", Op::Sync, sp(0x0f) | sa(0x12), kAll, {}, A},
    {"sync_rmb", Op::Sync, sp(0x0f) | sa(0x13), kAll, {}, A},

    // --- ALU, register forms
    {"add", Op::Add, sp(0x20), kAll, {O::Rd, O::Rs, O::Rt}},
    {"addu", Op::Addu, sp(0x21), kAll, {O::Rd, O::Rs, O::Rt}},
    {"sub", Op::Sub, sp(0x22), kAll, {O::Rd, O::Rs, O::Rt}},
    {"subu", Op::Subu, sp(0x23), kAll, {O::Rd, O::Rs, O::Rt}},
    {"dadd", Op::Dadd, sp(0x2c), k64, {O::Rd, O::Rs, O::Rt}},
    {"daddu", Op::Daddu, sp(0x2d), k64, {O::Rd, O::Rs, O::Rt}},
    {"dsub", Op::Dsub, sp(0x2e), k64, {O::Rd, O::Rs, O::Rt}},
    {"dsubu", Op::Dsubu, sp(0x2f), k64, {O::Rd, O::Rs, O::Rt}},
    {"and", Op::And, sp(0x24), kAll, {O::Rd, O::Rs, O::Rt}},
    {"or", Op::Or, sp(0x25), kAll, {O::Rd, O::Rs, O::Rt}},
    {"xor", Op::Xor, sp(0x26), kAll, {O::Rd, O::Rs, O::Rt}},
    {"nor", Op::Nor, sp(0x27), kAll, {O::Rd, O::Rs, O::Rt}},
    {"slt", Op::Slt, sp(0x2a), kAll, {O::Rd, O::Rs, O::Rt}},
    {"sltu", Op::Sltu, sp(0x2b), kAll, {O::Rd, O::Rs, O::Rt}},
    {"seleqz", Op::Seleqz, sp(0x35), kR6, {O::Rd, O::Rs, O::Rt}},
    {"selnez", Op::Selnez, sp(0x37), kR6, {O::Rd, O::Rs, O::Rt}},
    {"movz", Op::Movz, sp(0x0a), kPreR6, {O::Rd, O::Rs, O::Rt}},
    {"movn", Op::Movn, sp(0x0b), kPreR6, {O::Rd, O::Rs, O::Rt}},

    // --- ALU, immediate forms
    {"addi", Op::Addi, opc(0x08), kPreR6, {O::Rt, O::Rs, O::Simm16}},
    {"addiu", Op::Addiu, opc(0x09), kAll, {O::Rt, O::Rs, O::Simm16}},
    {"daddi", Op::Daddi, opc(0x18), kPreR6_64, {O::Rt, O::Rs, O::Simm16}},
    {"daddiu", Op::Daddiu, opc(0x19), k64, {O::Rt, O::Rs, O::Simm16}},
    {"slti", Op::Slti, opc(0x0a), kAll, {O::Rt, O::Rs, O::Simm16}},
    {"sltiu", Op::Sltiu, opc(0x0b), kAll, {O::Rt, O::Rs, O::Simm16}},
    {"andi", Op::Andi, opc(0x0c), kAll, {O::Rt, O::Rs, O::Uimm16}},
    {"ori", Op::Ori, opc(0x0d), kAll, {O::Rt, O::Rs, O::Uimm16}},
    {"xori", Op::Xori, opc(0x0e), kAll, {O::Rt, O::Rs, O::Uimm16}},
    {"lui", Op::Lui, opc(0x0f), kAll, {O::Rt, O::Uimm16}},
    {"aui", Op::Aui, opc(0x0f), kR6, {O::Rt, O::Rs, O::Uimm16}, 0, R::RsNonZero},
    {"daui", Op::Daui, opc(0x1d), kR6_64, {O::Rt, O::Rs, O::Uimm16}, 0, R::RsNonZero},
    {"dahi", Op::Dahi, regimm(0x06), kR6_64, {O::Rs, O::RsAgain, O::Uimm16}},
    {"dati", Op::Dati, regimm(0x1e), kR6_64, {O::Rs, O::RsAgain, O::Uimm16}},

    // --- shifts
    {"sll", Op::Sll, sp(0x00), kAll, {O::Rd, O::Rt, O::Sa}},
    {"srl", Op::Srl, sp(0x02), kAll, {O::Rd, O::Rt, O::Sa}},
    {"rotr", Op::Rotr, sp(0x02) | rs(1), kAll, {O::Rd, O::Rt, O::Sa}},
    {"sra", Op::Sra, sp(0x03), kAll, {O::Rd, O::Rt, O::Sa}},
    {"sllv", Op::Sllv, sp(0x04), kAll, {O::Rd, O::Rt, O::Rs}},
    {"srlv", Op::Srlv, sp(0x06), kAll, {O::Rd, O::Rt, O::Rs}},
    {"rotrv", Op::Rotrv, sp(0x06) | sa(1), kAll, {O::Rd, O::Rt, O::Rs}},
    {"srav", Op::Srav, sp(0x07), kAll, {O::Rd, O::Rt, O::Rs}},
    {"dsll", Op::Dsll, sp(0x38), k64, {O::Rd, O::Rt, O::Sa}},
    {"dsrl", Op::Dsrl, sp(0x3a), k64, {O::Rd, O::Rt, O::Sa}},
    {"drotr", Op::Drotr, sp(0x3a) | rs(1), k64, {O::Rd, O::Rt, O::Sa}},
    {"dsra", Op::Dsra, sp(0x3b), k64, {O::Rd, O::Rt, O::Sa}},
    {"dsll32", Op::Dsll32, sp(0x3c), k64, {O::Rd, O::Rt, O::Sa}},
    {"dsrl32", Op::Dsrl32, sp(0x3e), k64, {O::Rd, O::Rt, O::Sa}},
    {"drotr32", Op::Drotr32, sp(0x3e) | rs(1), k64, {O::Rd, O::Rt, O::Sa}},
    {"dsra32", Op::Dsra32, sp(0x3f), k64, {O::Rd, O::Rt, O::Sa}},
    {"dsllv", Op::Dsllv, sp(0x14), k64, {O::Rd, O::Rt, O::Rs}},
    {"dsrlv", Op::Dsrlv, sp(0x16), k64, {O::Rd, O::Rt, O::Rs}},
    {"drotrv", Op::Drotrv, sp(0x16) | sa(1), k64, {O::Rd, O::Rt, O::Rs}},
    {"dsrav", Op::Dsrav, sp(0x17), k64, {O::Rd, O::Rt, O::Rs}},

    // --- multiply and divide before R6 (HI/LO)
    {"mult", Op::Mult, sp(0x18), kPreR6, {O::Rs, O::Rt}},
    {"multu", Op::Multu, sp(0x19), kPreR6, {O::Rs, O::Rt}},
    {"div", Op::Div, sp(0x1a), kPreR6, {O::Zero, O::Rs, O::Rt}},
    {"divu", Op::Divu, sp(0x1b), kPreR6, {O::Zero, O::Rs, O::Rt}},
    {"dmult", Op::Dmult, sp(0x1c), kPreR6_64, {O::Rs, O::Rt}},
    {"dmultu", Op::Dmultu, sp(0x1d), kPreR6_64, {O::Rs, O::Rt}},
    {"ddiv", Op::Ddiv, sp(0x1e), kPreR6_64, {O::Zero, O::Rs, O::Rt}},
    {"ddivu", Op::Ddivu, sp(0x1f), kPreR6_64, {O::Zero, O::Rs, O::Rt}},
    {"mfhi", Op::Mfhi, sp(0x10), kPreR6, {O::Rd}},
    {"mthi", Op::Mthi, sp(0x11), kPreR6, {O::Rs}},
    {"mflo", Op::Mflo, sp(0x12), kPreR6, {O::Rd}},
    {"mtlo", Op::Mtlo, sp(0x13), kPreR6, {O::Rs}},
    {"mul", Op::Mul2, sp2(0x02), kPreR6, {O::Rd, O::Rs, O::Rt}},
    {"madd", Op::Madd, sp2(0x00), kPreR6, {O::Rs, O::Rt}},
    {"maddu", Op::Maddu, sp2(0x01), kPreR6, {O::Rs, O::Rt}},
    {"msub", Op::Msub, sp2(0x04), kPreR6, {O::Rs, O::Rt}},
    {"msubu", Op::Msubu, sp2(0x05), kPreR6, {O::Rs, O::Rt}},

    // --- multiply and divide in R6 (GPR results)
    {"mul", Op::Mul, sp(0x18) | sa(2), kR6, {O::Rd, O::Rs, O::Rt}},
    {"muh", Op::Muh, sp(0x18) | sa(3), kR6, {O::Rd, O::Rs, O::Rt}},
    {"mulu", Op::Mulu, sp(0x19) | sa(2), kR6, {O::Rd, O::Rs, O::Rt}},
    {"muhu", Op::Muhu, sp(0x19) | sa(3), kR6, {O::Rd, O::Rs, O::Rt}},
    {"div", Op::Div6, sp(0x1a) | sa(2), kR6, {O::Rd, O::Rs, O::Rt}},
    {"mod", Op::Mod, sp(0x1a) | sa(3), kR6, {O::Rd, O::Rs, O::Rt}},
    {"divu", Op::Divu6, sp(0x1b) | sa(2), kR6, {O::Rd, O::Rs, O::Rt}},
    {"modu", Op::Modu, sp(0x1b) | sa(3), kR6, {O::Rd, O::Rs, O::Rt}},
    {"dmul", Op::Dmul, sp(0x1c) | sa(2), kR6_64, {O::Rd, O::Rs, O::Rt}},
    {"dmuh", Op::Dmuh, sp(0x1c) | sa(3), kR6_64, {O::Rd, O::Rs, O::Rt}},
    {"dmulu", Op::Dmulu, sp(0x1d) | sa(2), kR6_64, {O::Rd, O::Rs, O::Rt}},
    {"dmuhu", Op::Dmuhu, sp(0x1d) | sa(3), kR6_64, {O::Rd, O::Rs, O::Rt}},
    {"ddiv", Op::Ddiv6, sp(0x1e) | sa(2), kR6_64, {O::Rd, O::Rs, O::Rt}},
    {"dmod", Op::Dmod, sp(0x1e) | sa(3), kR6_64, {O::Rd, O::Rs, O::Rt}},
    {"ddivu", Op::Ddivu6, sp(0x1f) | sa(2), kR6_64, {O::Rd, O::Rs, O::Rt}},
    {"dmodu", Op::Dmodu, sp(0x1f) | sa(3), kR6_64, {O::Rd, O::Rs, O::Rt}},

    // --- bit fields (objdump prints dextm/dextu as dext, dinsm/dinsu as dins)
    {"ext", Op::Ext, sp3(0x00), kAll, {O::Rt, O::Rs, O::Pos, O::SizeExt}},
    {"ins", Op::Ins, sp3(0x04), kAll, {O::Rt, O::Rs, O::Pos, O::SizeIns}},
    {"dext", Op::Dext, sp3(0x03), k64, {O::Rt, O::Rs, O::Pos, O::SizeExt}},
    {"dext", Op::Dextm, sp3(0x01), k64, {O::Rt, O::Rs, O::Pos, O::SizeExtHi}},
    {"dext", Op::Dextu, sp3(0x02), k64, {O::Rt, O::Rs, O::PosHi, O::SizeExt}},
    {"dextm", Op::Dextm, sp3(0x01), k64, {O::Rt, O::Rs, O::Pos, O::SizeExtHi}},
    {"dextu", Op::Dextu, sp3(0x02), k64, {O::Rt, O::Rs, O::PosHi, O::SizeExt}},
    {"dins", Op::Dins, sp3(0x07), k64, {O::Rt, O::Rs, O::Pos, O::SizeIns}},
    {"dins", Op::Dinsm, sp3(0x05), k64, {O::Rt, O::Rs, O::Pos, O::SizeInsHi}},
    {"dins", Op::Dinsu, sp3(0x06), k64, {O::Rt, O::Rs, O::PosHi, O::SizeInsHi}},
    {"dinsm", Op::Dinsm, sp3(0x05), k64, {O::Rt, O::Rs, O::Pos, O::SizeInsHi}},
    {"dinsu", Op::Dinsu, sp3(0x06), k64, {O::Rt, O::Rs, O::PosHi, O::SizeInsHi}},

    // --- byte and bit order, sign extension, alignment (BSHFL, DBSHFL)
    {"bitswap", Op::Bitswap, sp3(0x20) | sa(0x00), kR6, {O::Rd, O::Rt}},
    {"wsbh", Op::Wsbh, sp3(0x20) | sa(0x02), kAll, {O::Rd, O::Rt}},
    {"align", Op::Align, sp3(0x20) | sa(0x08), kR6, {O::Rd, O::Rs, O::Rt, O::Bp2}},
    {"seb", Op::Seb, sp3(0x20) | sa(0x10), kAll, {O::Rd, O::Rt}},
    {"seh", Op::Seh, sp3(0x20) | sa(0x18), kAll, {O::Rd, O::Rt}},
    {"dbitswap", Op::Dbitswap, sp3(0x24) | sa(0x00), kR6_64, {O::Rd, O::Rt}},
    {"dsbh", Op::Dsbh, sp3(0x24) | sa(0x02), k64, {O::Rd, O::Rt}},
    {"dshd", Op::Dshd, sp3(0x24) | sa(0x05), k64, {O::Rd, O::Rt}},
    {"dalign", Op::Dalign, sp3(0x24) | sa(0x08), kR6_64, {O::Rd, O::Rs, O::Rt, O::Bp3}},
    {"lsa", Op::Lsa, sp(0x05), kR6, {O::Rd, O::Rs, O::Rt, O::LsaSa}},
    {"dlsa", Op::Dlsa, sp(0x15), kR6_64, {O::Rd, O::Rs, O::Rt, O::LsaSa}},

    // --- leading zeros and ones: SPECIAL2 with rd = rt before R6, SPECIAL sa = 1 in R6
    {"clz", Op::Clz, sp2(0x20), kPreR6, {O::RdRt, O::Rs}},
    {"clo", Op::Clo, sp2(0x21), kPreR6, {O::RdRt, O::Rs}},
    {"dclz", Op::Dclz, sp2(0x24), kPreR6_64, {O::RdRt, O::Rs}},
    {"dclo", Op::Dclo, sp2(0x25), kPreR6_64, {O::RdRt, O::Rs}},
    {"clz", Op::Clz, sp(0x10) | sa(1), kR6, {O::Rd, O::Rs}},
    {"clo", Op::Clo, sp(0x11) | sa(1), kR6, {O::Rd, O::Rs}},
    {"dclz", Op::Dclz, sp(0x12) | sa(1), kR6_64, {O::Rd, O::Rs}},
    {"dclo", Op::Dclo, sp(0x13) | sa(1), kR6_64, {O::Rd, O::Rs}},

    // --- R6 PC-relative (PCREL): objdump prints addiupc as lapc with the address
    {"lapc", Op::Addiupc, pcrel(0, 19), kR6, {O::Rs, O::Pc19}},
    {"addiupc", Op::Addiupc, pcrel(0, 19), kR6, {O::Rs, O::PcOff19}},
    {"lwpc", Op::Lwpc, pcrel(1, 19), kR6, {O::Rs, O::Pc19}},
    {"lwupc", Op::Lwupc, pcrel(2, 19), kR6_64, {O::Rs, O::Pc19}},
    {"ldpc", Op::Ldpc, pcrel(6, 18), kR6_64, {O::Rs, O::Pc18}},
    {"auipc", Op::Auipc, pcrel(0x1e, 16), kR6, {O::Rs, O::Uimm16}},
    {"aluipc", Op::Aluipc, pcrel(0x1f, 16), kR6, {O::Rs, O::Uimm16}},

    // --- loads and stores
    {"lb", Op::Lb, opc(0x20), kAll, {O::Rt, O::Mem16}},
    {"lh", Op::Lh, opc(0x21), kAll, {O::Rt, O::Mem16}},
    {"lwl", Op::Lwl, opc(0x22), kPreR6, {O::Rt, O::Mem16}},
    {"lw", Op::Lw, opc(0x23), kAll, {O::Rt, O::Mem16}},
    {"lbu", Op::Lbu, opc(0x24), kAll, {O::Rt, O::Mem16}},
    {"lhu", Op::Lhu, opc(0x25), kAll, {O::Rt, O::Mem16}},
    {"lwr", Op::Lwr, opc(0x26), kPreR6, {O::Rt, O::Mem16}},
    {"lwu", Op::Lwu, opc(0x27), k64, {O::Rt, O::Mem16}},
    {"sb", Op::Sb, opc(0x28), kAll, {O::Rt, O::Mem16}},
    {"sh", Op::Sh, opc(0x29), kAll, {O::Rt, O::Mem16}},
    {"swl", Op::Swl, opc(0x2a), kPreR6, {O::Rt, O::Mem16}},
    {"sw", Op::Sw, opc(0x2b), kAll, {O::Rt, O::Mem16}},
    {"sdl", Op::Sdl, opc(0x2c), kPreR6_64, {O::Rt, O::Mem16}},
    {"sdr", Op::Sdr, opc(0x2d), kPreR6_64, {O::Rt, O::Mem16}},
    {"swr", Op::Swr, opc(0x2e), kPreR6, {O::Rt, O::Mem16}},
    {"ldl", Op::Ldl, opc(0x1a), kPreR6_64, {O::Rt, O::Mem16}},
    {"ldr", Op::Ldr, opc(0x1b), kPreR6_64, {O::Rt, O::Mem16}},
    {"ld", Op::Ld, opc(0x37), k64, {O::Rt, O::Mem16}},
    {"sd", Op::Sd, opc(0x3f), k64, {O::Rt, O::Mem16}},
    {"ll", Op::Ll, opc(0x30), kPreR6, {O::Rt, O::Mem16}},
    {"sc", Op::Sc, opc(0x38), kPreR6, {O::Rt, O::Mem16}},
    {"lld", Op::Lld, opc(0x34), kPreR6_64, {O::Rt, O::Mem16}},
    {"scd", Op::Scd, opc(0x3c), kPreR6_64, {O::Rt, O::Mem16}},
    {"ll", Op::Ll, sp3(0x36), kR6, {O::Rt, O::Mem9}},
    {"sc", Op::Sc, sp3(0x26), kR6, {O::Rt, O::Mem9}},
    {"lld", Op::Lld, sp3(0x37), kR6_64, {O::Rt, O::Mem9}},
    {"scd", Op::Scd, sp3(0x27), kR6_64, {O::Rt, O::Mem9}},

    // --- branches with a delay slot
    {"beq", Op::Beq, opc(0x04), kAll, {O::Rs, O::Rt, O::Br16}, D},
    {"bne", Op::Bne, opc(0x05), kAll, {O::Rs, O::Rt, O::Br16}, D},
    {"blez", Op::Blez, opc(0x06), kAll, {O::Rs, O::Br16}, D},
    {"bgtz", Op::Bgtz, opc(0x07), kAll, {O::Rs, O::Br16}, D},
    {"bltz", Op::Bltz, regimm(0x00), kAll, {O::Rs, O::Br16}, D},
    {"bgez", Op::Bgez, regimm(0x01), kAll, {O::Rs, O::Br16}, D},
    {"bltzal", Op::Bltzal, regimm(0x10), kPreR6, {O::Rs, O::Br16}, D | L},
    {"bgezal", Op::Bgezal, regimm(0x11), kPreR6, {O::Rs, O::Br16}, D | L},
    {"beql", Op::Beql, opc(0x14), kPreR6, {O::Rs, O::Rt, O::Br16}, D | LK},
    {"bnel", Op::Bnel, opc(0x15), kPreR6, {O::Rs, O::Rt, O::Br16}, D | LK},
    {"blezl", Op::Blezl, opc(0x16), kPreR6, {O::Rs, O::Br16}, D | LK},
    {"bgtzl", Op::Bgtzl, opc(0x17), kPreR6, {O::Rs, O::Br16}, D | LK},
    {"bltzl", Op::Bltzl, regimm(0x02), kPreR6, {O::Rs, O::Br16}, D | LK},
    {"bgezl", Op::Bgezl, regimm(0x03), kPreR6, {O::Rs, O::Br16}, D | LK},
    {"bltzall", Op::Bltzall, regimm(0x12), kPreR6, {O::Rs, O::Br16}, D | L | LK},
    {"bgezall", Op::Bgezall, regimm(0x13), kPreR6, {O::Rs, O::Br16}, D | L | LK},

    // --- jumps
    {"j", Op::J, opc(0x02), kAll, {O::Jump26}, D},
    {"jal", Op::Jal, opc(0x03), kAll, {O::Jump26}, D | L},
    {"jr", Op::Jr, sp(0x08), kPreR6, {O::Rs}, D},
    {"jr.hb", Op::JrHb, sp(0x08) | 0x400, kPreR6, {O::Rs}, D},
    {"jalr", Op::Jalr, sp(0x09) | (31u << 11), kAll, {O::Rs}, D | L},
    {"jalr", Op::Jalr, sp(0x09), kAll, {O::Rd, O::Rs}, D | L},
    {"jalr.hb", Op::JalrHb, sp(0x09) | 0x400 | (31u << 11), kAll, {O::Rs}, D | L},
    {"jalr.hb", Op::JalrHb, sp(0x09) | 0x400, kAll, {O::Rd, O::Rs}, D | L},

    // --- R6 compact branches (no delay slot)
    {"bc", Op::Bc, opc(0x32), kR6, {O::Br26}, C},
    {"balc", Op::Balc, opc(0x3a), kR6, {O::Br26}, C | L},
    // jic/jialc with offset 0, as objdump prints them (jalrc is no alias to GNU).
    {"jrc", Op::Jic, opc(0x36), kR6, {O::Rt}, C | AL},
    {"jalrc", Op::Jialc, opc(0x3e), kR6, {O::Rt}, C | L, R::RtNotRa},
    {"jic", Op::Jic, opc(0x36), kR6, {O::Rt, O::Simm16}, C},
    {"beqzc", Op::Beqzc, opc(0x36), kR6, {O::Rs, O::Br21}, FS, R::RsNonZero},
    {"jialc", Op::Jialc, opc(0x3e), kR6, {O::Rt, O::Simm16}, C | L},
    {"bnezc", Op::Bnezc, opc(0x3e), kR6, {O::Rs, O::Br21}, FS, R::RsNonZero},
    {"beqzalc", Op::Beqzalc, opc(0x08), kR6, {O::Rt, O::Br16}, FS | L, R::RsZeroRtNonZero},
    {"beqc", Op::Beqc, opc(0x08), kR6, {O::Rs, O::Rt, O::Br16}, FS | kCommutative, R::RsNonZeroRsLtRt},
    {"bovc", Op::Bovc, opc(0x08), kR6, {O::Rs, O::Rt, O::Br16}, FS | kCommutativeHi, R::RsGeRt},
    {"bnezalc", Op::Bnezalc, opc(0x18), kR6, {O::Rt, O::Br16}, FS | L, R::RsZeroRtNonZero},
    {"bnec", Op::Bnec, opc(0x18), kR6, {O::Rs, O::Rt, O::Br16}, FS | kCommutative, R::RsNonZeroRsLtRt},
    {"bnvc", Op::Bnvc, opc(0x18), kR6, {O::Rs, O::Rt, O::Br16}, FS | kCommutativeHi, R::RsGeRt},
    {"blezalc", Op::Blezalc, opc(0x06), kR6, {O::Rt, O::Br16}, FS | L, R::RsZeroRtNonZero},
    {"bgezalc", Op::Bgezalc, opc(0x06), kR6, {O::RtRs, O::Br16}, FS | L, R::RsEqRtNonZero},
    {"bgeuc", Op::Bgeuc, opc(0x06), kR6, {O::Rs, O::Rt, O::Br16}, FS, R::RsNeRtBothNonZero},
    {"bgtzalc", Op::Bgtzalc, opc(0x07), kR6, {O::Rt, O::Br16}, FS | L, R::RsZeroRtNonZero},
    {"bltzalc", Op::Bltzalc, opc(0x07), kR6, {O::RtRs, O::Br16}, FS | L, R::RsEqRtNonZero},
    {"bltuc", Op::Bltuc, opc(0x07), kR6, {O::Rs, O::Rt, O::Br16}, FS, R::RsNeRtBothNonZero},
    {"blezc", Op::Blezc, opc(0x16), kR6, {O::Rt, O::Br16}, FS, R::RsZeroRtNonZero},
    {"bgezc", Op::Bgezc, opc(0x16), kR6, {O::RtRs, O::Br16}, FS, R::RsEqRtNonZero},
    {"bgec", Op::Bgec, opc(0x16), kR6, {O::Rs, O::Rt, O::Br16}, FS, R::RsNeRtBothNonZero},
    {"bgtzc", Op::Bgtzc, opc(0x17), kR6, {O::Rt, O::Br16}, FS, R::RsZeroRtNonZero},
    {"bltzc", Op::Bltzc, opc(0x17), kR6, {O::RtRs, O::Br16}, FS, R::RsEqRtNonZero},
    {"bltc", Op::Bltc, opc(0x17), kR6, {O::Rs, O::Rt, O::Br16}, FS, R::RsNeRtBothNonZero},

    // --- barriers, cache, system, traps
    {"sync", Op::Sync, sp(0x0f), kAll, {}},
    {"sync", Op::Sync, sp(0x0f), kAll, {O::Stype}},
    {"synci", Op::Synci, regimm(0x1f), kAll, {O::Mem16}},
    {"cache", Op::Cache, opc(0x2f), kPreR6, {O::Op5, O::Mem16}, P},
    {"cache", Op::Cache, sp3(0x25), kR6, {O::Op5, O::Mem9}, P},
    {"pref", Op::Pref, opc(0x33), kPreR6, {O::Op5, O::Mem16}},
    {"pref", Op::Pref, sp3(0x35), kR6, {O::Op5, O::Mem9}},
    {"syscall", Op::Syscall, sp(0x0c), kAll, {}},
    {"syscall", Op::Syscall, sp(0x0c), kAll, {O::Code20}},
    {"break", Op::Break, sp(0x0d), kAll, {}},
    {"break", Op::Break, sp(0x0d), kAll, {O::Code10Hi}},
    {"break", Op::Break, sp(0x0d), kAll, {O::Code10Hi, O::Code10Lo}},
    {"sdbbp", Op::Sdbbp, sp2(0x3f), kPreR6, {}},
    {"sdbbp", Op::Sdbbp, sp2(0x3f), kPreR6, {O::Code20}},
    {"sdbbp", Op::Sdbbp, sp(0x0e), kR6, {}},
    {"sdbbp", Op::Sdbbp, sp(0x0e), kR6, {O::Code20}},
    {"teq", Op::Teq, sp(0x34), kAll, {O::Rs, O::Rt}},
    {"teq", Op::Teq, sp(0x34), kAll, {O::Rs, O::Rt, O::Code10Lo}},
    {"tne", Op::Tne, sp(0x36), kAll, {O::Rs, O::Rt}},
    {"tne", Op::Tne, sp(0x36), kAll, {O::Rs, O::Rt, O::Code10Lo}},
    {"tge", Op::Tge, sp(0x30), kAll, {O::Rs, O::Rt}},
    {"tge", Op::Tge, sp(0x30), kAll, {O::Rs, O::Rt, O::Code10Lo}},
    {"tgeu", Op::Tgeu, sp(0x31), kAll, {O::Rs, O::Rt}},
    {"tgeu", Op::Tgeu, sp(0x31), kAll, {O::Rs, O::Rt, O::Code10Lo}},
    {"tlt", Op::Tlt, sp(0x32), kAll, {O::Rs, O::Rt}},
    {"tlt", Op::Tlt, sp(0x32), kAll, {O::Rs, O::Rt, O::Code10Lo}},
    {"tltu", Op::Tltu, sp(0x33), kAll, {O::Rs, O::Rt}},
    {"tltu", Op::Tltu, sp(0x33), kAll, {O::Rs, O::Rt, O::Code10Lo}},
    {"teqi", Op::Teqi, regimm(0x0c), kPreR6, {O::Rs, O::Simm16}},
    {"tnei", Op::Tnei, regimm(0x0e), kPreR6, {O::Rs, O::Simm16}},
    {"tgei", Op::Tgei, regimm(0x08), kPreR6, {O::Rs, O::Simm16}},
    {"tgeiu", Op::Tgeiu, regimm(0x09), kPreR6, {O::Rs, O::Simm16}},
    {"tlti", Op::Tlti, regimm(0x0a), kPreR6, {O::Rs, O::Simm16}},
    {"tltiu", Op::Tltiu, regimm(0x0b), kPreR6, {O::Rs, O::Simm16}},
    {"sigrie", Op::Sigrie, regimm(0x17), kR6, {O::Uimm16}},

    // --- hardware registers (user mode, as far as HWREna allows)
    {"rdhwr", Op::Rdhwr, sp3(0x3b), kAll, {O::Rt, O::HwReg}},
    {"rdhwr", Op::Rdhwr, sp3(0x3b), kR6, {O::Rt, O::HwReg, O::HwSel}},

    // --- coprocessor 0 (privileged)
    {"mfc0", Op::Mfc0, cop0(0x00), kAll, {O::Rt, O::Cp0Reg}, P},
    {"mfc0", Op::Mfc0, cop0(0x00), kAll, {O::Rt, O::Cp0Reg, O::Sel}, P},
    {"dmfc0", Op::Dmfc0, cop0(0x01), k64, {O::Rt, O::Cp0Reg}, P},
    {"dmfc0", Op::Dmfc0, cop0(0x01), k64, {O::Rt, O::Cp0Reg, O::Sel}, P},
    {"mtc0", Op::Mtc0, cop0(0x04), kAll, {O::Rt, O::Cp0Reg}, P},
    {"mtc0", Op::Mtc0, cop0(0x04), kAll, {O::Rt, O::Cp0Reg, O::Sel}, P},
    {"dmtc0", Op::Dmtc0, cop0(0x05), k64, {O::Rt, O::Cp0Reg}, P},
    {"dmtc0", Op::Dmtc0, cop0(0x05), k64, {O::Rt, O::Cp0Reg, O::Sel}, P},
    {"di", Op::Di, 0x41606000, kAll, {}, P},
    {"di", Op::Di, 0x41606000, kAll, {O::Rt}, P},
    {"ei", Op::Ei, 0x41606020, kAll, {}, P},
    {"ei", Op::Ei, 0x41606020, kAll, {O::Rt}, P},
    {"eret", Op::Eret, 0x42000018, kAll, {}, P},
    {"deret", Op::Deret, 0x4200001f, kAll, {}, P},
    {"wait", Op::Wait, 0x42000020, kAll, {}, P},
    {"wait", Op::Wait, 0x42000020, kAll, {O::Code19}, P},
    {"tlbp", Op::Tlbp, 0x42000008, kAll, {}, P},
    {"tlbr", Op::Tlbr, 0x42000001, kAll, {}, P},
    {"tlbwi", Op::Tlbwi, 0x42000002, kAll, {}, P},
    {"tlbwr", Op::Tlbwr, 0x42000006, kAll, {}, P},
    {"tlbinv", Op::Tlbinv, 0x42000003, kR6, {}, P},
    {"tlbinvf", Op::Tlbinvf, 0x42000004, kR6, {}, P},
    {"eretnc", Op::Eretnc, 0x42000058, kR6, {}, P},
    {"dvp", Op::Dvp, 0x41600024, kR6, {}, P},
    {"dvp", Op::Dvp, 0x41600024, kR6, {O::Rt}, P},
    {"evp", Op::Evp, 0x41600004, kR6, {}, P},
    {"evp", Op::Evp, 0x41600004, kR6, {O::Rt}, P},
    {"rdpgpr", Op::Rdpgpr, cop0(0x0a), kAll, {O::Rd, O::Rt}, P},
    {"wrpgpr", Op::Wrpgpr, cop0(0x0e), kAll, {O::Rd, O::Rt}, P},
};

// Classes of encodings outside the model, checked only for words no row of
// kTable accepts, first match wins. Major opcodes are matched whole; within
// SPECIAL, SPECIAL2, SPECIAL3, REGIMM, COP0 and COP1 by function or rs.
constexpr uint32_t kMajor = 0xfc000000, kFunct = 0xfc00003f, kMajorRs = 0xffe00000;
constexpr uint32_t kMajorRt = 0xfc1f0000;
constexpr ExcludedClass kExcluded[] = {
    // MSA: its own major opcode (MDMX's before R5) and branches in COP1
    {"MSA", kMajor, opc(0x1e), kAll},
    {"MSA", kMajorRs, cop1(0x0b), kAll},
    {"MSA", kMajorRs, cop1(0x0f), kAll},
    {"MSA", 0xff800000, cop1(0x18), kAll},
    {"MSA", 0xff800000, cop1(0x1c), kAll},
    // FPU: COP1, COP1X, FPU loads and stores, movf/movt
    {"FPU", kMajor, opc(0x11), kAll},
    {"FPU", kMajor, opc(0x13), kPreR6},
    {"FPU", kMajor, opc(0x31), kAll},
    {"FPU", kMajor, opc(0x35), kAll},
    {"FPU", kMajor, opc(0x39), kAll},
    {"FPU", kMajor, opc(0x3d), kAll},
    {"FPU", kFunct, sp(0x01), kPreR6},
    // COP2 (implementation-defined coprocessor)
    {"COP2", kMajor, opc(0x12), kAll},
    {"COP2", kMajor, opc(0x32), kPreR6},
    {"COP2", kMajor, opc(0x36), kPreR6},
    {"COP2", kMajor, opc(0x3a), kPreR6},
    {"COP2", kMajor, opc(0x3e), kPreR6},
    // jalx switches to MIPS16e or microMIPS
    {"microMIPS/MIPS16 jalx", kMajor, opc(0x1d), kPreR6},
    // DSP ASE (R1-R3; binutils knows no 64-bit DSP): SPECIAL3 functions,
    // bposge32, HI/LO accumulators 1-3
    {"DSP", kFunct, sp3(0x0a), kAll},
    {"DSP", kFunct, sp3(0x0c), kAll},
    {"DSP", 0xfc00003c, sp3(0x10), kAll},  // 0x10-0x13
    {"DSP", kFunct, sp3(0x18), kAll},
    {"DSP", kFunct, sp3(0x30), kAll},
    {"DSP", kFunct, sp3(0x31), kAll},
    {"DSP", kFunct, sp3(0x38), kAll},
    {"DSP", kMajorRt, regimm(0x1c), kAll},
    {"DSP", 0xfc00e7ff, sp(0x18), kPreR6},
    {"DSP", 0xfc00e7ff, sp(0x19), kPreR6},
    {"DSP", 0xfc00e7ff, sp2(0x00), kPreR6},
    {"DSP", 0xfc00e7ff, sp2(0x01), kPreR6},
    {"DSP", 0xfc00e7ff, sp2(0x04), kPreR6},
    {"DSP", 0xfc00e7ff, sp2(0x05), kPreR6},
    {"DSP", 0xff9f07ff, sp(0x10), kPreR6},
    {"DSP", 0xff9f07ff, sp(0x12), kPreR6},
    {"DSP", 0xfc1fe7ff, sp(0x11), kPreR6},
    {"DSP", 0xfc1fe7ff, sp(0x13), kPreR6},
    // EVA: kernel access to user addresses (SPECIAL3)
    {"EVA", kFunct, sp3(0x19), kPreR6},      // lwle, lwre (removed in R6)
    {"EVA", kFunct, sp3(0x1a), kPreR6},
    {"EVA", 0xfc00003c, sp3(0x1c), kAll},    // sbe, she, sce, swe
    {"EVA", kFunct, sp3(0x1b), kAll},        // cachee
    {"EVA", kFunct, sp3(0x21), kPreR6},      // swle, swre (removed in R6)
    {"EVA", kFunct, sp3(0x22), kPreR6},
    {"EVA", kFunct, sp3(0x23), kAll},
    {"EVA", 0xfc00003e, sp3(0x28), kAll},  // 0x28, 0x29
    {"EVA", 0xfc00003c, sp3(0x2c), kAll},  // 0x2c-0x2f
    // MT ASE: fork, yield, mftr, mttr
    {"MT", kFunct, sp3(0x08), kAll},
    {"MT", kFunct, sp3(0x09), kAll},
    {"MT", kMajorRs, cop0(0x08), kAll},
    {"MT", kMajorRs, cop0(0x0c), kAll},
    // Virtualization: guest CP0 moves, hypcall, guest TLB operations
    {"VZ", kMajorRs, cop0(0x03), kAll},
    {"VZ", 0xfe00003f, 0x42000028, kAll},
    {"VZ", 0xfe00003f, 0x42000009, kAll},
    {"VZ", 0xfe00003f, 0x4200000a, kAll},
    {"VZ", 0xfe00003f, 0x4200000b, kAll},
    {"VZ", 0xfe00003f, 0x4200000c, kAll},
    {"VZ", 0xfe00003f, 0x4200000e, kAll},
    {"VZ", 0xfe00003f, 0x42000010, kAll},
    // Release 6 optional extensions
    {"CRC", kFunct, sp3(0x0f), kR6},
    {"GINV", kFunct, sp3(0x3d), kR6},
    {"paired LL/SC", 0xfc0007ff, sp3(0x36) | sa(1), kR6},
    {"paired LL/SC", 0xfc0007ff, sp3(0x26) | sa(1), kR6},
    {"paired LL/SC", 0xfc0007ff, sp3(0x37) | sa(1), kR6_64},
    {"paired LL/SC", 0xfc0007ff, sp3(0x27) | sa(1), kR6_64},
};

}  // namespace

std::span<const InstrDesc> instructionTable() { return kTable; }
std::span<const ExcludedClass> excludedClasses() { return kExcluded; }

bool satisfiesRule(FieldRule r, uint32_t w) {
  unsigned s = rsOf(w), t = rtOf(w);
  switch (r) {
    case FieldRule::None: return true;
    case FieldRule::RsZero: return s == 0;
    case FieldRule::RsNonZero: return s != 0;
    case FieldRule::RsZeroRtNonZero: return s == 0 && t != 0;
    case FieldRule::RsEqRtNonZero: return s == t && t != 0;
    case FieldRule::RsNeRtBothNonZero: return s != t && s != 0 && t != 0;
    case FieldRule::RsGeRt: return s >= t;
    case FieldRule::RsNonZeroRsLtRt: return s != 0 && s < t;
    case FieldRule::RtNotRa: return t != 31;
  }
  return false;
}

}  // namespace patchcheck::mips
