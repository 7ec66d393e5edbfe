#pragma once
// The table's field layout as Z3 terms, so that properties of the encoding
// can be proved for every field value (tests/unit/encoder_roundtrip_proof.cpp)
// rather than sampled. The layout comes from the concrete helpers in
// Fields.h (placeRegister, immediateWidth, immediateShift), so a proof about
// these terms is a proof about what the assembler and decoder compute.
#include <z3++.h>

#include <vector>

#include "encoder/mips/InstructionTable.h"

namespace patchcheck::mips {

// One value an operand carries, and where in the word it is written. Most
// operands have one field in one place; offset(base) has two fields; the R6
// rt-and-rs register (bgezc) has one field written to two places.
struct Field {
  unsigned width;
  std::vector<unsigned> shifts;  // lowest bit of each place it occupies
};
std::vector<Field> fieldsOf(Opnd);

// `value` (a bit-vector of the field's width) in all of its places, as a
// 32-bit word with every other bit zero.
z3::expr placeTerm(const Field&, const z3::expr& value);
// The field read back from its first place in a 32-bit word.
z3::expr extractTerm(const Field&, const z3::expr& word);
// The field read back from place `i`.
z3::expr extractTerm(const Field&, unsigned place, const z3::expr& word);

// The row's rs/rt rule on a 32-bit word (satisfiesRule as a term).
z3::expr ruleTerm(FieldRule, const z3::expr& word);
// Does the row accept the word: fixed bits and rule (the ISA is the
// caller's business, as in rowMatches)?
z3::expr acceptsTerm(const InstrDesc&, const z3::expr& word);

}  // namespace patchcheck::mips
