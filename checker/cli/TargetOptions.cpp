#include "checker/cli/TargetOptions.h"

#include "checker/spec/SpecTarget.h"

namespace patchcheck {

std::variant<Target, Diagnostics> TargetOptions::forSpec(const Spec& spec, const Target& base) const {
  Target t = given() ? over(base) : base;
  if (auto problem = t.problem()) return Diagnostics{{{"<command line>", 0, 0}, *problem}};
  Diagnostics errors = checkSpecForTarget(spec, t);
  if (errors.empty()) return t;
  if (!given()) return errors;
  std::string label = std::string(t.variantName()) + "/" + std::string(t.abiName());
  for (Diagnostic& d : errors) d.message += " [for " + label + ", given on the command line]";
  return errors;
}

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
