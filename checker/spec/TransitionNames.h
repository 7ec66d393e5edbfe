#pragma once
// Transition names (docs/spec-format.md, [[transition]] `name`): what every
// output calls a transition, so two with the same `from` and `to` stay two
// in reports, tables, JUnit and a gate's baseline.
#include <string_view>

#include "checker/spec/Spec.h"

namespace patchcheck {

// A name a spec may give: a letter or '_', then letters, digits and '_',
// at most kMaxTransitionName characters. It is then its own C identifier
// (lower-cased) and cannot be mistaken for a derived "from->to".
constexpr size_t kMaxTransitionName = 64;
bool isTransitionName(std::string_view);

// Every name rule that needs all transitions: a name wherever two share
// `from` and `to`; names, and their C identifiers in a table's header
// (those of the states included), distinct.
Diagnostics checkTransitionNames(const Spec&);

}  // namespace patchcheck
