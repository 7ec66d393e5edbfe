#pragma once
// The gate's baseline: certified tables (`patchcheck table` JSON). A
// transition whose steps, states, model and instruction table match its
// certified entry needs no new proof; every other one is checked, with a
// note of what changed.
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "encoder/Diagnostic.h"

namespace patchcheck {

// Table files, or directories of them (every *.json inside), each of the
// shape checker/report/TableFile.h checks; the first bad file is the error.
std::variant<std::vector<nlohmann::json>, Diagnostic> loadBaselines(const std::vector<std::string>& paths);

// The certified table of a spec (by name), if any.
const nlohmann::json* baselineFor(const std::vector<nlohmann::json>&, const std::string& specName);

// For each "target transition" of `current` (a table without results): what
// changed against `baseline`; absent when unchanged. Without a baseline every
// transition is listed.
std::map<std::string, std::string> changesAgainst(const nlohmann::json* baseline, const nlohmann::json& current);

std::string changeKey(const std::string& target, const std::string& transition);

}  // namespace patchcheck
