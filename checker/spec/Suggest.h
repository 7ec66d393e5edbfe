#pragma once
// Names close to a mistyped one, for error messages: a spec key, a state,
// a transition on the command line.
#include <string>
#include <string_view>
#include <vector>

namespace patchcheck {

size_t editDistance(std::string_view a, std::string_view b);

// " (did you mean 'x'?)" when a known name is close to `got`, else "".
std::string didYouMean(std::string_view got, const std::vector<std::string>& known);

// didYouMean, or " (expected one of: ...)" when none is close and the
// known names are few.
std::string suggest(std::string_view got, const std::vector<std::string>& known);

}  // namespace patchcheck
