#include "checker/explore/PlacedSymbol.h"

#include <bit>

namespace patchcheck {

PlacementFacts placementFacts(const z3::expr& sym, const std::string& name, uint64_t lo, uint64_t hi,
                              uint64_t align) {
  z3::context& c = sym.ctx();
  PlacementFacts f{z3::uge(sym, c.bv_val(lo, 64)) && z3::ule(sym, c.bv_val(hi, 64)), {}, {}};
  if (align > 1) f.aligned.push_back((sym & c.bv_val(align - 1, 64)) == 0);
  // Only a power of two the range can hold narrows; anything else (an
  // empty range, which the placement check reports) keeps the two facts.
  if (align == 0 || !std::has_single_bit(align) || lo > hi || lo > UINT64_MAX - (align - 1)) return f;
  uint64_t base = (lo + align - 1) & ~(align - 1);
  if (base > hi) return f;
  unsigned shift = unsigned(std::countr_zero(align));
  uint64_t span = (hi - base) >> shift;  // k runs over 0..span
  unsigned width = std::max(1u, unsigned(std::bit_width(span)));
  if (width + shift >= 64) return f;
  z3::expr k = c.bv_const(("placed." + name).c_str(), width);
  z3::expr offset = z3::zext(k, 64 - width);
  if (shift) offset = z3::shl(offset, c.bv_val(uint64_t(shift), 64));
  f.narrowed.push_back(sym == c.bv_val(base, 64) + offset);
  if (width < 64 && span + 1 != (uint64_t(1) << width)) f.narrowed.push_back(z3::ule(k, c.bv_val(span, width)));
  return f;
}

}  // namespace patchcheck
