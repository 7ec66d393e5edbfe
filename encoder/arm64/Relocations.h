#pragma once
// arm64's relocation operators (`:lo12:` before an immediate), for the
// shared GNU front end's expression parser (encoder/gnu/Expr.h).
#include <string_view>
#include <variant>

#include "encoder/arm64/Assembly.h"
#include "encoder/gnu/Expr.h"

namespace patchcheck::arm64 {

using gnu::ExprError;
using gnu::NameResolver;

// A whole expression (labels resolve to numbers); `relocations`: an
// immediate, which may start with `:lo12:` (Expr::reloc holds a Reloc).
// Data directives take none.
std::variant<gnu::Expr, ExprError> parseExpression(std::string_view text, const NameResolver&, bool relocations);

}  // namespace patchcheck::arm64
