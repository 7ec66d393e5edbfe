#pragma once
// MIPS's relocation operators (%hi, %lo, %higher, %highest) and an operand's
// expression as the MIPS plug-in keeps it. Expressions are parsed by the
// shared GNU front end (encoder/gnu/Expr.h) with these operators.
#include <cstdint>
#include <string_view>
#include <variant>

#include "encoder/Value.h"
#include "encoder/gnu/Expr.h"

namespace patchcheck::mips {

// GNU as relocation operators.
enum class Reloc : uint8_t { None, Hi, Lo, Higher, Highest };

using patchcheck::Value;  // encoder/Value.h

struct Expr {
  Reloc reloc = Reloc::None;
  Value value;
  bool isConstant() const { return value.isConstant(); }
};

// %hi/%lo/%higher/%highest with GNU's carry rules.
uint64_t applyReloc(Reloc, uint64_t);
std::string_view relocName(Reloc);

using gnu::ExprError;
using gnu::NameResolver;

// Parses a whole operand with MIPS's operators (labels resolve to numbers).
std::variant<Expr, ExprError> parseExpression(std::string_view text, const NameResolver&);

}  // namespace patchcheck::mips
