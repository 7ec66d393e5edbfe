#pragma once
// Words to table rows: the first row (in table order, assembler-only rows
// left out) whose fixed bits and rule a word meets.
#include <cstdint>

#include "encoder/arm64/InstructionTable.h"

namespace patchcheck::arm64 {

bool rowMatches(const InstrDesc&, uint32_t w);
// The row of `w`, or nullptr when patchcheck's table has none (an
// unallocated encoding, or an instruction patchcheck does not model).
const InstrDesc* decode(uint32_t w);

}  // namespace patchcheck::arm64
