#include "encoder/x86_64/Match.h"

#include <bit>

#include "encoder/x86_64/Registers.h"

namespace patchcheck::x86_64 {
namespace {

using K = OperandSyntax::Kind;

bool isMemory(const OperandSyntax& o) { return !o.indirect && (o.kind == K::Memory || o.kind == K::Target); }
bool isGpr(const OperandSyntax& o) { return !o.indirect && o.kind == K::Register && gprBits(o.reg); }

// Does the operand have the shape of `k`? Sizes are checked after.
bool fits(Opnd k, const OperandSyntax& o) {
  switch (k) {
    case Opnd::R: return isGpr(o);
    case Opnd::M: return isMemory(o);
    case Opnd::RM: return isGpr(o) || isMemory(o);
    case Opnd::I:
    case Opnd::I64:
    case Opnd::Count: return o.kind == K::Immediate;
    case Opnd::Cl: return !o.indirect && o.kind == K::Register && o.reg == ZYDIS_REGISTER_CL;
    case Opnd::Rel: return !o.indirect && o.kind == K::Target;
    case Opnd::Ind: return o.indirect && (o.kind == K::Memory || o.kind == K::Target || gprBits(o.reg) == 64);
    case Opnd::RM8: return isMemory(o) || gprBits(o.reg) == 8;
    case Opnd::RM16: return isMemory(o) || gprBits(o.reg) == 16;
    case Opnd::RM32: return isMemory(o) || gprBits(o.reg) == 32;
    case Opnd::None: return false;
  }
  return false;
}

std::string formOf(const InstrDesc& d) {
  std::string s(d.mnemonic);
  for (unsigned i = 0; i < d.operandCount(); ++i) s += (i ? "," : " ") + std::string(syntaxOf(d.operands[i]));
  return s;
}

std::string formsOf(std::span<const InstrDesc* const> rows) {
  std::string out;
  for (const InstrDesc* d : rows)
    if (!(d->flags & kAsmOnly)) out += (out.empty() ? "" : " | ") + formOf(*d);
  return out;
}

uint8_t sizeOfBits(unsigned bits) { return uint8_t(bits / 8); }

// The operand size of `d` with these operands, or why there is none.
std::variant<uint8_t, MatchError> sizeOf(const InstrDesc& d, uint8_t suffix, std::string_view mnemonic, unsigned where,
                                         const std::vector<OperandSyntax>& ops) {
  if (!d.sizes) {
    if (suffix) return MatchError{where, "'" + std::string(d.mnemonic) + "' takes no size suffix"};
    return uint8_t(0);
  }
  uint8_t size = suffix;
  for (unsigned i = 0; i < d.operandCount(); ++i) {
    Opnd k = d.operands[i];
    if ((k != Opnd::R && k != Opnd::RM) || !isGpr(ops[i])) continue;
    uint8_t s = sizeOfBits(gprBits(ops[i].reg));
    if (size && s != size) {
      std::string why = suffix ? std::string("the '") + suffixOf(suffix) + "' suffix" : "another operand";
      return MatchError{ops[i].text.column, "'%" + nameOf(ops[i].reg) + "' does not match the size of " + why};
    }
    size = s;
  }
  if (!size && std::popcount(d.sizes) == 1) size = d.sizes;
  if (!size && (d.flags & kDefault64)) size = Q;
  if (!size)
    return MatchError{where, "no size suffix and no register operand: cannot tell the operand size of '" +
                                 std::string(mnemonic) + "' (write " + std::string(d.mnemonic) + "b/w/l/q)"};
  if (!(d.sizes & size)) {
    unsigned column = where;
    for (unsigned i = 0; i < d.operandCount(); ++i)
      if (isGpr(ops[i])) column = ops[i].text.column;
    return MatchError{column, "'" + std::string(d.mnemonic) + "' has no " + std::to_string(sizeBits(size)) +
                                  "-bit form (" + formOf(d) + ")"};
  }
  return size;
}

}  // namespace

std::variant<RowChoice, MatchError> matchRow(std::string_view mnemonic, unsigned where,
                                             const std::vector<OperandSyntax>& ops) {
  auto spelled = rowsSpelled(mnemonic);
  if (!spelled) return MatchError{where, "unknown instruction '" + std::string(mnemonic) + "'"};
  // The row that fits furthest names the error when none fits.
  std::optional<MatchError> best;
  unsigned bestReach = 0;
  for (const InstrDesc* d : spelled->rows) {
    if (d->operandCount() != ops.size()) continue;
    unsigned i = 0;
    while (i < ops.size() && fits(d->operands[i], ops[i])) ++i;
    if (i < ops.size()) {
      if (!best || i + 1 > bestReach) {
        std::string what = ops[i].indirect && d->operands[i] != Opnd::Ind ? "an indirect operand ('*')"
                           : d->operands[i] == Opnd::Ind
                               ? "'" + std::string(ops[i].text.text) + "' (an indirect branch needs '*')"
                               : "'" + std::string(ops[i].text.text) + "'";
        best = MatchError{ops[i].text.column, "'" + std::string(mnemonic) + "' does not take " + what +
                                                  " here (forms: " + formsOf(spelled->rows) + ")"};
        bestReach = i + 1;
      }
      continue;
    }
    auto size = sizeOf(*d, spelled->suffix, mnemonic, where, ops);
    if (auto* e = std::get_if<MatchError>(&size)) {
      if (!best || ops.size() + 1 > bestReach) best = *e, bestReach = unsigned(ops.size()) + 1;
      continue;
    }
    return RowChoice{d, std::get<uint8_t>(size)};
  }
  if (best) return *best;
  return MatchError{ops.empty() ? where : ops[0].text.column,
                    "'" + std::string(mnemonic) + "' takes " + formsOf(spelled->rows)};
}

}  // namespace patchcheck::x86_64
