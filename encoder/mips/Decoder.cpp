#include "encoder/mips/Decoder.h"

#include <array>
#include <vector>

namespace patchcheck::mips {
namespace {

// Rows bucketed by major opcode, per ISA, in table order (built once,
// read-only afterwards). Operands never cover bits 31-26.
struct Buckets {
  std::array<std::array<std::vector<const InstrDesc*>, 64>, 4> rows;
  Buckets() {
    for (const InstrDesc& d : instructionTable()) {
      if (d.flags & kAsmOnly) continue;
      for (unsigned i = 0; i < 4; ++i)
        if (d.isas & (1u << i)) rows[i][d.match >> 26].push_back(&d);
    }
  }
};

const Buckets& buckets() {
  static const Buckets b;
  return b;
}

}  // namespace

bool rowMatches(const InstrDesc& d, uint32_t w, Isa isa) {
  return (d.isas & bit(isa)) && (w & d.mask()) == d.match && satisfiesRule(d.rule, w);
}

const InstrDesc* decode(uint32_t w, Isa isa) {
  for (const InstrDesc* d : buckets().rows[unsigned(isa)][w >> 26])
    if ((w & d->mask()) == d->match && satisfiesRule(d->rule, w)) return d;
  return nullptr;
}

const ExcludedClass* excludedClassOf(uint32_t w, Isa isa) {
  if (decode(w, isa)) return nullptr;
  for (const ExcludedClass& c : excludedClasses())
    if ((c.isas & bit(isa)) && (w & c.mask) == c.match) return &c;
  return nullptr;
}

const InstrDesc* decodeCanonical(uint32_t w, Isa isa) {
  const InstrDesc* d = decode(w, isa);
  if (!d || !(d->flags & kAlias)) return d;
  for (const InstrDesc* r : buckets().rows[unsigned(isa)][w >> 26])
    if (r->op == d->op && !(r->flags & kAlias) && (w & r->mask()) == r->match &&
        satisfiesRule(r->rule, w))
      return r;
  return d;
}

}  // namespace patchcheck::mips
