#pragma once
// GNU as expressions in operands and data: numbers, symbols, `.`, numeric
// local labels (1f, 1b), + - * / << >> | & ^ ~ and parentheses (no %: it
// starts a register in AT&T syntax). An expression knows what it counts
// from, as GNU as does: a plain number, an address in the program (a label
// or `.`, whose distance to any other address in it is known when
// assembling), or a symbol outside the program (a relocation).
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "encoder/Value.h"

namespace patchcheck::x86_64 {

using patchcheck::Value;  // encoder/Value.h

struct Expr {
  enum class Kind : uint8_t { Absolute, Label, Symbol };
  Value value;
  Kind kind = Kind::Absolute;
  // The value depends on an address: GNU as leaves a relocation, so the
  // field gets its full width whatever the value turns out to be.
  bool relocatable() const { return kind != Kind::Absolute; }
};

// How names in an expression resolve; nullopt = undefined.
class NameResolver {
 public:
  virtual std::optional<Expr> symbol(std::string_view name) const = 0;  // a label or a symbol
  virtual std::optional<Expr> local(unsigned label, bool forward) const = 0;
  virtual Expr dot() const = 0;

 protected:
  ~NameResolver() = default;
};

struct ExprError {
  size_t offset;  // into the parsed text
  std::string message;
};

// Parses a whole expression. GNU as precedence: * / << >> bind tighter than
// | & ^, which bind tighter than + -.
std::variant<Expr, ExprError> parseExpr(std::string_view text, const NameResolver&);

}  // namespace patchcheck::x86_64
