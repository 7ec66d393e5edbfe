#pragma once
// A byte site's part of a patch table ([site] bytes: x86). A state is the
// instructions that fill the site, each with its bytes in memory order, or,
// where the placement decides some of them (call rel32), the bytes that are
// fixed and the field an encoder fills from the addresses: never a made-up
// byte. A transition's steps are byte ranges of the new state, interim
// bytes (text_poke_bp's int3) and serialisations (sync_core).
#include <functional>
#include <z3++.h>
#include <nlohmann/json.hpp>

#include <variant>

#include "checker/spec/Spec.h"

namespace patchcheck {

// The instructions of `state` for target `t`, in address order.
std::variant<nlohmann::json, Diagnostics> byteSiteInstructions(const Spec&, const StateSpec& state, const Target& t,
                                                               z3::context&);

// The steps of `transition`: `write I..J` as one write of J - I + 1 bytes,
// an interim byte with its value. `instructionsOf(state)`:
// byteSiteInstructions of a state, which names the bytes each write takes
// (`to`'s, or the state of `write I..J = STATE`, named in "state").
std::variant<nlohmann::json, Diagnostics> byteSiteSteps(
    const Spec&, const TransitionSpec& transition, const Target& t,
    const std::function<nlohmann::json(const std::string& state)>& instructionsOf);

// Two hex digits per byte, separated by spaces; a byte the placement
// decides is "??".
std::string byteText(const std::vector<std::optional<uint8_t>>& bytes);

}  // namespace patchcheck
