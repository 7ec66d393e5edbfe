#pragma once
// Logical immediates (the bitmask encoding of and/orr/eor/ands/tst) and
// the choice between the mov spellings: the Arm ARM's DecodeBitMasks and
// MoveWidePreferred, written from their definitions.
#include <cstdint>
#include <optional>

namespace patchcheck::arm64 {

// The value N:immr:imms (a 13-bit field) stands for in a register of
// `width` bits (32 or 64), or nothing when the encoding is reserved.
// immr bits above the element size are ignored, as the architecture says.
std::optional<uint64_t> decodeBitmask(uint32_t nImmrImms, unsigned width);

// The canonical N:immr:imms for `value` (its low `width` bits), or nothing
// when no bitmask gives it (0, all ones, not a rotated run of ones).
std::optional<uint32_t> encodeBitmask(uint64_t value, unsigned width);

// Would movz or movn give the value of this bitmask encoding? Then objdump
// prints orr, not mov (MoveWidePreferred in the Arm ARM).
bool moveWidePreferred(uint32_t nImmrImms, unsigned width);

}  // namespace patchcheck::arm64
