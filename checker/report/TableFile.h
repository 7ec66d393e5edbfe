#pragma once
// A patch table file as `verify-table` and `gate` read it back: the JSON
// `patchcheck table` writes (checker/report/PatchTable.h). Its shape is checked
// before anything looks inside, so a truncated or hand-edited table is an
// input error at the line of the offending value, never a crash.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <variant>

#include "encoder/Diagnostic.h"

namespace patchcheck {

std::variant<nlohmann::json, Diagnostic> parseTableFile(std::string_view text, const std::string& path);
std::variant<nlohmann::json, Diagnostic> loadTableFile(const std::string& path);

}  // namespace patchcheck
