#pragma once
// Assembler expressions: numbers, symbols, `.`, numeric local labels
// (1f, 1b) and GNU as's operators. A value is linear in at most one symbol
// whose address is not known (symbolic); everything else folds to a constant.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "encoder/Value.h"

namespace patchcheck::arm64 {

using patchcheck::Value;  // encoder/Value.h

// How names in an expression resolve; nullopt = undefined.
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

// Parses a whole operand. GNU as precedence: * / % << >> bind tighter than
// | & ^ (and ! for or-not), which bind tighter than + -.
std::variant<Value, ExprError> parseExpr(std::string_view text, const NameResolver&);

}  // namespace patchcheck::arm64
