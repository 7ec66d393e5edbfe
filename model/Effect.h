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
// The kinds `[site] allow_effects` may name. Not the harmless ones
// (barriers, CP0 reads: always allowed), not eret (it leaves the pass), not
// Other (an effect the model does not understand, e.g. MIPS wrpgpr's write
// to another shadow register set: never harmless).
inline constexpr EffectKind kAllowableEffects[] = {EffectKind::SystemWrite, EffectKind::InterruptEnable,
                                                   EffectKind::CacheOp, EffectKind::Tlb, EffectKind::Wait};

// What an effect means to a memory model that runs several CPUs (`patchcheck
// litmus`): the plug-in says it, the runner never reads instruction text.
enum class Ordering {
  None,
  Full,             // orders every earlier access before every later one (dmb sy/ish)
  Stores,           // orders earlier stores before later stores (dmb st)
  Loads,            // orders earlier loads before later accesses (dmb ld)
  Completion,       // waits until its CPU's accesses and maintenance complete (dsb sy/ish)
  ContextSync,      // later instructions are fetched anew (isb)
  CleanToUnification,     // the address's data reaches the point of unification (dc cvau)
  InvalidateInstruction,  // the address's instruction-cache copies go, on every CPU (ic ivau)
  ExceptionReturnAddress, // sets where an exception return goes (msr elr_el1)
};

struct SideEffect {
  std::string what;        // "cache 0x15", "mtc0 $12,0", "sync 0", "eret", ...
  z3::expr address;        // the address it touched, or the pc
  std::optional<z3::expr> value = std::nullopt;  // the value written (mtc0, dmtc0), if any
  EffectKind kind = EffectKind::Other;
  Ordering ordering = Ordering::None;
};

}  // namespace patchcheck
