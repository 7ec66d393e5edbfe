#include "encoder/riscv/Relocations.h"

#include <array>

#include "encoder/gnu/Source.h"

namespace patchcheck::riscv {

std::string_view relocName(Reloc r) {
  switch (r) {
    case Reloc::None: return "";
    case Reloc::Hi: return "%hi";
    case Reloc::Lo: return "%lo";
    case Reloc::PcrelHi: return "%pcrel_hi";
    case Reloc::PcrelLo: return "%pcrel_lo";
  }
  return "";
}

namespace {

// %op(expr), anywhere an operand may stand.
class Operators final : public gnu::RelocationSyntax {
 public:
  Form form() const override { return Form::Call; }
  char lead() const override { return '%'; }
  std::optional<Match> match(std::string_view text) const override {
    // Longest first: %hi is a prefix of no other, but %pcrel_hi and %pcrel_lo share one.
    for (Reloc r : {Reloc::PcrelHi, Reloc::PcrelLo, Reloc::Hi, Reloc::Lo}) {
      std::string_view n = relocName(r);
      if (text.starts_with(n) && (text.size() == n.size() || !gnu::isNameChar(text[n.size()])))
        return Match{uint8_t(r), n.size()};
    }
    return std::nullopt;
  }
  // Folding into a number: %hi and %lo of a constant are numbers; a
  // pc-relative part needs the place, which an expression does not have
  // (the assembler refuses it in arithmetic, see parseExpression).
  uint64_t apply(uint8_t id, uint64_t value) const override {
    switch (Reloc(id)) {
      case Reloc::Hi: return hi20(value);
      case Reloc::Lo: return uint64_t(lo12(value));
      default: return value;
    }
  }
  std::string_view name(uint8_t id) const override { return relocName(Reloc(id)); }
};

}  // namespace

std::variant<Expr, gnu::ExprError> parseExpression(std::string_view text, const gnu::NameResolver& names) {
  static const Operators operators;
  static const gnu::Dialect dialect{true, &operators};
  // A pc-relative operator folded into arithmetic ("%pcrel_hi(x) + 1") would
  // lose its place; GNU as wants the operator to be the whole operand.
  size_t at = text.find("%pcrel_");
  if (at != std::string_view::npos && at != text.find_first_not_of(" \t"))
    return gnu::ExprError{at, "a %pcrel_hi or %pcrel_lo must be the whole operand"};
  auto parsed = gnu::parseExpr(text, names, dialect);
  if (auto* e = std::get_if<gnu::ExprError>(&parsed)) return std::move(*e);
  gnu::Expr& x = std::get<gnu::Expr>(parsed);
  if (x.reloc && Reloc(x.reloc) >= Reloc::PcrelHi && text.substr(text.rfind(')') + 1).find_first_not_of(" \t") != std::string_view::npos)
    return gnu::ExprError{text.rfind(')') + 1, "a %pcrel_hi or %pcrel_lo must be the whole operand"};
  return Expr{Reloc(x.reloc), std::move(x.value), false};
}

}  // namespace patchcheck::riscv
