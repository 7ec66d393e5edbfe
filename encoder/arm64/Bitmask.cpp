#include "encoder/arm64/Bitmask.h"

#include <bit>

namespace patchcheck::arm64 {
namespace {

uint64_t ones(unsigned n) { return n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1; }

// Rotate right within an element of `size` bits.
uint64_t rotateRight(uint64_t x, unsigned r, unsigned size) {
  if (r == 0) return x;
  return ((x >> r) | (x << (size - r))) & ones(size);
}

uint64_t replicate(uint64_t elem, unsigned size, unsigned width) {
  uint64_t out = 0;
  for (unsigned at = 0; at < width; at += size) out |= elem << at;
  return out;
}

}  // namespace

std::optional<uint64_t> decodeBitmask(uint32_t field, unsigned width) {
  unsigned n = (field >> 12) & 1, immr = (field >> 6) & 63, imms = field & 63;
  unsigned combined = (n << 6) | (~imms & 63);
  if (combined == 0) return std::nullopt;
  unsigned len = unsigned(std::bit_width(combined)) - 1;
  if (len < 1) return std::nullopt;
  unsigned esize = 1u << len;
  if (esize > width) return std::nullopt;
  unsigned levels = esize - 1, s = imms & levels, r = immr & levels;
  if (s == levels) return std::nullopt;
  return replicate(rotateRight(ones(s + 1), r, esize), esize, width);
}

std::optional<uint32_t> encodeBitmask(uint64_t value, unsigned width) {
  value &= ones(width);
  for (unsigned esize = 2; esize <= width; esize *= 2) {
    uint64_t elem = value & ones(esize);
    if (replicate(elem, esize, width) != value) continue;
    if (elem == 0 || elem == ones(esize)) return std::nullopt;
    // elem = ror(ones(k), r): rotating it left by r gives k low ones.
    for (unsigned r = 0; r < esize; ++r) {
      uint64_t run = r == 0 ? elem : ((elem << r) | (elem >> (esize - r))) & ones(esize);
      if ((run & (run + 1)) != 0) continue;
      unsigned k = unsigned(std::popcount(run));
      uint32_t n = esize == 64 ? 1 : 0;
      uint32_t imms = (esize == 64 ? 0 : (~(2 * esize - 1) & 63)) | (k - 1);
      return (n << 12) | (r << 6) | imms;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

bool isWideConstant(uint64_t value, unsigned width) {
  value &= ones(width);
  for (unsigned shift = 0; shift < width; shift += 16)
    if ((value & ~(uint64_t(0xffff) << shift)) == 0) return true;
  return false;
}

}  // namespace patchcheck::arm64
