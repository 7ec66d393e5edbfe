#pragma once
// The assembler's output: one unit per instruction (a pseudo-instruction
// such as `call` gives two) or data directive, with the table row chosen,
// the operands resolved and the bits known so far. A unit whose field
// depends on a symbolic address keeps that operand for SymbolicUnit.
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "encoder/Diagnostic.h"
#include "encoder/riscv/InstructionTable.h"
#include "encoder/riscv/Relocations.h"

namespace patchcheck::riscv {

struct Operand {
  Opnd kind = Opnd::None;
  unsigned reg = 0;  // register operands; the base of a memory operand
  Expr expr;         // immediates, offsets, targets; %pcrel_lo: the target of its auipc
};

struct AssembledUnit {
  const Row* row = nullptr;          // nullptr: data (.word, .half, ...) or a raw .insn
  std::array<Operand, 5> operands;   // data: operands[0].expr
  Value address;                     // where the unit lies
  unsigned bytes = 4;
  uint64_t bits = 0;                 // every bit not in symbolicMask
  uint64_t symbolicMask = 0;         // bits that depend on a symbolic address
  std::optional<Value> pcrelBase;    // %pcrel_lo: the address of the auipc it pairs with
  bool call = false;                 // the auipc or jalr of call/tail (R_RISCV_CALL_PLT)
  SourceLocation where;
  std::string source;

  bool isConcrete() const { return symbolicMask == 0; }
};

struct Assembly {
  std::vector<AssembledUnit> units;
  std::map<std::string, Value> labels;
};

}  // namespace patchcheck::riscv
