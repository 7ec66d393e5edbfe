#pragma once
// The assembler's output: one entry per word, with the table row it chose,
// its resolved operands, and the bits known so far. A word whose operand
// depends on a symbolic address keeps that operand for SymbolicWord.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "encoder/Diagnostic.h"
#include "encoder/mips/Relocations.h"
#include "encoder/mips/InstructionTable.h"

namespace patchcheck::mips {

struct Operand {
  Opnd kind = Opnd::None;
  unsigned reg = 0;  // register operands; the base of a memory operand
  Expr expr;         // immediates, offsets, branch and jump targets
};

struct AssembledWord {
  const InstrDesc* desc = nullptr;  // nullptr: a .word directive
  std::array<Operand, 4> operands;  // for .word: operands[0].expr
  Value address;                    // where the word sits
  uint32_t bits = 0;                // every bit not in symbolicMask
  uint32_t symbolicMask = 0;        // bits that depend on a symbolic address
  SourceLocation where;
  std::string source;               // the statement's text

  bool isConcrete() const { return symbolicMask == 0; }
};

struct Assembly {
  std::vector<AssembledWord> words;
  std::map<std::string, Value> labels;
};

}  // namespace patchcheck::mips
