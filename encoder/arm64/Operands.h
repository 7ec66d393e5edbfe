#pragma once
// Where each operand kind keeps its values in the word: a list of bit
// fields, each a plain unsigned number. The assembler computes the field
// values and places them, the printer and the decoder extract them, and
// FieldTerms.h turns the same list into Z3 terms, so all of them agree on
// the layout by construction.
#include <array>
#include <cstdint>
#include <span>

#include "encoder/arm64/InstructionTable.h"

namespace patchcheck::arm64 {

struct BitField {
  uint8_t shift = 0, width = 0;
  constexpr uint32_t mask() const { return ((width == 32 ? 0u : 1u << width) - 1u) << shift; }
  constexpr uint32_t place(uint64_t v) const { return uint32_t(v << shift) & mask(); }
  constexpr uint32_t of(uint32_t w) const { return (w & mask()) >> shift; }
};

// The fields of an operand kind, in a fixed order per kind (registers
// first: Rn before the offset of a memory operand; Rm, then shift or
// extend, then amount).
struct Layout {
  std::array<BitField, 4> fields{};
  uint8_t count = 0;
  std::span<const BitField> all() const { return {fields.data(), count}; }
};
Layout layoutOf(Opnd);

// What a register kind reads 31 as, and its width.
struct RegisterKind {
  BitField field;
  bool wide = true;  // X (64-bit) or W (32-bit)
  bool sp = false;   // 31 is sp/wsp rather than xzr/wzr
};
// Register operands (and the base of memory operands; Rn of XnRm and WnRm,
// whose Rm repeats it); nothing for others.
const RegisterKind* registerKind(Opnd);

// The access size, as log2 bytes, of a memory operand kind (scaled offsets
// and register-offset shifts).
unsigned accessScale(Opnd);

bool isMemoryKind(Opnd);  // [...] operands
bool isLabelKind(Opnd);   // pc-relative targets
bool isPreIndex(Opnd);
bool isPostIndex(Opnd);

}  // namespace patchcheck::arm64
