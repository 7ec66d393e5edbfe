#pragma once
// Assembler expressions. A value is linear in at most one symbol whose
// address is not known (symbolic); everything else folds to a constant.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "encoder/Value.h"

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

// How names in an expression resolve: a label or symbol, `.`, or a numeric
// local label reference (`1f`, `1b`). nullopt = undefined. (An interface
// rather than std::function members: the assembler's hot path.)
class NameResolver {
 public:
  virtual std::optional<Value> symbol(std::string_view name) const = 0;
  virtual std::optional<Value> local(unsigned label, bool forward) const = 0;
  virtual Value dot() const = 0;

 protected:
  ~NameResolver() = default;
};

struct ExprError {
  size_t offset;  // into the parsed text
  std::string message;
};

// Parses a whole operand (GNU as precedence: * / % << >> bind tighter than
// | & ^, which bind tighter than + -).
std::variant<Expr, ExprError> parseExpr(std::string_view text, const NameResolver&);

}  // namespace patchcheck::mips
