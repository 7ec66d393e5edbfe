#pragma once
// Word -> table row. A word no row of the ISA accepts is reserved: the
// decoder returns nullptr and the printer shows it as `.word`.
#include <cstdint>

#include "encoder/InstructionTable.h"

namespace patchcheck::mips {

const InstrDesc* decode(uint32_t word, Isa isa);

// Does the row accept this word (fixed bits, ISA, rs/rt rule)?
bool rowMatches(const InstrDesc&, uint32_t word, Isa isa);

}  // namespace patchcheck::mips
