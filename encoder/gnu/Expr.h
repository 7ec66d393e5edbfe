#pragma once
// GNU as expressions, one parser for every plug-in: numbers (decimal, 0x,
// 0b, octal), names, `.`, numeric local labels (1f, 1b), GNU as's binary
// operators with its precedence (gas/expr.c: * / % << >> bind tighter than
// | & ^ !, which bind tighter than + -), unary - ~ +, parentheses, and the
// relocation operators a plug-in supplies (MIPS %hi(x), arm64 :lo12:x).
// A value is linear in at most one symbol whose address is not known
// (symbolic); everything else folds to a number.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "encoder/Value.h"

namespace patchcheck::gnu {

// What a value counts from, as GNU as sees it: a number, an address in the
// program (a label or `.`: its distance to another one is a number), or a
// symbol outside it (a relocation). A plug-in that encodes labels as
// numbers (MIPS, arm64: a field is as wide whatever it holds) resolves
// every name as a Number; x86 keeps the difference, since GNU as gives a
// field holding an address its full width.
enum class Origin : uint8_t { Number, Label, Symbol };

struct Expr {
  Value value;
  Origin origin = Origin::Number;
  uint8_t reloc = 0;  // the plug-in's relocation operator (RelocationSyntax); 0: none

  bool isConstant() const { return value.isConstant(); }
  bool relocatable() const { return origin != Origin::Number; }
  static Expr number(int64_t v) { return {Value::constant(v), Origin::Number, 0}; }
};

// How names in an expression resolve; nullopt = undefined. (An interface
// rather than std::function members: the assemblers' hot path.)
class NameResolver {
 public:
  virtual std::optional<Expr> symbol(std::string_view name) const = 0;
  virtual std::optional<Expr> local(unsigned label, bool forward) const = 0;
  virtual Expr dot() const = 0;

 protected:
  ~NameResolver() = default;
};

// A plug-in's relocation operators. All of a plug-in's operators share one
// form: Call, `%hi(expr)` anywhere an operand may stand (MIPS); or Prefix,
// `:lo12:expr` at the start of the whole expression (arm64).
class RelocationSyntax {
 public:
  enum class Form : uint8_t { Call, Prefix };
  struct Match {
    uint8_t id;     // nonzero; Expr::reloc
    size_t length;  // of the operator's name, with its lead character(s)
  };
  virtual Form form() const = 0;
  virtual char lead() const = 0;  // '%', ':'
  // The operator `text` (starting with lead()) starts with; nullopt: none.
  virtual std::optional<Match> match(std::string_view text) const = 0;
  // The operator applied to a number, for arithmetic on its result.
  virtual uint64_t apply(uint8_t id, uint64_t value) const = 0;
  virtual std::string_view name(uint8_t id) const = 0;  // "%hi", for messages

 protected:
  ~RelocationSyntax() = default;
};

// What differs between the plug-ins' GNU syntaxes.
struct Dialect {
  // `%` is the remainder operator; not in AT&T syntax, where it starts a
  // register.
  bool remainder = true;
  const RelocationSyntax* relocations = nullptr;
};

struct ExprError {
  size_t offset;  // into the parsed text
  std::string message;
};

// Parses a whole expression.
std::variant<Expr, ExprError> parseExpr(std::string_view text, const NameResolver&, const Dialect& = {});

// A numeric local label's number from its digits; nullopt when it does not
// fit the unsigned GNU as keeps it in (a longer one would alias a shorter).
std::optional<unsigned> localLabelNumber(std::string_view digits);

}  // namespace patchcheck::gnu
