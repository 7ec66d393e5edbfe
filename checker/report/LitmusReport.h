#pragma once
// A litmus answer as herd7 prints one (the test, its final states, the
// condition, `Observation NAME Never|Sometimes|Always`), then the verdict
// line herd7's catalogue lists (kinds.txt): `Verdict NAME Allowed`.
#include <nlohmann/json.hpp>

#include <string>

#include "checker/litmus/LitmusRun.h"

namespace patchcheck {

std::string litmusText(const litmus::LitmusResult&);
nlohmann::json litmusJson(const litmus::LitmusResult&);

}  // namespace patchcheck
