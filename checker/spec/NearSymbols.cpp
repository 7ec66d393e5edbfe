#include "checker/spec/NearSymbols.h"

#include <algorithm>
#include <map>

#include "checker/spec/Suggest.h"

namespace patchcheck {

Diagnostics checkNearSymbols(const std::vector<SymbolSpec>& symbols) {
  Diagnostics out;
  std::map<std::string, const SymbolSpec*> byName;
  std::vector<std::string> names;
  for (const SymbolSpec& s : symbols) byName.emplace(s.name, &s), names.push_back(s.name);
  for (const SymbolSpec& s : symbols) {
    if (s.near.empty()) continue;
    if (s.near == s.name) {
      out.push_back({s.nearWhere, "symbol '" + s.name + "' cannot be near itself"});
      continue;
    }
    if (!byName.count(s.near)) {
      out.push_back({s.nearWhere, "'near' names unknown symbol '" + s.near + "'" + suggest(s.near, names)});
      continue;
    }
    // Follow the chain; coming back to s is a cycle, reported at s.
    auto next = [&](const SymbolSpec* x) -> const SymbolSpec* {
      auto it = x->near.empty() ? byName.end() : byName.find(x->near);
      return it == byName.end() ? nullptr : it->second;
    };
    std::vector<std::string> chain{s.name};
    for (const SymbolSpec* x = next(&s); x; x = next(x)) {
      if (x->name == s.name) {
        std::string path;
        for (const std::string& n : chain) path += n + " -> ";
        out.push_back({s.nearWhere, "symbol '" + s.name + "' is near itself through " + path + s.name +
                                        " (`near` must not form a cycle)"});
        break;
      }
      if (std::find(chain.begin(), chain.end(), x->name) != chain.end()) break;  // a cycle not through s
      chain.push_back(x->name);
    }
  }
  return out;
}

}  // namespace patchcheck
