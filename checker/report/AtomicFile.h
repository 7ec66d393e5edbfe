#pragma once
// Output files appear whole or not at all: write a temporary file beside the
// target, then rename it over the target.
#include <optional>
#include <string>
#include <string_view>

namespace patchcheck {

// Returns an error message on failure.
std::optional<std::string> writeFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace patchcheck
