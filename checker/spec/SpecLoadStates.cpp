// The spec's states and what each does: [states] (a site's contents),
// [behaviour] (where a thread that runs them goes), [expect] (what the
// author claims of a state alone) and [scan]. Part of the spec loader
// (SpecLoaderImpl.h).
#include <algorithm>
#include <tuple>

#include <toml++/toml.h>

#include "checker/spec/Spec.h"
#include "checker/spec/SpecLoaderImpl.h"
#include "checker/spec/Suggest.h"
#include "encoder/IsaRegistry.h"

namespace patchcheck::specloader {

std::vector<std::string> SpecLoader::stateNames() const {
  std::vector<std::string> out;
  for (const StateSpec& s : spec_.states) out.push_back(s.name);
  return out;
}

void SpecLoader::loadStates(const toml::table& t) {
  for (auto&& [key, value] : t) {
    StateSpec s{std::string(key.str()), {}, at(key)};
    s.words = words(value, "state '" + s.name + "'");
    if (spec_.byteUnits) {
      // Instructions, as many as fill the site's bytes (checked when assembled).
      if (value.is_array() && value.as_array()->size() <= spec_.before.size())
        error(at(value), "state '" + s.name + "' has no instructions; the site has " +
                             (spec_.before.empty() ? "" : std::to_string(spec_.before.size()) + " data units before " +
                                                              spec_.function + " (one entry each), then ") +
                             std::to_string(spec_.words) + " bytes");
    } else if (value.is_array() && spec_.words && !unitsUnknown_ && value.as_array()->size() != spec_.siteUnits())
      error(at(value), "state '" + s.name + "' has " + std::to_string(value.as_array()->size()) +
                           (spec_.before.empty() ? " words, but the site has " + std::to_string(spec_.words) +
                                                       " (one string per word)"
                                                 : " entries, but the site has " + std::to_string(spec_.before.size()) +
                                                       " data units before " + spec_.function + " and " +
                                                       std::to_string(spec_.words) +
                                                       " words (one string per unit, in address order)"));
    spec_.states.push_back(std::move(s));
  }
  // File order: reports list states as the author wrote them.
  std::stable_sort(spec_.states.begin(), spec_.states.end(), [](const StateSpec& a, const StateSpec& b) {
    return std::tie(a.where.line, a.where.column) < std::tie(b.where.line, b.where.column);
  });
}

std::optional<BehaviourSpec> SpecLoader::behaviour(const toml::node& n, const std::string& what) {
  auto text = string(n, what);
  if (!text) return std::nullopt;
  SourceLocation start = textStart(n);
  auto parsed = parseBehaviour(*text, [&](size_t offset) { return spec_.locate(start, offset); });
  if (auto* d = std::get_if<Diagnostic>(&parsed)) {
    errors_.push_back(*d);
    return std::nullopt;
  }
  BehaviourSpec b = std::get<BehaviourSpec>(std::move(parsed));
  for (const OutcomeSpec& o : b.alternatives)
    if (o.kind != OutcomeSpec::Kind::Untraced && !spec_.symbol(o.target))
      error(o.where, "unknown symbol '" + o.target + "' (declare it in [symbols])" +
                         suggest(o.target, symbolNames()));
  return b;
}

void SpecLoader::loadBehaviour(const toml::table& t) {
  for (auto&& [key, value] : t) {
    std::string name(key.str());
    if (!spec_.state(name))
      error(at(key), "behaviour for unknown state '" + name + "'" + suggest(name, stateNames()));
    if (auto b = behaviour(value, "behaviour '" + name + "'")) spec_.behaviour[name] = std::move(*b);
  }
}

// [expect]: what the author claims of a state run alone, as `expect` in
// a [[transition]] does of a transition.
void SpecLoader::loadStateExpectations(const toml::table& t) {
  for (auto&& [key, value] : t) {
    std::string name(key.str());
    if (!spec_.state(name))
      error(at(key), "expectation for unknown state '" + name + "'" + suggest(name, stateNames()));
    else if (auto e = choice(value, "'expect' of state '" + name + "'", kExpects))
      spec_.stateExpect[name] = *e;
  }
}

// [scan] (docs/spec-format.md): the compiled state, where rec->ip lies
// in the site, and the object's names of the spec's symbols. Checked
// here; `patchcheck scan` reads it with scanSpecOf (checker/spec/ScanSpec.h).
void SpecLoader::loadScan(const toml::table& t) {
  onlyKeys(t, {"compiled", "ip", "symbols"}, "in [scan]");
  if (const toml::node* n = t.get("compiled")) {
    std::string compiled = string(*n, "[scan] compiled").value_or("");
    if (!compiled.empty() && !spec_.state(compiled))
      error(at(*n), "[scan] compiled names no state: '" + compiled + "'" + suggest(compiled, stateNames()));
  } else {
    error(at(t), "[scan] needs `compiled = \"STATE\"`: the state the compiler emits");
  }
  if (const toml::node* n = t.get("ip")) {
    if (auto v = integer(*n, "[scan] ip")) {
      long long unit = spec_.unitBytes(spec_.target);
      long long lo = -(long long)spec_.beforeBytes(), hi = (long long)spec_.words * unit;
      if (*v < lo || *v >= hi)
        error(at(*n), "[scan] ip = " + std::to_string(*v) + " lies outside the site (bytes " + std::to_string(lo) +
                          " to " + std::to_string(hi - 1) + " from F)");
    }
  }
  if (const toml::table* m = table(t, "symbols", "[scan] symbols"))
    for (auto&& [key, value] : *m) {
      std::string name(key.str());
      if (!spec_.symbol(name)) error(at(key), "[scan] symbols: '" + name + "' is no symbol of the spec");
      else (void)string(value, "[scan] symbols." + name);
    }
}

}  // namespace patchcheck::specloader
