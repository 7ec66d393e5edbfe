#pragma once
// The assembler's output: one entry per unit (an instruction, the data of a
// directive, or the nops of an alignment), with its bytes in memory order
// and the field, if any, that depends on a symbolic address.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "encoder/Diagnostic.h"
#include "encoder/Value.h"
#include "encoder/x86_64/Encoder.h"
#include "encoder/x86_64/InstructionTable.h"

namespace patchcheck::x86_64 {

struct AssembledUnit {
  const InstrDesc* desc = nullptr;  // nullptr: data (.byte, .long, .quad, a fill)
  std::vector<uint8_t> bytes;       // memory order; a symbolic field's bytes are 0
  std::optional<Field> field;       // lies within the first 8 bytes
  Value address;
  SourceLocation where;
  std::string source;  // the statement's text

  bool isConcrete() const { return !field; }
  bool isInstruction() const { return desc != nullptr; }
};

struct Assembly {
  std::vector<AssembledUnit> units;
  std::map<std::string, Value> labels;
};

}  // namespace patchcheck::x86_64
