#pragma once
// The table's field layout and rules as Z3 terms, so that properties of
// the encoding are proved for every field value rather than sampled
// (tests/unit/arm64_roundtrip_proof.cpp). The layout comes from
// Operands.h, which the assembler, decoder and printer also use.
#include <z3++.h>

#include "encoder/arm64/InstructionTable.h"
#include "encoder/arm64/Operands.h"

namespace patchcheck::arm64 {

// `value` (a bit-vector of the field's width) at its place in a 32-bit word.
z3::expr placeTerm(const BitField&, const z3::expr& value);
z3::expr extractTerm(const BitField&, const z3::expr& word);

// satisfiesRule as a term over a 32-bit word.
z3::expr ruleTerm(FieldRule, const z3::expr& word);
// The bits of a word a rule reads (the rest cannot change its verdict).
uint32_t ruleBits(FieldRule);
// Does the row accept the word: fixed bits and rule (rowMatches as a term)?
z3::expr acceptsTerm(const InstrDesc&, const z3::expr& word);

}  // namespace patchcheck::arm64
