#pragma once
// Every fetch model, keyed by the name a spec gives in [model] fetch. The
// list is made by the build from the folder checker/fetch/ (one file per
// model), so adding a model edits no file of the core; an ISA plug-in
// names the models its specs may take (IsaPlugin::fetchModels).
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "checker/spec/FetchRules.h"
#include "encoder/Isa.h"

namespace patchcheck {

// In the order the build lists the folder's files.
std::span<const FetchRules* const> fetchModels();
// Every model in the order the plug-ins name them, the default target's
// ISA first, then any model no ISA takes: the order names are listed in
// errors ("expected one of: sc, weak, stale, arm, x86").
std::vector<const FetchRules*> fetchModelsListed();
const FetchRules* fetchModelNamed(std::string_view name);
// The models `isa` allows, as it lists them, and its default
// (std::logic_error when the plug-in names a model the build lacks).
std::vector<const FetchRules*> fetchModelsOf(const IsaPlugin& isa);
const FetchRules& defaultFetchModel(const IsaPlugin& isa);
bool allowsFetchModel(const IsaPlugin& isa, const FetchRules& m);
// The models a spec may choose between: those of the ISAs that allow more
// than one (`synth --fetch`).
std::vector<std::string> choosableFetchModelNames();
// The models `isa` allows as an error lists them: "sc, weak or stale".
std::string fetchModelsText(const IsaPlugin& isa);
// Why a step verb that `m` does not take is refused: the model's own reason,
// else the verb named as the step of the model that takes it ("'dc' is an
// arm64 step").
std::string stepRefusal(const FetchRules& m, std::string_view verb);

}  // namespace patchcheck
