#include "checker/spec/TransitionNames.h"

#include <cctype>
#include <map>

#include "checker/spec/Suggest.h"

namespace patchcheck {

std::string cIdentifier(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum((unsigned char)c) ? char(std::tolower((unsigned char)c)) : '_';
  if (out.empty() || std::isdigit((unsigned char)out[0])) out = "_" + out;
  return out;
}

std::string transitionCName(const std::string& name, const std::string& from, const std::string& to) {
  // A derived name keeps the identifier tables have always had.
  if (name == from + "->" + to) return cIdentifier(from) + "_to_" + cIdentifier(to);
  return cIdentifier(name);
}

bool isTransitionName(std::string_view s) {
  if (s.empty() || s.size() > kMaxTransitionName) return false;
  if (!(std::isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum((unsigned char)c) || c == '_')) return false;
  return true;
}

std::vector<const TransitionSpec*> Spec::transitionsNamed(const std::string& x) const {
  std::vector<const TransitionSpec*> out;
  for (const TransitionSpec& t : transitions)
    if (t.name() == x) return {&t};
  for (const TransitionSpec& t : transitions)
    if (t.from + "->" + t.to == x) out.push_back(&t);
  return out;
}

std::variant<const TransitionSpec*, std::string> Spec::transitionNamed(const std::string& x) const {
  std::vector<const TransitionSpec*> found = transitionsNamed(x);
  if (found.size() == 1) return found.front();
  std::string names;
  for (const TransitionSpec* t : found) names += (names.empty() ? "" : ", ") + t->name();
  if (!found.empty())
    return "--transition '" + x + "' is " + std::to_string(found.size()) + " transitions of " + path +
           "; name one: " + names;
  std::vector<std::string> known;
  for (const TransitionSpec& t : transitions) {
    names += (names.empty() ? "" : ", ") + t.name();
    known.push_back(t.name());
    if (t.name() != t.from + "->" + t.to) known.push_back(t.from + "->" + t.to);
  }
  return "--transition: no transition '" + x + "' in " + path + didYouMean(x, known) +
         (names.empty() ? "" : "; it has " + names);
}

Diagnostics checkTransitionNames(const Spec& spec) {
  Diagnostics errors;
  auto at = [](const TransitionSpec& t) { return t.given.empty() ? t.where : t.nameWhere; };
  auto line = [](const SourceLocation& w) { return std::to_string(w.line) + ":" + std::to_string(w.column); };
  // Two transitions between the same states are told apart by name only.
  std::map<std::pair<std::string, std::string>, std::vector<const TransitionSpec*>> byStates;
  for (const TransitionSpec& t : spec.transitions) byStates[{t.from, t.to}].push_back(&t);
  for (const TransitionSpec& t : spec.transitions) {
    const auto& same = byStates[{t.from, t.to}];
    if (same.size() < 2 || !t.given.empty()) continue;
    std::string others;
    for (const TransitionSpec* o : same)
      if (o != &t) others += (others.empty() ? "" : ", ") + line(o->where);
    errors.push_back({t.where, "[[transition]] " + t.from + "->" + t.to + " needs a `name = \"...\"`: the one" +
                                   (same.size() > 2 ? "s" : "") + " at " + others + " go" +
                                   (same.size() > 2 ? "" : "es") + " from '" + t.from + "' to '" + t.to +
                                   "' too, and outputs tell transitions apart by name"});
  }
  // Each identifier once: a name, and what it is in a table's C header.
  std::map<std::string, const TransitionSpec*> names, idents;
  std::map<std::string, std::string> stateIdents;
  for (const StateSpec& s : spec.states) stateIdents.emplace(cIdentifier(s.name), s.name);
  for (const TransitionSpec& t : spec.transitions) {
    std::string n = t.name(), id = transitionCName(n, t.from, t.to);
    if (auto [it, fresh] = names.emplace(n, &t); !fresh) {
      if (!t.given.empty() || !it->second->given.empty())
        errors.push_back({at(t), "transition name '" + n + "' is also the name of the transition at " +
                                     line(it->second->where)});
      continue;  // two unnamed ones: reported above
    }
    if (auto it = idents.find(id); it != idents.end())
      errors.push_back({at(t), "transition '" + n + "' and transition '" + it->second->name() + "' (at " +
                                   line(it->second->where) + ") are both '" + id +
                                   "' in a table's C header; rename one"});
    else if (auto s = stateIdents.find(id); s != stateIdents.end())
      errors.push_back({at(t), "transition '" + n + "' and state '" + s->second + "' are both '" + id +
                                   "' in a table's C header; rename one"});
    idents.emplace(id, &t);
  }
  return errors;
}

}  // namespace patchcheck
