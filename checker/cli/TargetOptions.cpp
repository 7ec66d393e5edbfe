#include "checker/cli/TargetOptions.h"

namespace patchcheck {

std::optional<uint64_t> parseAddress(const std::string& s) {
  if (s.empty()) return std::nullopt;
  size_t used = 0;
  try {
    bool hexa = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (s[0] == '-') return std::nullopt;
    uint64_t v = std::stoull(s, &used, hexa ? 16 : 10);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace patchcheck
