#pragma once
// AT&T operand syntax, before any name is resolved: %reg, $expr,
// [%seg:]disp(base,index,scale), a bare expression (a branch target or an
// absolute address) and the `*` of an indirect branch.
#include <Zydis/Zydis.h>

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "encoder/gnu/Source.h"

namespace patchcheck::x86_64 {

using gnu::Piece;  // a piece of a source line and the 1-based column where it starts

struct MemoryRef {
  ZydisRegister segment = ZYDIS_REGISTER_NONE;
  Piece disp;  // the displacement expression; empty text: none
  ZydisRegister base = ZYDIS_REGISTER_NONE, index = ZYDIS_REGISTER_NONE;
  uint8_t scale = 0;  // 1, 2, 4, 8 with an index; 0 without
};

struct OperandSyntax {
  enum class Kind : uint8_t { Register, Immediate, Memory, Target };
  Kind kind = Kind::Target;
  bool indirect = false;  // written with `*`
  ZydisRegister reg = ZYDIS_REGISTER_NONE;
  Piece expr;  // the immediate after `$`, or the target
  MemoryRef mem;
  Piece text;  // the whole operand
};

struct SyntaxError {
  unsigned column;
  std::string message;
};

// The operands of a statement, split at the commas outside parentheses.
inline std::vector<Piece> splitOperands(Piece p) { return gnu::splitOperands<std::vector<Piece>>(p); }
std::variant<OperandSyntax, SyntaxError> parseOperand(Piece);

}  // namespace patchcheck::x86_64
