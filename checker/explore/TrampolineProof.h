#pragma once
// The modular proof of one trampoline entry (docs/trampolines.md): from
// every entry state its contract allows (resume register = the site's
// resume address, the caller's ra where the contract says, sp adjusted by
// the site, the mode register one of its values, everything else as at F's
// entry), every path through the real words calls the callback exactly
// once with the right arguments and then reaches the resume address with
// F's live registers, sp and memory at and above F's entry sp as at entry.
// Sets TrampolineContract::proven, or a refutation with a replayed
// counterexample, or why the solver could not decide.
#include <z3++.h>

#include <map>
#include <string>
#include <variant>

#include "checker/explore/Limits.h"
#include "checker/explore/SiteInstance.h"
#include "checker/explore/TrampolineRun.h"
#include "checker/explore/Verdict.h"
#include "checker/spec/Spec.h"
#include "checker/spec/TrampolineContract.h"

namespace patchcheck {

void proveTrampoline(TrampolineCode&, const SiteInstance&, const Limits& = {});

// The contracts of the spec's trampolines on `target`, each proven
// (TrampolineContract::proven) or refuted with a counterexample.
// `checked`: as for SiteInstance::make.
std::variant<std::map<std::string, TrampolineContract>, Diagnostics> trampolineContracts(
    const Spec&, const Target&, z3::context&, const Limits& = {}, const SiteChecks* checked = nullptr);
// The same on a site already made.
std::map<std::string, TrampolineContract> trampolineContracts(const SiteInstance&, const Limits& = {});

// A proven (or refuted) contract as a result line.
TrampolineResult trampolineResult(const TrampolineContract&, const Target&);

}  // namespace patchcheck
