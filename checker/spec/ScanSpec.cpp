#include "checker/spec/ScanSpec.h"

#include <toml++/toml.h>

namespace patchcheck {
namespace {

std::optional<ScanSpec> read(const toml::table& root) {
  const toml::table* t = root["scan"].as_table();
  if (!t) return std::nullopt;
  ScanSpec s;
  s.compiled = (*t)["compiled"].value_or(std::string());
  s.ip = (*t)["ip"].value_or(int64_t(0));
  if (const toml::table* m = (*t)["symbols"].as_table())
    for (auto&& [key, value] : *m)
      if (auto v = value.value<std::string>()) s.symbols[std::string(key.str())] = *v;
  return s;
}

}  // namespace

// loadSpec accepted the text and checked [scan]: it parses.
std::optional<ScanSpec> scanSpecOf(const Spec& spec) {
#if TOML_EXCEPTIONS
  try {
    return read(toml::parse(spec.text, spec.path));
  } catch (const toml::parse_error&) {
    return std::nullopt;
  }
#else
  toml::parse_result parsed = toml::parse(spec.text, spec.path);
  if (!parsed) return std::nullopt;
  return read(parsed.table());
#endif
}

}  // namespace patchcheck
