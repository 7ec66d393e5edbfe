#pragma once
// Word -> table row. A word no row of the ISA accepts is reserved: the
// decoder returns nullptr and the printer shows it as `.word`.
#include <cstdint>

#include "encoder/mips/InstructionTable.h"

namespace patchcheck::mips {

const InstrDesc* decode(uint32_t word, Isa isa);

// The row `objdump -M no-aliases` spells: for a decoder alias (kAlias), the
// first real row of the same Op that accepts the word (nop -> sll, b -> beq,
// R6 jr -> jalr $0); the alias itself when the ISA has no such row (R6 bal).
const InstrDesc* decodeCanonical(uint32_t word, Isa isa);

// For a word no row accepts: the unmodelled class it belongs to (FPU, MSA,
// DSP, ...), or nullptr for a truly reserved encoding.
const ExcludedClass* excludedClassOf(uint32_t word, Isa isa);

// Does the row accept this word (fixed bits, ISA, rs/rt rule)?
bool rowMatches(const InstrDesc&, uint32_t word, Isa isa);

}  // namespace patchcheck::mips
