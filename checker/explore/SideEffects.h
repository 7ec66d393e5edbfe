#pragma once
// Judging what instructions do besides registers and memory
// (docs/semantics.md "Side effects"): ordering barriers and CP0 reads are
// harmless; eret is judged as a fault of its own (it leaves the pass);
// everything else (CP0 writes, di/ei, cache and TLB operations, wait, and
// any effect this list does not know) is a fault unless the spec's
// `[site] allow_effects` names its kind.
#include <optional>
#include <set>
#include <string>

#include "model/MachineState.h"

namespace patchcheck {

// Why the effect breaks the rules, or nothing when it is allowed.
std::optional<std::string> forbiddenEffect(const SideEffect&, const std::set<EffectKind>& allowed);

}  // namespace patchcheck
