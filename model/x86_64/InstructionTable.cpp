#include "model/x86_64/InstructionTable.h"

#include <vector>

namespace patchcheck::x86_64 {
namespace {

constexpr uint8_t RM = kReg | kMem, RMI = kReg | kMem | kImm;

// Jcc, CMOVcc and SETcc, each in the order of the condition encoding
// (SDM Vol. 1, Appendix B: O, NO, B, NB, Z, NZ, BE, NBE, S, NS, P, NP, L, NL, LE, NLE).
constexpr ZydisMnemonic kJcc[16] = {
    ZYDIS_MNEMONIC_JO, ZYDIS_MNEMONIC_JNO, ZYDIS_MNEMONIC_JB, ZYDIS_MNEMONIC_JNB,
    ZYDIS_MNEMONIC_JZ, ZYDIS_MNEMONIC_JNZ, ZYDIS_MNEMONIC_JBE, ZYDIS_MNEMONIC_JNBE,
    ZYDIS_MNEMONIC_JS, ZYDIS_MNEMONIC_JNS, ZYDIS_MNEMONIC_JP, ZYDIS_MNEMONIC_JNP,
    ZYDIS_MNEMONIC_JL, ZYDIS_MNEMONIC_JNL, ZYDIS_MNEMONIC_JLE, ZYDIS_MNEMONIC_JNLE};
constexpr ZydisMnemonic kCmovcc[16] = {
    ZYDIS_MNEMONIC_CMOVO, ZYDIS_MNEMONIC_CMOVNO, ZYDIS_MNEMONIC_CMOVB, ZYDIS_MNEMONIC_CMOVNB,
    ZYDIS_MNEMONIC_CMOVZ, ZYDIS_MNEMONIC_CMOVNZ, ZYDIS_MNEMONIC_CMOVBE, ZYDIS_MNEMONIC_CMOVNBE,
    ZYDIS_MNEMONIC_CMOVS, ZYDIS_MNEMONIC_CMOVNS, ZYDIS_MNEMONIC_CMOVP, ZYDIS_MNEMONIC_CMOVNP,
    ZYDIS_MNEMONIC_CMOVL, ZYDIS_MNEMONIC_CMOVNL, ZYDIS_MNEMONIC_CMOVLE, ZYDIS_MNEMONIC_CMOVNLE};
constexpr ZydisMnemonic kSetcc[16] = {
    ZYDIS_MNEMONIC_SETO, ZYDIS_MNEMONIC_SETNO, ZYDIS_MNEMONIC_SETB, ZYDIS_MNEMONIC_SETNB,
    ZYDIS_MNEMONIC_SETZ, ZYDIS_MNEMONIC_SETNZ, ZYDIS_MNEMONIC_SETBE, ZYDIS_MNEMONIC_SETNBE,
    ZYDIS_MNEMONIC_SETS, ZYDIS_MNEMONIC_SETNS, ZYDIS_MNEMONIC_SETP, ZYDIS_MNEMONIC_SETNP,
    ZYDIS_MNEMONIC_SETL, ZYDIS_MNEMONIC_SETNL, ZYDIS_MNEMONIC_SETLE, ZYDIS_MNEMONIC_SETNLE};

std::vector<Row> makeTable() {
  std::vector<Row> t = {
      // Every NOP form (90, 66 90, 0f 1f /0 and the rest of the 0f 18..1f
      // hint space Zydis calls nop): a memory operand is not accessed.
      {ZYDIS_MNEMONIC_NOP, Op::Nop, 0, 0, {}},
      {ZYDIS_MNEMONIC_NOP, Op::Nop, 0, 1, {RM}},
      {ZYDIS_MNEMONIC_NOP, Op::Nop, 0, 2, {RM, kReg}},
      {ZYDIS_MNEMONIC_PAUSE, Op::Nop, 0, 0, {}},
      {ZYDIS_MNEMONIC_ENDBR64, Op::Nop, 0, 0, {}},  // a landing pad; IBT is not modelled
      {ZYDIS_MNEMONIC_INT3, Op::Int3, 0, 0, {}},
      {ZYDIS_MNEMONIC_UD0, Op::Undefined, 0, 2, {kReg, RM}},
      {ZYDIS_MNEMONIC_UD1, Op::Undefined, 0, 2, {kReg, RM}},
      {ZYDIS_MNEMONIC_UD2, Op::Undefined, 0, 0, {}},
      {ZYDIS_MNEMONIC_HLT, Op::Hlt, 0, 0, {}},

      {ZYDIS_MNEMONIC_CALL, Op::Call, 0, 1, {kRel | RM}},
      {ZYDIS_MNEMONIC_JMP, Op::Jmp, 0, 1, {kRel | RM}},
      {ZYDIS_MNEMONIC_RET, Op::Ret, 0, 0, {}},
      {ZYDIS_MNEMONIC_RET, Op::Ret, 0, 1, {kImm}},

      {ZYDIS_MNEMONIC_PUSH, Op::Push, 0, 1, {RMI}},
      {ZYDIS_MNEMONIC_POP, Op::Pop, 0, 1, {RM}},
      {ZYDIS_MNEMONIC_PUSHFQ, Op::Pushf, 0, 0, {}},
      {ZYDIS_MNEMONIC_PUSHF, Op::Pushf, 0, 0, {}},
      {ZYDIS_MNEMONIC_POPFQ, Op::Popf, 0, 0, {}},
      {ZYDIS_MNEMONIC_POPF, Op::Popf, 0, 0, {}},
      {ZYDIS_MNEMONIC_LEAVE, Op::Leave, 0, 0, {}},

      {ZYDIS_MNEMONIC_MOV, Op::Mov, 0, 2, {RM, RMI}},
      {ZYDIS_MNEMONIC_MOVZX, Op::Movzx, 0, 2, {kReg, RM}},
      {ZYDIS_MNEMONIC_MOVSX, Op::Movsx, 0, 2, {kReg, RM}},
      {ZYDIS_MNEMONIC_MOVSXD, Op::Movsx, 0, 2, {kReg, RM}},
      {ZYDIS_MNEMONIC_LEA, Op::Lea, 0, 2, {kReg, kMem}},
      {ZYDIS_MNEMONIC_XCHG, Op::Xchg, 0, 2, {RM, RM}},

      {ZYDIS_MNEMONIC_ADD, Op::Add, 0, 2, {RM, RMI}},
      {ZYDIS_MNEMONIC_ADC, Op::Adc, 0, 2, {RM, RMI}},
      {ZYDIS_MNEMONIC_SUB, Op::Sub, 0, 2, {RM, RMI}},
      {ZYDIS_MNEMONIC_SBB, Op::Sbb, 0, 2, {RM, RMI}},
      {ZYDIS_MNEMONIC_AND, Op::And, 0, 2, {RM, RMI}},
      {ZYDIS_MNEMONIC_OR, Op::Or, 0, 2, {RM, RMI}},
      {ZYDIS_MNEMONIC_XOR, Op::Xor, 0, 2, {RM, RMI}},
      {ZYDIS_MNEMONIC_CMP, Op::Cmp, 0, 2, {RM, RMI}},
      {ZYDIS_MNEMONIC_TEST, Op::Test, 0, 2, {RM, RMI}},
      {ZYDIS_MNEMONIC_INC, Op::Inc, 0, 1, {RM}},
      {ZYDIS_MNEMONIC_DEC, Op::Dec, 0, 1, {RM}},
      {ZYDIS_MNEMONIC_NEG, Op::Neg, 0, 1, {RM}},
      {ZYDIS_MNEMONIC_NOT, Op::Not, 0, 1, {RM}},
      {ZYDIS_MNEMONIC_SHL, Op::Shl, 0, 2, {RM, kReg | kImm}},  // count: an immediate, 1 or cl
      {ZYDIS_MNEMONIC_SHR, Op::Shr, 0, 2, {RM, kReg | kImm}},
      {ZYDIS_MNEMONIC_SAR, Op::Sar, 0, 2, {RM, kReg | kImm}},

      {ZYDIS_MNEMONIC_CLD, Op::Cld, 0, 0, {}},
      {ZYDIS_MNEMONIC_STD, Op::Std, 0, 0, {}},
      {ZYDIS_MNEMONIC_CLI, Op::Cli, 0, 0, {}},
      {ZYDIS_MNEMONIC_STI, Op::Sti, 0, 0, {}},
      {ZYDIS_MNEMONIC_MFENCE, Op::Fence, 0, 0, {}},
      {ZYDIS_MNEMONIC_LFENCE, Op::Fence, 0, 0, {}},
      {ZYDIS_MNEMONIC_SFENCE, Op::Fence, 0, 0, {}},
  };
  for (uint8_t cc = 0; cc < 16; ++cc) {
    t.push_back({kJcc[cc], Op::Jcc, cc, 1, {kRel}});
    t.push_back({kCmovcc[cc], Op::Cmovcc, cc, 2, {kReg, RM}});
    t.push_back({kSetcc[cc], Op::Setcc, cc, 1, {RM}});
  }
  return t;
}

bool isGeneralRegister(ZydisRegister r) {
  switch (ZydisRegisterGetClass(r)) {
    case ZYDIS_REGCLASS_GPR8: case ZYDIS_REGCLASS_GPR16: case ZYDIS_REGCLASS_GPR32: case ZYDIS_REGCLASS_GPR64:
      return true;
    default:
      return false;
  }
}

// The form of one visible operand, or 0 when it is none the subset knows
// (a segment, control or vector register; an fs/gs-based or vector memory
// operand; a far pointer).
uint8_t formOf(const ZydisDecodedOperand& op) {
  switch (op.type) {
    case ZYDIS_OPERAND_TYPE_REGISTER: return isGeneralRegister(op.reg.value) ? kReg : 0;
    case ZYDIS_OPERAND_TYPE_IMMEDIATE: return op.imm.is_relative ? kRel : kImm;
    case ZYDIS_OPERAND_TYPE_MEMORY: {
      if (op.mem.type != ZYDIS_MEMOP_TYPE_MEM && op.mem.type != ZYDIS_MEMOP_TYPE_AGEN) return 0;
      if (op.mem.segment == ZYDIS_REGISTER_FS || op.mem.segment == ZYDIS_REGISTER_GS) return 0;
      auto addressing = [](ZydisRegister r) {
        return r == ZYDIS_REGISTER_NONE || r == ZYDIS_REGISTER_RIP || r == ZYDIS_REGISTER_EIP || isGeneralRegister(r);
      };
      return addressing(op.mem.base) && addressing(op.mem.index) ? kMem : 0;
    }
    default: return 0;
  }
}

}  // namespace

std::span<const Row> semanticsTable() {
  static const std::vector<Row> table = makeTable();
  return table;
}

const Row* rowFor(const ZydisDecodedInstruction& insn, const ZydisDecodedOperand* operands) {
  // Far transfers (ljmp, lcall, lret) load cs: not in the subset.
  if (insn.meta.branch_type == ZYDIS_BRANCH_TYPE_FAR) return nullptr;
  for (const Row& row : semanticsTable()) {
    if (row.mnemonic != insn.mnemonic || row.arity != insn.operand_count_visible) continue;
    bool fits = true;
    for (unsigned i = 0; i < row.arity && fits; ++i) fits = (formOf(operands[i]) & row.forms[i]) != 0;
    if (fits) return &row;
  }
  return nullptr;
}

}  // namespace patchcheck::x86_64
