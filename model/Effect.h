#pragma once
// Something an instruction did that is not a register or memory write: the
// checker judges each kind (docs/semantics.md "Side effects"). Plug-ins
// report their privileged instructions as one of these kinds.
#include <optional>
#include <string>
#include <string_view>

#include <z3++.h>

namespace patchcheck {

enum class EffectKind {
  Barrier,          // MIPS sync (any stype), synci, jr.hb/jalr.hb: ordering only
  SystemRead,       // MIPS mfc0, dmfc0: reads, no effect on the machine
  SystemWrite,      // MIPS mtc0, dmtc0
  InterruptEnable,  // MIPS di, ei
  CacheOp,          // MIPS cache
  Tlb,              // MIPS tlbp, tlbr, tlbwi, tlbwr
  ExceptionReturn,  // MIPS eret, deret
  Wait,             // MIPS wait
  Other,
};
// The name a spec's [site] allow_effects uses ("cp0-write", "cache").
std::string_view name(EffectKind);

struct SideEffect {
  std::string what;        // "cache 0x15", "mtc0 $12,0", "sync 0", "eret", ...
  z3::expr address;        // the address it touched, or the pc
  std::optional<z3::expr> value = std::nullopt;  // the value written (mtc0, dmtc0), if any
  EffectKind kind = EffectKind::Other;
};

}  // namespace patchcheck
