#pragma once
// A byte site's breakpoint protocol in one transition (x86 text_poke_bp):
// the units where the transition writes the ISA's patch breakpoint (int3),
// each with the instruction of `to` that starts there, which the
// patcher's handler finds in its vector and emulates. And where a pass may
// start decoding an instruction at all.
#include <map>
#include <memory>
#include <set>
#include <variant>

#include "checker/explore/SiteInstance.h"

namespace patchcheck {

using Breakpoints = std::map<unsigned, std::shared_ptr<const UnitImage>>;

// Empty for a site or ISA without the protocol. A breakpoint where no
// instruction of `to` starts is in no vector (a CPU that runs it takes #BP
// unhandled). An error for an instruction the spec's handler would have to
// emulate but the kernel's cannot (IsaPlugin::breakpointRefuses).
std::variant<Breakpoints, Diagnostics> transitionBreakpoints(const SiteInstance&, const TransitionSpec&);

// The units where an instruction of `from`, of `to` or an interim value
// the steps write starts (PassSetup::instructionStarts); empty on word
// sites.
std::set<unsigned> instructionStarts(const SiteInstance&, const TransitionSpec&);

}  // namespace patchcheck
