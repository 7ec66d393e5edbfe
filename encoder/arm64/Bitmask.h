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

// Can movz give `value` in a register of `width` bits: do all its set bits
// lie in one aligned 16-bit halfword? objdump prints an orr of the zero
// register as mov unless movz or movn could give its value (binutils'
// rule, which differs from the Arm ARM's MoveWidePreferred: 32-bit orr
// w0, wzr, #0xc003ffff is `mov` to objdump, orr to the Arm ARM).
bool isWideConstant(uint64_t value, unsigned width);

}  // namespace patchcheck::arm64
