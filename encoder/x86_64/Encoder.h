#pragma once
// One instruction to bytes. A table row, its operand size and its resolved
// operands become a Zydis encoder request and Zydis picks the encoding.
// Where GNU as picks another of the equivalent encodings, the bytes are
// adjusted here, each adjustment naming the choice it copies (checked by
// oracle.gnu_as_diff). A field whose value depends on an address gets
// its full width, as GNU as leaves a relocation there; a field that depends
// on a symbolic address stays zero and is described by a Field.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "encoder/gnu/Expr.h"
#include "encoder/x86_64/InstructionTable.h"
#include "encoder/x86_64/Operands.h"

namespace patchcheck::x86_64 {

using gnu::Expr;  // its origin says whether GNU as leaves a relocation
using gnu::ExprError;
using gnu::NameResolver;

// An expression in AT&T syntax: `%` starts a register, never the remainder
// operator; no relocation operators.
inline std::variant<Expr, ExprError> parseExpression(std::string_view text, const NameResolver& names) {
  return gnu::parseExpr(text, names, gnu::Dialect{false, nullptr});
}

struct Operand {
  OperandSyntax syntax;  // shape and registers
  Expr value;            // the immediate, the target, or the displacement
};

// GNU as's pseudo prefixes {disp8} and {disp32}: the displacement width of
// a memory operand (and {disp32}: rel32 for a branch to a label).
enum class DispHint : uint8_t { None, Disp8, Disp32 };

struct Instruction {
  const InstrDesc* row = nullptr;
  uint8_t size = 0;               // operand size (Size), 0 for none
  std::vector<Operand> operands;  // AT&T order
  Value address;                  // where it lies
  DispHint hint = DispHint::None;
  bool longBranch = false;  // rel32 even to a label rel8 would reach (relaxed)
  bool shortToSymbol = false;  // rel8 to a symbol a `near` fact keeps in reach (NearReach.h)
};

// A field whose value depends on a symbolic address.
struct Field {
  enum class Kind : uint8_t { PcRelative, Absolute };
  Kind kind = Kind::Absolute;
  unsigned offset = 0, size = 0;  // bytes into the instruction
  bool signExtended = true;       // the CPU sign-extends it to 64 bits
  Value value;                    // the address it encodes (S)
  Value relativeTo;               // PcRelative: the end of the instruction (P)
  std::string text;               // the expression as written
};

struct Encoded {
  std::vector<uint8_t> bytes;  // a symbolic field's bytes are 0
  std::optional<Field> field;
  // A rel8 to a label that does not reach it: the caller relaxes the
  // branch to rel32 (GNU as grows a jump, never shrinks it).
  bool tooFar = false;
};

struct EncodeError {
  unsigned column;
  std::string message;
};

std::variant<Encoded, EncodeError> encode(const Instruction&);

}  // namespace patchcheck::x86_64
