#pragma once
// The assembler's output: one entry per unit (an instruction word, or the
// data a directive emits), with the table row it chose, its operands, and
// the bits known so far. A unit whose operand depends on a symbolic
// address keeps that operand for SymbolicWord.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "encoder/Diagnostic.h"
#include "encoder/Value.h"
#include "encoder/arm64/InstructionTable.h"

namespace patchcheck::arm64 {

// GNU as's relocation operators that patchcheck takes.
enum class Reloc : uint8_t {
  None,
  Lo12,  // :lo12:x, the low 12 bits of an address (add, ldr/str offsets after adrp)
};

struct Operand {
  Opnd kind = Opnd::None;
  Value value;  // immediate, offset or target (a symbol plus addend, or a constant)
  Reloc reloc = Reloc::None;
};

struct AssembledUnit {
  const InstrDesc* desc = nullptr;  // nullptr: data (.word, .inst, .quad)
  std::array<Operand, 4> operands;  // for data: operands[0].value
  Value address;                    // where the unit lies
  unsigned bytes = 4;               // 4, or 8 for .quad
  uint64_t bits = 0;                // every bit not in symbolicMask
  uint64_t symbolicMask = 0;        // bits that depend on a symbolic address
  SourceLocation where;
  std::string source;               // the statement's text
  bool inst = false;                // data given with .inst: an instruction in memory

  bool isConcrete() const { return symbolicMask == 0; }
  bool isInstruction() const { return desc || inst; }
};

struct Assembly {
  std::vector<AssembledUnit> units;
  std::map<std::string, Value> labels;
};

}  // namespace patchcheck::arm64
