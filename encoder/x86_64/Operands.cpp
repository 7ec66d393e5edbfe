#include "encoder/x86_64/Operands.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "encoder/x86_64/Registers.h"

namespace patchcheck::x86_64 {
namespace {

using gnu::trimmed;

Piece sub(Piece p, size_t from, size_t n = std::string_view::npos) {
  return trimmed({p.text.substr(from, n), p.column + unsigned(from)});
}

// `%name` at the start of p: the register and how many characters it took.
struct Named {
  ZydisRegister reg = ZYDIS_REGISTER_NONE;
  size_t length = 0;
};
std::variant<Named, SyntaxError> registerAt(Piece p) {
  size_t n = 1;
  while (n < p.text.size() && std::isalnum((unsigned char)p.text[n])) ++n;
  std::string name(p.text.substr(1, n - 1));
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  ZydisRegister r = registerNamed(name);
  if (r == ZYDIS_REGISTER_NONE) return SyntaxError{p.column, "unknown register '%" + name + "'"};
  return Named{r, n};
}

// The (base,index,scale) group: `inner` is the text between the parentheses.
std::optional<SyntaxError> addressRegisters(Piece inner, MemoryRef& m) {
  std::vector<Piece> parts;
  size_t start = 0;
  for (size_t i = 0; i <= inner.text.size(); ++i)
    if (i == inner.text.size() || inner.text[i] == ',') parts.push_back(sub(inner, start, i - start)), start = i + 1;
  if (parts.size() > 3) return SyntaxError{parts[3].column, "too many parts in a memory operand"};
  auto reg = [&](Piece p, ZydisRegister& out, const char* role) -> std::optional<SyntaxError> {
    if (p.text.empty() || p.text[0] != '%')
      return SyntaxError{p.column, std::string("expected a ") + role + " register"};
    auto r = registerAt(p);
    if (auto* e = std::get_if<SyntaxError>(&r)) return *e;
    Named n = std::get<Named>(r);
    if (n.length != p.text.size())
      return SyntaxError{p.column, "unexpected text after the " + std::string(role) + " register"};
    bool rip = n.reg == ZYDIS_REGISTER_RIP;
    if (gprBits(n.reg) != 64 && !(rip && std::string_view(role) == "base"))
      return SyntaxError{p.column,
                         "'%" + nameOf(n.reg) + "' cannot be a " + role + " register (64-bit registers only)"};
    out = n.reg;
    return std::nullopt;
  };
  if (!parts[0].text.empty())
    if (auto e = reg(parts[0], m.base, "base")) return e;
  if (parts.size() >= 2) {
    if (auto e = reg(parts[1], m.index, "index")) return e;
    if (m.index == ZYDIS_REGISTER_RSP) return SyntaxError{parts[1].column, "'%rsp' cannot be an index register"};
    if (m.base == ZYDIS_REGISTER_RIP) return SyntaxError{parts[1].column, "'%rip' takes no index register"};
    m.scale = 1;
  }
  if (parts.size() == 3) {
    std::string_view s = parts[2].text;
    if (s != "1" && s != "2" && s != "4" && s != "8")
      return SyntaxError{parts[2].column, "scale factor must be 1, 2, 4 or 8"};
    m.scale = uint8_t(s[0] - '0');
  }
  if (m.base == ZYDIS_REGISTER_NONE && m.index == ZYDIS_REGISTER_NONE)
    return SyntaxError{inner.column, "a memory operand needs a base or an index register"};
  return std::nullopt;
}

}  // namespace

std::variant<OperandSyntax, SyntaxError> parseOperand(Piece whole) {
  OperandSyntax op;
  op.text = whole = trimmed(whole);
  Piece p = whole;
  if (p.text.empty()) return SyntaxError{p.column, "missing operand"};
  if (p.text[0] == '*') op.indirect = true, p = sub(p, 1);
  if (p.text.empty()) return SyntaxError{p.column, "missing operand after '*'"};
  if (p.text[0] == '$') {
    if (op.indirect) return SyntaxError{whole.column, "an immediate cannot be indirect"};
    op.kind = OperandSyntax::Kind::Immediate;
    op.expr = sub(p, 1);
    if (op.expr.text.empty()) return SyntaxError{p.column, "missing immediate after '$'"};
    return op;
  }
  if (p.text[0] == '%') {
    auto r = registerAt(p);
    if (auto* e = std::get_if<SyntaxError>(&r)) return *e;
    Named n = std::get<Named>(r);
    Piece rest = sub(p, n.length);
    if (rest.text.empty()) {
      if (isSegment(n.reg) || n.reg == ZYDIS_REGISTER_RIP)
        return SyntaxError{p.column, "'%" + nameOf(n.reg) + "' is not a general register"};
      op.kind = OperandSyntax::Kind::Register;
      op.reg = n.reg;
      return op;
    }
    if (rest.text[0] != ':' || !isSegment(n.reg))
      return SyntaxError{rest.column, "unexpected '" + std::string(rest.text) + "' after '%" + nameOf(n.reg) + "'"};
    op.mem.segment = n.reg;
    p = sub(rest, 1);
    if (p.text.empty()) return SyntaxError{rest.column, "missing address after the segment"};
  }
  // disp(base,index,scale): the last parenthesised group, when it names
  // registers; otherwise the parentheses belong to an expression.
  if (p.text.back() == ')') {
    int depth = 0;
    size_t open = p.text.size();
    for (size_t i = p.text.size(); i-- > 0;) {
      if (p.text[i] == ')')
        ++depth;
      else if (p.text[i] == '(' && --depth == 0) {
        open = i;
        break;
      }
    }
    if (open == p.text.size()) return SyntaxError{p.column, "unbalanced parentheses"};
    Piece inner = sub(p, open + 1, p.text.size() - open - 2);
    if (inner.text.empty() || inner.text[0] == '%' || inner.text[0] == ',') {
      op.kind = OperandSyntax::Kind::Memory;
      op.mem.disp = sub(p, 0, open);
      if (auto e = addressRegisters({p.text.substr(open + 1, p.text.size() - open - 2), p.column + unsigned(open + 1)},
                                    op.mem))
        return *e;
      return op;
    }
  }
  // A bare expression: a branch target, or (with a segment or `*`, or as
  // the operand of a load or store) an absolute address.
  op.kind = op.mem.segment != ZYDIS_REGISTER_NONE ? OperandSyntax::Kind::Memory : OperandSyntax::Kind::Target;
  op.expr = p;
  op.mem.disp = p;
  return op;
}

}  // namespace patchcheck::x86_64
