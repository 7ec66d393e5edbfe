#include "encoder/mips/Relocations.h"

namespace patchcheck::mips {

uint64_t applyReloc(Reloc r, uint64_t x) {
  switch (r) {
    case Reloc::None: return x;
    case Reloc::Hi: return ((x + 0x8000) >> 16) & 0xffff;
    case Reloc::Lo: return x & 0xffff;
    case Reloc::Higher: return ((x + 0x80008000ull) >> 32) & 0xffff;
    case Reloc::Highest: return ((x + 0x800080008000ull) >> 48) & 0xffff;
  }
  return x;
}

std::string_view relocName(Reloc r) {
  switch (r) {
    case Reloc::None: return "";
    case Reloc::Hi: return "%hi";
    case Reloc::Lo: return "%lo";
    case Reloc::Higher: return "%higher";
    case Reloc::Highest: return "%highest";
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
    // Longest first: %hi is a prefix of %higher and %highest.
    for (Reloc r : {Reloc::Highest, Reloc::Higher, Reloc::Hi, Reloc::Lo})
      if (text.starts_with(relocName(r))) return Match{uint8_t(r), relocName(r).size()};
    return std::nullopt;
  }
  uint64_t apply(uint8_t id, uint64_t value) const override { return applyReloc(Reloc(id), value); }
  std::string_view name(uint8_t id) const override { return relocName(Reloc(id)); }
};

}  // namespace

std::variant<Expr, ExprError> parseExpression(std::string_view text, const NameResolver& names) {
  static const Operators operators;
  static const gnu::Dialect dialect{true, &operators};
  auto parsed = gnu::parseExpr(text, names, dialect);
  if (auto* e = std::get_if<ExprError>(&parsed)) return std::move(*e);
  gnu::Expr& x = std::get<gnu::Expr>(parsed);
  return Expr{Reloc(x.reloc), std::move(x.value)};
}

}  // namespace patchcheck::mips
