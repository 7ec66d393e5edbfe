// Reads a spec file (docs/spec-format.md) into checker/spec/Spec.h with toml++.
// Every problem is collected, not just the first, each at the file:line:column
// of the key or value at fault; unknown keys are errors, with the closest
// known key suggested, so a typo never passes silently.
// This file drives the loader (SpecLoader::load) and holds what every
// section uses: positions, errors and typed access. The sections are read
// in SpecLoad{Site,States,Model,Transitions}.cpp (SpecLoaderImpl.h).
#include <algorithm>
#include <fstream>
#include <sstream>
#include <tuple>

#include <toml++/toml.h>

#include "checker/spec/FetchRegistry.h"
#include "checker/spec/NearSymbols.h"
#include "checker/spec/Spec.h"
#include "checker/spec/SpecLoaderImpl.h"
#include "checker/spec/SpecTarget.h"
#include "checker/spec/Suggest.h"
#include "encoder/IsaRegistry.h"

namespace patchcheck::specloader {
namespace {

std::string_view typeName(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time: return "a date/time";
    default: return "nothing";
  }
}

}  // namespace

std::variant<Spec, Diagnostics> SpecLoader::run() {
#if TOML_EXCEPTIONS
  try {
    toml::table root = toml::parse(spec_.text, spec_.path);
    load(root);
  } catch (const toml::parse_error& e) {
    syntaxError(e);
  }
#else
  toml::parse_result parsed = toml::parse(spec_.text, spec_.path);
  if (parsed) load(parsed.table());
  else syntaxError(parsed.error());
#endif
  if (errors_.empty()) return std::move(spec_);
  std::stable_sort(errors_.begin(), errors_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.where.line, a.where.column) < std::tie(b.where.line, b.where.column);
  });
  return std::move(errors_);
}

SourceLocation SpecLoader::at(const toml::source_region& r) const {
  return {spec_.path, std::max(1u, unsigned(r.begin.line)), std::max(1u, unsigned(r.begin.column))};
}

void SpecLoader::error(SourceLocation where, std::string message) {
  errors_.push_back({std::move(where), std::move(message)});
}

void SpecLoader::syntaxError(const toml::parse_error& e) {
  error(at(e.source()), "TOML syntax: " + std::string(e.description()));
}

// Where the text of a string value starts (after its opening quote).
SourceLocation SpecLoader::textStart(const toml::node& n) const {
  SourceLocation where = at(n);
  std::string_view rest = lineAt(where.line);
  rest = rest.substr(std::min(rest.size(), size_t(where.column - 1)));
  bool triple = rest.substr(0, 3) == "\"\"\"" || rest.substr(0, 3) == "'''";
  where.column += triple ? 3 : 1;
  return where;
}

std::string_view SpecLoader::lineAt(unsigned line) const {
  std::string_view t = spec_.text;
  for (unsigned i = 1; i < line; ++i) {
    size_t nl = t.find('\n');
    if (nl == std::string_view::npos) return {};
    t.remove_prefix(nl + 1);
  }
  return t.substr(0, t.find('\n'));
}

void SpecLoader::onlyKeys(const toml::table& t, const std::vector<std::string>& known, const std::string& where) {
  for (auto&& [key, value] : t) {
    (void)value;
    if (std::find(known.begin(), known.end(), key.str()) == known.end())
      error(at(key), "unknown key '" + std::string(key.str()) + "' " + where + suggest(key.str(), known));
  }
}

void SpecLoader::wrongType(const toml::node& n, const std::string& what, std::string_view expected) {
  error(at(n), what + " must be " + std::string(expected) + ", not " + std::string(typeName(n)));
}

const toml::table* SpecLoader::table(const toml::table& parent, std::string_view key, const std::string& what) {
  const toml::node* n = parent.get(key);
  if (!n) return nullptr;
  if (!n->is_table()) wrongType(*n, what, "a table");
  return n->as_table();
}

std::optional<std::string> SpecLoader::string(const toml::node& n, const std::string& what) {
  if (auto* s = n.as_string()) return s->get();
  wrongType(n, what, "a string");
  return std::nullopt;
}

std::optional<int64_t> SpecLoader::integer(const toml::node& n, const std::string& what) {
  if (auto* i = n.as_integer()) return i->get();
  wrongType(n, what, "an integer");
  return std::nullopt;
}

std::optional<bool> SpecLoader::boolean(const toml::node& n, const std::string& what) {
  if (auto* b = n.as_boolean()) return b->get();
  wrongType(n, what, "true or false");
  return std::nullopt;
}

const toml::array* SpecLoader::array(const toml::node& n, const std::string& what) {
  if (!n.is_array()) wrongType(n, what, "an array");
  return n.as_array();
}

// An address: a non-negative integer, or a string "0x..." for values past
// TOML's signed 64-bit integers (0xffffffff80000000).
std::optional<uint64_t> SpecLoader::address(const toml::node& n, const std::string& what) {
  if (auto* i = n.as_integer()) {
    if (i->get() >= 0) return uint64_t(i->get());
    error(at(n), what + " must not be negative; write addresses above 0x7fffffffffffffff "
                        "as strings, e.g. \"0xffffffff80000000\"");
    return std::nullopt;
  }
  if (auto* s = n.as_string()) {
    if (auto v = parseNumber(s->get())) return v;
    error(at(n), what + " '" + s->get() + "' is not a 64-bit address (decimal or 0x hex)");
    return std::nullopt;
  }
  wrongType(n, what, "an integer or a \"0x...\" string");
  return std::nullopt;
}

std::optional<UnitSpec> SpecLoader::word(const toml::node& n, const std::string& what) {
  auto s = string(n, what);
  if (!s) return std::nullopt;
  return UnitSpec{*s, textStart(n)};
}

std::vector<UnitSpec> SpecLoader::words(const toml::node& n, const std::string& what) {
  std::vector<UnitSpec> out;
  if (const toml::array* a = array(n, what))
    for (const toml::node& e : *a)
      if (auto w = word(e, "each word of " + what)) out.push_back(std::move(*w));
  return out;
}

void SpecLoader::load(const toml::table& root) {
  onlyKeys(root, {"schema", "name", "summary", "target", "site", "symbols", "regions", "trampolines",
                  "states", "behaviour", "expect", "model", "transition", "scan"},
           "at the top level");
  SourceLocation top{spec_.path, 1, 1};
  if (const toml::node* n = root.get("schema")) {
    if (auto v = integer(*n, "schema")) {
      if (*v != 1) error(at(*n), "schema " + std::to_string(*v) + " is not supported (this patchcheck reads schema 1)");
      spec_.schema = int(*v);
    }
  } else {
    error(top, "missing 'schema = 1' at the top level");
  }
  if (const toml::node* n = root.get("name")) spec_.name = string(*n, "name").value_or("");
  else spec_.name = stem(spec_.path);
  if (const toml::node* n = root.get("summary")) spec_.summary = string(*n, "summary").value_or("");

  size_t before = errors_.size();
  spec_.target = defaultTarget();  // a spec without [target]
  loadTarget(table(root, "target", "[target]"));
  spec_.model.fetch = &defaultFetchModel(*spec_.target.isa);
  const toml::table* site = table(root, "site", "[site]");
  if (site) loadSite(*site);
  else if (!root.get("site")) error(top, "missing [site] (at least `words = N`)");
  if (auto* t = table(root, "regions", "[regions]")) loadRegions(*t);
  if (auto* t = table(root, "symbols", "[symbols]")) loadSymbols(*t);
  addFunctionSymbol();
  for (Diagnostic& d : checkNearSymbols(spec_.symbols)) error(d.where, std::move(d.message));
  if (auto* t = table(root, "trampolines", "[trampolines]")) loadTrampolines(*t);
  // Errors above would make every word's assembly fail in the same way.
  bool foundationOk = errors_.size() == before;
  if (foundationOk && spec_.byteUnits && !spec_.body.empty()) measureBody();

  const toml::table* states = table(root, "states", "[states]");
  if (states) loadStates(*states);
  if (!root.get("states") || (states && states->empty()))
    error(states ? at(*states) : top, "[states] must name at least one state");
  const toml::table* behaviour = table(root, "behaviour", "[behaviour]");
  if (behaviour) loadBehaviour(*behaviour);
  if (states && (behaviour || !root.get("behaviour")))
    for (const StateSpec& s : spec_.states)
      if (!behaviour || !behaviour->get(s.name))
        error(s.where, "state '" + s.name + "' has no behaviour: add `" + s.name +
                           " = \"untraced\"` (or call/enter) to [behaviour]");
  if (auto* t = table(root, "expect", "[expect]")) loadStateExpectations(*t);
  if (auto* t = table(root, "model", "[model]")) loadModel(*t);
  if (const toml::node* n = root.get("transition")) loadTransitions(*n);
  if (auto* t = table(root, "scan", "[scan]")) loadScan(*t);

  if (foundationOk) checkTargets();
}

// A byte site's body is instructions: its length in bytes (the units
// after the site) is known once assembled. It must not depend on the
// target, as a write index into it would not. An assembly error is
// reported with the states', which include the body.
void SpecLoader::measureBody() {
  std::optional<unsigned> first;
  std::string firstLabel;
  for (const Target& t : specTargets(spec_)) {
    auto r = bodyLength(spec_, t);
    auto* n = std::get_if<unsigned>(&r);
    if (!n) continue;
    std::string label = std::string(t.variantName()) + "/" + std::string(t.abiName());
    if (!first) {
      first = *n, firstLabel = label;
    } else if (*n != *first) {
      error(bodyWhere_, "the body is " + std::to_string(*first) + " bytes for " + firstLabel + " but " +
                            std::to_string(*n) + " for " + label + ": a body's length must not depend on the target");
      return;
    }
  }
  spec_.bodyBytes = first.value_or(0);
}

std::string SpecLoader::stem(const std::string& path) {
  std::string base = path.substr(path.find_last_of('/') + 1);
  return base.substr(0, base.rfind('.'));
}

// The errors that depend on the target, for the default and each matrix
// entry; one that holds only for some targets names them.
void SpecLoader::checkTargets() {
  std::vector<Target> targets = specTargets(spec_);
  struct Found {
    Diagnostic d;
    std::vector<std::string> targets;
  };
  std::vector<Found> found;
  for (const Target& t : targets) {
    std::string label = std::string(t.variantName()) + "/" + std::string(t.abiName());
    for (const Diagnostic& d : checkSpecForTarget(spec_, t)) {
      auto same = [&](const Found& f) {
        return f.d.message == d.message && f.d.where.line == d.where.line && f.d.where.column == d.where.column;
      };
      auto it = std::find_if(found.begin(), found.end(), same);
      if (it == found.end()) found.push_back({d, {label}});
      else if (std::find(it->targets.begin(), it->targets.end(), label) == it->targets.end())
        it->targets.push_back(label);
    }
  }
  for (Found& f : found) {
    if (f.targets.size() < targets.size()) {
      std::string list;
      for (const std::string& l : f.targets) list += (list.empty() ? "" : ", ") + l;
      f.d.message += " [for " + list + "]";
    }
    errors_.push_back(std::move(f.d));
  }
}

}  // namespace patchcheck::specloader

namespace patchcheck {

SourceLocation Spec::locate(const SourceLocation& start, size_t offset) const {
  SourceLocation at = start;
  std::string_view t = text;
  for (unsigned i = 1; i < start.line; ++i) {
    size_t nl = t.find('\n');
    if (nl == std::string_view::npos) {
      t = {};
      break;
    }
    t.remove_prefix(nl + 1);
  }
  std::string_view line = t.substr(0, t.find('\n'));
  if (start.line == 0 || start.column == 0 || start.column - 1 > line.size()) {
    at.column += unsigned(offset);
    return at;
  }
  size_t i = start.column - 1;
  bool literal = i > 0 && line[i - 1] == '\'';  // '...' strings have no escapes
  size_t n = 0;
  for (; n < offset && i < line.size(); ++n) {
    if (!literal && line[i] == '\\' && i + 1 < line.size())
      i += line[i + 1] == 'u' ? 6 : line[i + 1] == 'U' ? 10 : 2;
    else
      ++i;
  }
  at.column = unsigned(i + 1 + (offset - n));
  return at;
}

std::variant<Spec, Diagnostics> parseSpec(std::string_view text, const std::string& path) {
  return specloader::SpecLoader(text, path).run();
}

std::variant<Spec, Diagnostics> loadSpec(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Diagnostics{{{path, 0, 0}, "cannot read the spec file"}};
  std::ostringstream text;
  text << in.rdbuf();
  return parseSpec(text.str(), path);
}

}  // namespace patchcheck
