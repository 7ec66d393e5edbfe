#include "checker/spec/FetchRegistry.h"

#include <algorithm>
#include <stdexcept>

#include "encoder/IsaRegistry.h"

// One `PATCHCHECK_FETCH_MODEL(name)` line per file of checker/fetch/, written by CMake.
#define PATCHCHECK_FETCH_MODEL(file) \
  namespace patchcheck::fetch { const ::patchcheck::FetchRules& file(); }
#include "FetchModels.inc"
#undef PATCHCHECK_FETCH_MODEL

namespace patchcheck {

std::span<const FetchRules* const> fetchModels() {
#define PATCHCHECK_FETCH_MODEL(file) &fetch::file(),
  static const FetchRules* const all[] = {
#include "FetchModels.inc"
  };
#undef PATCHCHECK_FETCH_MODEL
  return all;
}

const FetchRules* fetchModelNamed(std::string_view name) {
  for (const FetchRules* m : fetchModels())
    if (m->name() == name) return m;
  return nullptr;
}

std::vector<const FetchRules*> fetchModelsOf(const IsaPlugin& isa) {
  std::vector<const FetchRules*> out;
  for (std::string_view n : isa.fetchModels())
    if (const FetchRules* m = fetchModelNamed(n)) out.push_back(m);
  return out;
}

const FetchRules& defaultFetchModel(const IsaPlugin& isa) {
  const FetchRules* m = fetchModelNamed(isa.defaultFetchModel());
  // A plug-in naming a model the build lacks is a build fault, not a spec's:
  // no other model is quietly put in its place (unit.spec_loader checks
  // every plug-in's names).
  if (!m)
    throw std::logic_error(std::string(isa.family()) + " names the fetch model '" +
                           std::string(isa.defaultFetchModel()) + "', which no file of checker/fetch/ defines");
  return *m;
}

bool allowsFetchModel(const IsaPlugin& isa, const FetchRules& m) {
  auto ns = isa.fetchModels();
  return std::find(ns.begin(), ns.end(), m.name()) != ns.end();
}

std::vector<const FetchRules*> fetchModelsListed() {
  std::vector<const FetchRules*> out;
  auto add = [&](const FetchRules* m) {
    if (m && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  };
  const IsaPlugin* first = defaultTarget().isa;
  for (const FetchRules* m : fetchModelsOf(*first)) add(m);
  for (const IsaPlugin* isa : isas())
    for (const FetchRules* m : fetchModelsOf(*isa)) add(m);
  for (const FetchRules* m : fetchModels()) add(m);
  return out;
}

std::vector<std::string> choosableFetchModelNames() {
  std::vector<std::string> out;
  for (const FetchRules* m : fetchModelsListed())
    for (const IsaPlugin* isa : isas())
      if (isa->fetchModels().size() > 1 && allowsFetchModel(*isa, *m)) {
        out.emplace_back(m->name());
        break;
      }
  return out;
}

std::string fetchModelsText(const IsaPlugin& isa) {
  std::vector<const FetchRules*> ms = fetchModelsOf(isa);
  std::string out;
  for (size_t i = 0; i < ms.size(); ++i)
    out += (i == 0 ? "" : i + 1 == ms.size() ? " or " : ", ") + std::string(ms[i]->name());
  return out;
}

std::string stepRefusal(const FetchRules& m, std::string_view verb) {
  if (std::string own = m.refusal(verb); !own.empty()) return own;
  for (const FetchRules* other : fetchModels())
    if (other->takesStep(verb) && !other->stepOwner().empty())
      return "'" + std::string(verb) + "' is " + std::string(other->stepOwner());
  return "'" + std::string(verb) + "' is no step of fetch = \"" + std::string(m.name()) + "\"";
}

}  // namespace patchcheck
