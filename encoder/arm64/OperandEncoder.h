#pragma once
// One operand of one row: its text parsed by the row's operand kind, its
// values range-checked and placed into the word (Operands.h gives where).
// The assembler (Assembler.cpp) splits lines and chooses rows; this file
// knows the syntax of every operand kind.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "encoder/arm64/Assembly.h"
#include "encoder/arm64/Relocations.h"
#include "encoder/gnu/Source.h"

namespace patchcheck::arm64 {

// A piece of source text (an operand between top-level commas) with the
// column where it starts.
using gnu::Piece;

// Why a row does not fit. The assembler reports the mismatch of the row
// that got furthest; `shapeMatched` says the operand had the right form
// but a bad value, which beats a wrong form at the same operand.
struct Mismatch {
  unsigned column;
  std::string message;
  unsigned operand = 0;  // 0-based operand index where it failed
  bool shapeMatched = false;
};

class OperandEncoder {
 public:
  explicit OperandEncoder(const NameResolver& names) : names_(names) {}

  // Encodes operand `index` of `row` from pieces[at...], advancing `at`
  // past what it consumed (an operand may take a trailing `lsl #12`,
  // shift or extend piece).
  std::optional<Mismatch> encode(const InstrDesc& row, unsigned index, std::span<const Piece> pieces, size_t& at,
                                 AssembledUnit& unit) const;

 private:
  const NameResolver& names_;
};

// The operand as GNU syntax describes it ("Xn|SP", "#imm12{, lsl #12}"),
// for error messages.
std::string_view syntaxOf(Opnd);

}  // namespace patchcheck::arm64
