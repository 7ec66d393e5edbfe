#include "encoder/arm64/Decoder.h"

#include <array>
#include <vector>

namespace patchcheck::arm64 {
namespace {

// Rows bucketed by the word's top byte, in table order: a row joins every
// bucket its fixed bits allow (adr's immlo and tbz's b5 lie in the top
// byte, so a row may sit in several). Built once, read-only afterwards.
struct Buckets {
  std::array<std::vector<const InstrDesc*>, 256> rows;
  Buckets() {
    for (const InstrDesc& d : instructionTable()) {
      if (d.flags & kAsmOnly) continue;
      uint32_t fixed = d.mask() >> 24, match = d.match >> 24;
      for (uint32_t top = 0; top < 256; ++top)
        if ((top & fixed) == match) rows[top].push_back(&d);
    }
  }
};

const Buckets& buckets() {
  static const Buckets b;
  return b;
}

}  // namespace

bool rowMatches(const InstrDesc& d, uint32_t w) { return (w & d.mask()) == d.match && satisfiesRule(d.rule, w); }

const InstrDesc* decode(uint32_t w) {
  for (const InstrDesc* d : buckets().rows[w >> 24])
    if (rowMatches(*d, w)) return d;
  return nullptr;
}

}  // namespace patchcheck::arm64
