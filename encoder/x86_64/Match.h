#pragma once
// Which table row a statement is, and its operand size, from the spelling
// and the shapes of its operands (before any name is resolved), as GNU as
// decides: the size suffix, else the register operands, else the row's
// only or default size.
#include <string>
#include <variant>
#include <vector>

#include "encoder/x86_64/InstructionTable.h"
#include "encoder/x86_64/Operands.h"

namespace patchcheck::x86_64 {

struct RowChoice {
  const InstrDesc* row = nullptr;
  uint8_t size = 0;  // Size; 0 for a row without an operand size
};

struct MatchError {
  unsigned column;
  std::string message;
};

// `mnemonic` is lower case; `where` is the mnemonic's column.
std::variant<RowChoice, MatchError> matchRow(std::string_view mnemonic, unsigned where,
                                             const std::vector<OperandSyntax>& operands);

}  // namespace patchcheck::x86_64
