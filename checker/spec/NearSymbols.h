#pragma once
// `[symbols]`'s `near = "N", within = W`: the symbol lies at most W bytes
// from N. N must be another declared symbol, and no symbol may be near
// itself through a chain of `near`s (a circular bound says nothing about
// where the chain lies; docs/spec-format.md, [symbols]).
#include <vector>

#include "checker/spec/Spec.h"
#include "encoder/Diagnostic.h"

namespace patchcheck {

Diagnostics checkNearSymbols(const std::vector<SymbolSpec>& symbols);

}  // namespace patchcheck
