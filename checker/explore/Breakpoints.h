#pragma once
// A byte site's breakpoint protocol in one transition (x86 text_poke_bp):
// the units where the transition writes the ISA's patch breakpoint (int3),
// each with the instruction of `to` that starts there, which the
// patcher's handler finds in its vector and emulates.
#include <map>
#include <memory>
#include <variant>

#include "checker/explore/SiteInstance.h"

namespace patchcheck {

using Breakpoints = std::map<unsigned, std::shared_ptr<const WordImage>>;

// Empty for a site or ISA without the protocol; an error for a breakpoint
// written where no instruction of `to` starts (nothing to emulate there).
std::variant<Breakpoints, Diagnostics> transitionBreakpoints(const SiteInstance&, const TransitionSpec&);

}  // namespace patchcheck
