#include "encoder/x86_64/InstructionTable.h"

#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace patchcheck::x86_64 {
namespace {

using O = Opnd;
constexpr uint16_t SX = kSuffix, AS = kAlwaysSuffix, D64 = kDefault64, BR = kBranch, CA = kCall,
                   CO = kConditional, RX = kRelax, AO = kAsmOnly, SW = kSwapMemReg;

// objdump's condition names by encoding (Intel SDM Vol. 2, Table B-1), and
// the Zydis mnemonics of Jcc, SETcc and CMOVcc in the same order.
constexpr std::array<std::string_view, 16> kConditions = {"o", "no", "b", "ae", "e", "ne", "be", "a",
                                                          "s", "ns", "p", "np", "l", "ge", "le", "g"};
constexpr std::string_view conditionAt(unsigned cc) { return kConditions[cc]; }

#define CC_FAMILY(F)                                                                                   \
  {ZYDIS_MNEMONIC_##F##O,  ZYDIS_MNEMONIC_##F##NO, ZYDIS_MNEMONIC_##F##B,  ZYDIS_MNEMONIC_##F##NB,    \
   ZYDIS_MNEMONIC_##F##Z,  ZYDIS_MNEMONIC_##F##NZ, ZYDIS_MNEMONIC_##F##BE, ZYDIS_MNEMONIC_##F##NBE,   \
   ZYDIS_MNEMONIC_##F##S,  ZYDIS_MNEMONIC_##F##NS, ZYDIS_MNEMONIC_##F##P,  ZYDIS_MNEMONIC_##F##NP,    \
   ZYDIS_MNEMONIC_##F##L,  ZYDIS_MNEMONIC_##F##NL, ZYDIS_MNEMONIC_##F##LE, ZYDIS_MNEMONIC_##F##NLE}
constexpr ZydisMnemonic kJcc[16] = CC_FAMILY(J);
constexpr ZydisMnemonic kSetcc[16] = CC_FAMILY(SET);
constexpr ZydisMnemonic kCmovcc[16] = CC_FAMILY(CMOV);
#undef CC_FAMILY

// The spellings GNU as takes for each condition beside objdump's.
struct ConditionAlias {
  std::string_view name;
  unsigned cc;
};
constexpr ConditionAlias kAliases[] = {
    {"c", 2},   {"nae", 2}, {"nb", 3},  {"nc", 3},  {"z", 4},   {"nz", 5},  {"na", 6},
    {"nbe", 7}, {"pe", 10}, {"po", 11}, {"nge", 12}, {"nl", 13}, {"ng", 14}, {"nle", 15},
};

// Rows without a condition. Order matters where one spelling has several
// rows: the parser takes the first whose operand shapes fit.
constexpr InstrDesc kRows[] = {
    {"nop", ZYDIS_MNEMONIC_NOP},
    {"nop", ZYDIS_MNEMONIC_NOP, kWLQ, {O::RM}, SX},  // 0f 1f /0, the multi-byte nops
    {"int3", ZYDIS_MNEMONIC_INT3},
    {"ud2", ZYDIS_MNEMONIC_UD2},
    {"endbr64", ZYDIS_MNEMONIC_ENDBR64},
    {"cld", ZYDIS_MNEMONIC_CLD},
    {"std", ZYDIS_MNEMONIC_STD},
    {"leave", ZYDIS_MNEMONIC_LEAVE, Q, {}, D64},
    {"ret", ZYDIS_MNEMONIC_RET, Q, {}, D64},
    {"pushf", ZYDIS_MNEMONIC_PUSHFQ, Q, {}, D64},
    {"popf", ZYDIS_MNEMONIC_POPFQ, Q, {}, D64},
    {"push", ZYDIS_MNEMONIC_PUSH, Q, {O::R}, SX | D64},
    {"push", ZYDIS_MNEMONIC_PUSH, Q, {O::M}, SX | D64},
    {"push", ZYDIS_MNEMONIC_PUSH, Q, {O::I}, SX | D64},
    {"pop", ZYDIS_MNEMONIC_POP, Q, {O::R}, SX | D64},
    {"pop", ZYDIS_MNEMONIC_POP, Q, {O::M}, SX | D64},
    {"call", ZYDIS_MNEMONIC_CALL, Q, {O::Rel}, SX | D64 | BR | CA},
    {"call", ZYDIS_MNEMONIC_CALL, Q, {O::Ind}, SX | D64 | BR | CA},
    {"jmp", ZYDIS_MNEMONIC_JMP, 0, {O::Rel}, BR | RX},  // GNU as refuses jmpq to a label
    {"jmp", ZYDIS_MNEMONIC_JMP, Q, {O::Ind}, SX | D64 | BR},
    {"mov", ZYDIS_MNEMONIC_MOV, kBWLQ, {O::R, O::RM}, SX},
    {"mov", ZYDIS_MNEMONIC_MOV, kBWLQ, {O::M, O::R}, SX},
    {"mov", ZYDIS_MNEMONIC_MOV, kBWLQ, {O::I, O::RM}, SX},
    {"movabs", ZYDIS_MNEMONIC_MOV, Q, {O::I64, O::R}, SX},
    {"movzb", ZYDIS_MNEMONIC_MOVZX, kWLQ, {O::RM8, O::R}, SX | AS},
    {"movzw", ZYDIS_MNEMONIC_MOVZX, kLQ, {O::RM16, O::R}, SX | AS},
    {"movsb", ZYDIS_MNEMONIC_MOVSX, kWLQ, {O::RM8, O::R}, SX | AS},
    {"movsw", ZYDIS_MNEMONIC_MOVSX, kLQ, {O::RM16, O::R}, SX | AS},
    {"movsl", ZYDIS_MNEMONIC_MOVSXD, Q, {O::RM32, O::R}, SX | AS},
    {"lea", ZYDIS_MNEMONIC_LEA, kWLQ, {O::M, O::R}, SX},
#define ALU(NAME, Z)                                          \
  {NAME, ZYDIS_MNEMONIC_##Z, kBWLQ, {O::R, O::RM}, SX},       \
      {NAME, ZYDIS_MNEMONIC_##Z, kBWLQ, {O::M, O::R}, SX},    \
      {NAME, ZYDIS_MNEMONIC_##Z, kBWLQ, {O::I, O::RM}, SX}
    ALU("add", ADD), ALU("or", OR), ALU("and", AND), ALU("sub", SUB), ALU("xor", XOR), ALU("cmp", CMP),
#undef ALU
    {"test", ZYDIS_MNEMONIC_TEST, kBWLQ, {O::R, O::RM}, SX | SW},
    {"test", ZYDIS_MNEMONIC_TEST, kBWLQ, {O::M, O::R}, SX | SW},
    {"test", ZYDIS_MNEMONIC_TEST, kBWLQ, {O::I, O::RM}, SX},
    {"xchg", ZYDIS_MNEMONIC_XCHG, kBWLQ, {O::R, O::RM}, SX | SW},
    {"xchg", ZYDIS_MNEMONIC_XCHG, kBWLQ, {O::M, O::R}, SX | SW},
    {"inc", ZYDIS_MNEMONIC_INC, kBWLQ, {O::RM}, SX},
    {"dec", ZYDIS_MNEMONIC_DEC, kBWLQ, {O::RM}, SX},
    {"neg", ZYDIS_MNEMONIC_NEG, kBWLQ, {O::RM}, SX},
    {"not", ZYDIS_MNEMONIC_NOT, kBWLQ, {O::RM}, SX},
#define SHIFT(NAME, Z, F)                                           \
  {NAME, ZYDIS_MNEMONIC_##Z, kBWLQ, {O::Count, O::RM}, SX | (F)},   \
      {NAME, ZYDIS_MNEMONIC_##Z, kBWLQ, {O::Cl, O::RM}, SX | (F)},  \
      {NAME, ZYDIS_MNEMONIC_##Z, kBWLQ, {O::RM}, SX | (F)}  // by one
    SHIFT("shl", SHL, 0), SHIFT("shr", SHR, 0), SHIFT("sar", SAR, 0), SHIFT("sal", SHL, AO),
#undef SHIFT
};

struct Table {
  std::deque<std::string> names;  // the spellings of the condition rows
  std::vector<InstrDesc> rows;
  std::unordered_map<std::string_view, std::vector<const InstrDesc*>> bySpelling;
  std::unordered_map<int, const InstrDesc*> byZydis;

  static int key(ZydisMnemonic m, unsigned operands) { return int(m) * 4 + int(operands); }

  Table() {
    rows.assign(std::begin(kRows), std::end(kRows));
    for (unsigned cc = 0; cc < 16; ++cc) {
      std::string_view c = conditionAt(cc);
      rows.push_back({names.emplace_back("j" + std::string(c)), kJcc[cc], 0, {O::Rel}, BR | CO | RX});
      rows.push_back({names.emplace_back("set" + std::string(c)), kSetcc[cc], B, {O::RM}});
      rows.push_back({names.emplace_back("cmov" + std::string(c)), kCmovcc[cc], kWLQ, {O::RM, O::R}, SX});
    }
    for (const InstrDesc& d : rows) {
      bySpelling[d.mnemonic].push_back(&d);
      if (!(d.flags & kAsmOnly)) byZydis.emplace(key(d.zydis, d.operandCount()), &d);
    }
  }
};

const Table& table() {
  static const Table t;
  return t;
}

const std::vector<const InstrDesc*>* exactly(std::string_view name) {
  const Table& t = table();
  if (auto it = t.bySpelling.find(name); it != t.bySpelling.end()) return &it->second;
  // A condition spelled another way: jz is je, cmovnae is cmovb.
  for (std::string_view family : {"j", "set", "cmov"}) {
    if (!name.starts_with(family)) continue;
    int cc = conditionCode(name.substr(family.size()));
    if (cc < 0) continue;
    std::string canonical = std::string(family) + std::string(conditionAt(unsigned(cc)));
    if (auto it = t.bySpelling.find(canonical); it != t.bySpelling.end()) return &it->second;
  }
  return nullptr;
}

}  // namespace

unsigned sizeBits(uint8_t size) { return 8u * size; }

char suffixOf(uint8_t size) { return size == B ? 'b' : size == W ? 'w' : size == L ? 'l' : 'q'; }

std::span<const InstrDesc> instructionTable() { return table().rows; }

std::string_view conditionName(unsigned cc) { return conditionAt(cc & 15); }

int conditionCode(std::string_view s) {
  for (unsigned cc = 0; cc < 16; ++cc)
    if (conditionAt(cc) == s) return int(cc);
  for (const ConditionAlias& a : kAliases)
    if (a.name == s) return int(a.cc);
  return -1;
}

std::optional<Spelling> rowsSpelled(std::string_view mnemonic) {
  // The whole spelling first: cmovl is "cmov if less", not cmov with `l`.
  if (auto* rows = exactly(mnemonic)) return Spelling{*rows, 0};
  if (mnemonic.size() < 2) return std::nullopt;
  uint8_t size = 0;
  switch (mnemonic.back()) {
    case 'b': size = B; break;
    case 'w': size = W; break;
    case 'l': size = L; break;
    case 'q': size = Q; break;
    default: return std::nullopt;
  }
  auto* rows = exactly(mnemonic.substr(0, mnemonic.size() - 1));
  if (!rows) return std::nullopt;
  for (const InstrDesc* d : *rows)
    if ((d->flags & (kSuffix | kDefault64)) && (d->sizes & size)) return Spelling{*rows, size};
  return std::nullopt;
}

const InstrDesc* rowFor(ZydisMnemonic m, unsigned operands) {
  auto it = table().byZydis.find(Table::key(m, operands));
  return it == table().byZydis.end() ? nullptr : it->second;
}

std::string_view syntaxOf(Opnd k) {
  switch (k) {
    case Opnd::None: return "";
    case Opnd::R: return "%reg";
    case Opnd::M: return "mem";
    case Opnd::RM: return "%reg|mem";
    case Opnd::I: case Opnd::I64: return "$imm";
    case Opnd::Count: return "$count";
    case Opnd::Cl: return "%cl";
    case Opnd::Rel: return "target";
    case Opnd::Ind: return "*%reg|*mem";
    case Opnd::RM8: return "%reg8|mem8";
    case Opnd::RM16: return "%reg16|mem16";
    case Opnd::RM32: return "%reg32|mem32";
  }
  return "?";
}

}  // namespace patchcheck::x86_64
