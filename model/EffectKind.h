#pragma once
#include <string_view>

namespace patchcheck::mips {

// What kind of thing a side effect is: the checker judges each kind
// (docs/semantics.md "Side effects"); Other, the default, is a fault.
enum class EffectKind {
  Barrier,          // sync (any stype), synci, jr.hb/jalr.hb: ordering only
  Cp0Read,          // mfc0, dmfc0: reads, no effect on the machine
  Cp0Write,         // mtc0, dmtc0
  InterruptEnable,  // di, ei
  CacheOp,          // cache
  Tlb,              // tlbp, tlbr, tlbwi, tlbwr
  Eret,             // eret, deret
  Wait,             // wait
  Other,
};
std::string_view name(EffectKind);


}  // namespace patchcheck::mips
