#include "encoder/arm64/Relocations.h"

namespace patchcheck::arm64 {
namespace {

// :op:expr, at the start of an immediate (after its `#`).
class Operators final : public gnu::RelocationSyntax {
 public:
  Form form() const override { return Form::Prefix; }
  char lead() const override { return ':'; }
  std::optional<Match> match(std::string_view text) const override {
    if (text.starts_with(":lo12:") || text.starts_with(":LO12:")) return Match{uint8_t(Reloc::Lo12), 6};
    return std::nullopt;
  }
  uint64_t apply(uint8_t, uint64_t value) const override { return value & 0xfff; }
  std::string_view name(uint8_t) const override { return ":lo12:"; }
};

}  // namespace

std::variant<gnu::Expr, ExprError> parseExpression(std::string_view text, const NameResolver& names, bool relocations) {
  static const Operators operators;
  static const gnu::Dialect plain{true, nullptr}, immediate{true, &operators};
  return gnu::parseExpr(text, names, relocations ? immediate : plain);
}

}  // namespace patchcheck::arm64
