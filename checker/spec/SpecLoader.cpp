// Reads a spec file (docs/spec-format.md) into checker/spec/Spec.h with toml++.
// Every problem is collected, not just the first, each at the file:line:column
// of the key or value at fault; unknown keys are errors, with the closest
// known key suggested, so a typo never passes silently.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <toml++/toml.h>

#include "checker/spec/FetchRegistry.h"
#include "checker/spec/Regions.h"
#include "checker/spec/Spec.h"
#include "checker/spec/SpecTarget.h"
#include "checker/spec/SpecTree.h"
#include "checker/spec/NearSymbols.h"
#include "checker/spec/Suggest.h"
#include "checker/spec/TransitionNames.h"
#include "encoder/Hex.h"
#include "encoder/IsaRegistry.h"

namespace patchcheck {
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

bool isIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == '.')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
  });
}

bool isPowerOfTwo(uint64_t v) { return v && !(v & (v - 1)); }

std::optional<uint64_t> parseNumber(std::string_view s) {
  bool hexa = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  if (hexa) s.remove_prefix(2);
  if (s.empty()) return std::nullopt;
  uint64_t v = 0, base = hexa ? 16 : 10;
  for (char c : s) {
    unsigned d;
    if (std::isdigit((unsigned char)c)) d = unsigned(c - '0');
    else if (hexa && std::isxdigit((unsigned char)c)) d = unsigned(std::tolower((unsigned char)c) - 'a' + 10);
    else return std::nullopt;
    if (v > (~0ull - d) / base) return std::nullopt;
    v = v * base + d;
  }
  return v;
}

// The words a spec may write for a choice, each with what it means: the
// table says it, not the word's position in a list, so reordering or
// adding a name cannot shift the meaning of another.
template <class T>
using NameTable = std::vector<std::pair<std::string, T>>;

template <class T>
std::vector<std::string> namesOf(const NameTable<T>& table) {
  std::vector<std::string> out;
  for (const auto& [name, value] : table) out.push_back(name);
  return out;
}

template <class T>
std::optional<T> lookup(const NameTable<T>& table, std::string_view name) {
  for (const auto& [n, value] : table)
    if (n == name) return value;
  return std::nullopt;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// ISAs and their ABIs come from the plug-ins (encoder/IsaRegistry.h).
NameTable<Target> isaTable() {
  NameTable<Target> out;
  for (const std::string& v : variantNames()) out.push_back({v, *targetNamed(v)});
  return out;
}
NameTable<uint8_t> abiTable(const Target& t) {
  NameTable<uint8_t> out;
  for (std::string_view a : t.isa->abis()) out.push_back({std::string(a), *abiNamed(t, a)});
  return out;
}
const NameTable<Endian> kEndians{{"big", Endian::Big}, {"little", Endian::Little}};
// The names the counterexamples' hints give (model/Effect.h), so a hint
// names only what the loader accepts.
const NameTable<EffectKind> kEffects = [] {
  NameTable<EffectKind> t;
  for (EffectKind k : kAllowableEffects) t.push_back({std::string(name(k)), k});
  return t;
}();
const NameTable<Expect> kExpects{{"safe", Expect::Safe}, {"unsafe", Expect::Unsafe}};
// Every fetch model of the build (checker/fetch/), as errors list them;
// made on first use, since listing asks the ISA plug-ins.
const NameTable<const FetchRules*>& fetchModelTable() {
  static const NameTable<const FetchRules*> t = [] {
    NameTable<const FetchRules*> out;
    for (const FetchRules* m : fetchModelsListed()) out.push_back({std::string(m->name()), m});
    return out;
  }();
  return t;
}
const NameTable<ModelSpec::Breakpoint> kBreakpoints{{"emulate", ModelSpec::Breakpoint::Emulate},
                                                    {"skip", ModelSpec::Breakpoint::Skip},
                                                    {"none", ModelSpec::Breakpoint::None}};
const NameTable<CacheType> kCacheTypes{
    {"DIC0-IDC0", CacheType::Dic0Idc0}, {"DIC0-IDC1", CacheType::Dic0Idc1}, {"DIC1-IDC1", CacheType::Dic1Idc1}};
const NameTable<EntryBranch> kEntryBranches{
    {"direct", EntryBranch::Direct}, {"indirect", EntryBranch::Indirect}, {"both", EntryBranch::Both}};
const NameTable<bool> kPreemption{{"full", true}, {"none", false}};            // ModelSpec::preemption
const NameTable<bool> kUnpredictable{{"fault", false}, {"hardware", true}};    // ModelSpec::unpredictableAsHardware
const NameTable<When> kWhens{{"live", When::Live}, {"stop_machine", When::StopMachine}, {"boot", When::Boot}};
const NameTable<Publish> kPublish{{"eventually", Publish::Eventually}, {"synchronised", Publish::Synchronised}};
const NameTable<StepSpec::Kind> kSteps{{"write", StepSpec::Kind::Write},
                                       {"sync", StepSpec::Kind::Sync},
                                       {"flush", StepSpec::Kind::Flush},
                                       {"sync_core", StepSpec::Kind::Flush},
                                       {"wait", StepSpec::Kind::Wait},
                                       {"dc", StepSpec::Kind::DcCvau},
                                       {"dsb", StepSpec::Kind::Dsb},
                                       {"dmb", StepSpec::Kind::Sync},
                                       {"ic", StepSpec::Kind::IcIvau},
                                       {"isb", StepSpec::Kind::Isb},
                                       {"ipi", StepSpec::Kind::Ipi}};
// The option each arm64 step verb takes (dc cvau I, dsb ish, ...), and
// which verbs take a unit index after it.
const std::map<std::string, std::vector<std::string>> kStepOptions{
    {"dc", {"cvau"}}, {"ic", {"ivau"}}, {"dsb", {"ish", "sy"}}, {"dmb", {"ish", "ishst", "sy", "st"}}};

// A step as FetchRules::OwnStep spells it: lower case, one space between
// words, none around a comma or at either end ("Fence  w, o" -> "fence w,o").
std::string ownStepSpelling(std::string_view text) {
  std::string out;
  bool space = false;
  for (char ch : text) {
    if (std::isspace((unsigned char)ch)) {
      space = !out.empty();
      continue;
    }
    if (space && ch != ',' && out.back() != ',') out += ' ';
    space = false;
    out += char(std::tolower((unsigned char)ch));
  }
  return out;
}

// Is `verb` a step some model names whole (and so no typo)?
bool ownedElsewhere(const std::string& verb) {
  for (const FetchRules* m : fetchModels())
    for (const FetchRules::OwnStep& own : m->ownSteps())
      if (own.spelling.substr(0, own.spelling.find_first_of(" .")) == verb) return true;
  return false;
}
}  // namespace

std::string StepSpec::verb() const {
  size_t from = text.find_first_not_of(" \t"), to = from;
  while (to < text.size() && (std::isalpha((unsigned char)text[to]) || text[to] == '_')) ++to;
  std::string w = from == std::string::npos ? "" : text.substr(from, to - from);
  for (char& ch : w) ch = char(std::tolower((unsigned char)ch));
  return w;
}

namespace {

class SpecLoader {
 public:
  SpecLoader(std::string_view text, const std::string& path) {
    spec_.path = path;
    spec_.text = std::string(text);
    SpecTree tree = locateSpecTree(path);
    spec_.root = tree.root, spec_.trampolineDir = tree.trampolines;
  }

  std::variant<Spec, Diagnostics> run() {
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

 private:
  Spec spec_;
  SourceLocation bodyWhere_;  // [site] body, for errors about it
  Diagnostics errors_;
  bool unitsUnknown_ = false;
  // The alignment every target's instructions have (IsaPlugin::codeAlignment):
  // the smallest `align` and the default.
  uint64_t codeAlign_ = 4;  // a [site] before entry was bad: states cannot be counted
  std::vector<std::string> regionNames_{"kernel-text", "module-text"};

  // ---- positions and errors
  SourceLocation at(const toml::source_region& r) const {
    return {spec_.path, std::max(1u, unsigned(r.begin.line)), std::max(1u, unsigned(r.begin.column))};
  }
  SourceLocation at(const toml::node& n) const { return at(n.source()); }
  SourceLocation at(const toml::key& k) const { return at(k.source()); }
  void error(SourceLocation where, std::string message) {
    errors_.push_back({std::move(where), std::move(message)});
  }
  void syntaxError(const toml::parse_error& e) {
    error(at(e.source()), "TOML syntax: " + std::string(e.description()));
  }

  // Where the text of a string value starts (after its opening quote).
  SourceLocation textStart(const toml::node& n) const {
    SourceLocation where = at(n);
    std::string_view rest = lineAt(where.line);
    rest = rest.substr(std::min(rest.size(), size_t(where.column - 1)));
    bool triple = rest.substr(0, 3) == "\"\"\"" || rest.substr(0, 3) == "'''";
    where.column += triple ? 3 : 1;
    return where;
  }
  std::string_view lineAt(unsigned line) const {
    std::string_view t = spec_.text;
    for (unsigned i = 1; i < line; ++i) {
      size_t nl = t.find('\n');
      if (nl == std::string_view::npos) return {};
      t.remove_prefix(nl + 1);
    }
    return t.substr(0, t.find('\n'));
  }

  // ---- typed access; each reports a wrong type and gives nothing
  void onlyKeys(const toml::table& t, const std::vector<std::string>& known, const std::string& where) {
    for (auto&& [key, value] : t) {
      (void)value;
      if (std::find(known.begin(), known.end(), key.str()) == known.end())
        error(at(key), "unknown key '" + std::string(key.str()) + "' " + where + suggest(key.str(), known));
    }
  }
  void wrongType(const toml::node& n, const std::string& what, std::string_view expected) {
    error(at(n), what + " must be " + std::string(expected) + ", not " + std::string(typeName(n)));
  }
  const toml::table* table(const toml::table& parent, std::string_view key, const std::string& what) {
    const toml::node* n = parent.get(key);
    if (!n) return nullptr;
    if (!n->is_table()) wrongType(*n, what, "a table");
    return n->as_table();
  }
  std::optional<std::string> string(const toml::node& n, const std::string& what) {
    if (auto* s = n.as_string()) return s->get();
    wrongType(n, what, "a string");
    return std::nullopt;
  }
  std::optional<int64_t> integer(const toml::node& n, const std::string& what) {
    if (auto* i = n.as_integer()) return i->get();
    wrongType(n, what, "an integer");
    return std::nullopt;
  }
  std::optional<bool> boolean(const toml::node& n, const std::string& what) {
    if (auto* b = n.as_boolean()) return b->get();
    wrongType(n, what, "true or false");
    return std::nullopt;
  }
  const toml::array* array(const toml::node& n, const std::string& what) {
    if (!n.is_array()) wrongType(n, what, "an array");
    return n.as_array();
  }
  // An address: a non-negative integer, or a string "0x..." for values past
  // TOML's signed 64-bit integers (0xffffffff80000000).
  std::optional<uint64_t> address(const toml::node& n, const std::string& what) {
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
  std::optional<UnitSpec> word(const toml::node& n, const std::string& what) {
    auto s = string(n, what);
    if (!s) return std::nullopt;
    return UnitSpec{*s, textStart(n)};
  }
  std::vector<UnitSpec> words(const toml::node& n, const std::string& what) {
    std::vector<UnitSpec> out;
    if (const toml::array* a = array(n, what))
      for (const toml::node& e : *a)
        if (auto w = word(e, "each word of " + what)) out.push_back(std::move(*w));
    return out;
  }
  // What the name at `n` means in `table`, or an error naming the choices.
  template <class T>
  std::optional<T> choice(const toml::node& n, const std::string& what, const NameTable<T>& table) {
    auto s = string(n, what);
    if (!s) return std::nullopt;
    if (auto v = lookup(table, *s)) return v;
    error(at(n), "unknown " + what + " '" + *s + "'" + suggest(*s, namesOf(table)));
    return std::nullopt;
  }

  // ---- sections
  void load(const toml::table& root) {
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
  void measureBody() {
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

  static std::string stem(const std::string& path) {
    std::string base = path.substr(path.find_last_of('/') + 1);
    return base.substr(0, base.rfind('.'));
  }

  void loadTarget(const toml::table* t) {
    if (!t) return;
    onlyKeys(*t, {"isa", "endian", "abi", "matrix"}, "in [target]");
    const toml::node* isaNode = t->get("isa");
    const toml::node* abiNode = t->get("abi");
    if (isaNode) {
      // The plug-in's byte order unless `endian` says otherwise (arm64: little).
      if (auto isa = choice(*isaNode, "ISA", isaTable())) spec_.target = *isa;
    }
    if (const toml::node* n = t->get("endian"))
      if (auto e = choice(*n, "endian", kEndians)) spec_.target.endian = *e;
    if (abiNode)
      if (auto a = choice(*abiNode, "ABI", abiTable(spec_.target))) spec_.target.abi = *a;
    if (auto problem = spec_.target.problem())
      error(at(abiNode ? *abiNode : *isaNode), *problem);
    if (const toml::node* n = t->get("matrix"))
      if (const toml::array* a = array(*n, "matrix"))
        for (const toml::node& e : *a) matrixEntry(e);
    codeAlign_ = spec_.target.isa->codeAlignment();
    for (const Target& m : spec_.matrix) codeAlign_ = std::max<uint64_t>(codeAlign_, m.isa->codeAlignment());
  }

  void matrixEntry(const toml::node& n) {
    auto s = string(n, "a matrix entry");
    if (!s) return;
    size_t slash = s->find('/');
    auto isa = slash == std::string::npos ? std::nullopt : targetNamed(s->substr(0, slash));
    auto abi = isa ? abiNamed(*isa, s->substr(slash + 1)) : std::nullopt;
    if (!isa || !abi) {
      error(at(n), "matrix entry '" + *s + "' must be ISA/ABI with ISA one of " + joined(variantNames()) +
                   " and ABI one of " + joined(abiNames()) + " (e.g. \"mips64r2/n64\")");
      return;
    }
    Target t{isa->isa, isa->variant, *abi, spec_.target.endian};
    if (auto problem = t.problem()) {
      error(at(n), "matrix entry '" + *s + "': " + *problem);
      return;
    }
    for (const Target& m : spec_.matrix)
      if (m.isa == t.isa && m.variant == t.variant && m.abi == t.abi) {
        error(at(n), "matrix entry '" + *s + "' is listed twice");
        return;
      }
    spec_.matrix.push_back(t);
  }

  void loadSite(const toml::table& t) {
    spec_.byteUnits = spec_.target.isa->patchUnitBytes(spec_.target) == 1;
    onlyKeys(t, {"function", "words", "bytes", "before", "body", "allow_unpredictable", "allow_effects", "entered_by"}, "in [site]");
    spec_.functionWhere = at(t);
    if (const toml::node* n = t.get("function")) {
      spec_.functionWhere = at(*n);
      if (auto f = string(*n, "function")) {
        if (isIdentifier(*f)) spec_.function = *f;
        else error(at(*n), "function '" + *f + "' is not a symbol name");
      }
    }
    // A byte-patched ISA (x86) counts the site in bytes, others in words.
    const char* count = spec_.byteUnits ? "bytes" : "words";
    const char* other = spec_.byteUnits ? "words" : "bytes";
    std::string isa(spec_.target.isa->family());
    if (const toml::node* n = t.get(other))
      error(at(*n), spec_.byteUnits ? "an " + isa + " site is a byte range: [site] bytes = N, not words"
                                    : "[site] bytes is for byte-patched ISAs (x86); " + isa + " sites count words");
    if (const toml::node* n = t.get(count)) {
      spec_.unitsWhere = at(*n);
      if (auto w = integer(*n, count)) {
        if (*w < 1 || *w > 16384) error(at(*n), std::string(count) + " must be between 1 and 16384, not " + std::to_string(*w));
        else spec_.words = unsigned(*w);
      }
    } else if (!t.get(other)) {
      error(at(t), spec_.byteUnits ? "[site] needs `bytes = N`, the number of patchable bytes"
                                   : "[site] needs `words = N`, the number of patchable words");
    }
    if (spec_.byteUnits)
      if (const toml::node* n = t.get("before"))
        error(at(*n), "[site] before is not supported on byte-patched sites (" + isa +
                          ") yet: declare the bytes the transitions write in `bytes`");
    if (const toml::node* n = t.get("before")) {
      const toml::array* a = array(*n, "before");
      unitsUnknown_ = !a;
      for (size_t k = 0; a && k < a->size(); ++k) {
        const toml::node& e = *a->get(k);
        auto b = integer(e, "each length in before");
        // A unit is what one store writes: a power of two up to 8 bytes.
        if (b && (*b == 1 || *b == 2 || *b == 4 || *b == 8)) {
          spec_.before.push_back({unsigned(*b), at(e)});
          continue;
        }
        if (b) error(at(e), "a data unit before " + spec_.function + " is 1, 2, 4 or 8 bytes, not " + std::to_string(*b));
        unitsUnknown_ = true;
      }
    }
    if (const toml::node* n = t.get("body")) {
      spec_.body = words(*n, "body");
      bodyWhere_ = at(*n);
    }
    if (const toml::node* n = t.get("allow_unpredictable"))
      spec_.allowUnpredictable = boolean(*n, "allow_unpredictable").value_or(false);
    if (const toml::node* n = t.get("entered_by"))
      if (auto k = choice(*n, "entered_by", kEntryBranches)) spec_.enteredBy = *k;
    if (const toml::node* n = t.get("allow_effects"))
      if (const toml::array* a = array(*n, "allow_effects"))
        for (const toml::node& e : *a)
          if (auto k = choice(e, "effect", kEffects)) spec_.allowedEffects.insert(*k);
  }

  void loadRegions(const toml::table& t) {
    for (auto&& [key, value] : t) {
      std::string name(key.str());
      const toml::array* a = array(value, "region '" + name + "'");
      if (!a) continue;
      if (a->size() != 2) {
        error(at(value), "region '" + name + "' must be [lo, hi], not " + std::to_string(a->size()) + " values");
        continue;
      }
      auto lo = address(*a->get(0), "the low end of region '" + name + "'");
      auto hi = address(*a->get(1), "the high end of region '" + name + "'");
      if (!lo || !hi) continue;
      if (*lo > *hi) {
        error(at(value), "region '" + name + "' is empty: " + hex(*lo) + " > " + hex(*hi));
        continue;
      }
      spec_.regions.push_back({name, *lo, *hi, at(key)});
      if (std::find(regionNames_.begin(), regionNames_.end(), name) == regionNames_.end())
        regionNames_.push_back(name);
    }
  }

  void loadSymbols(const toml::table& t) {
    for (auto&& [key, value] : t) {
      std::string name(key.str());
      SymbolSpec s{name, std::nullopt, "", codeAlign_, at(key)};
      if (!isIdentifier(name)) error(at(key), "'" + name + "' is not a symbol name");
      const toml::table* fields = value.as_table();
      if (!fields) {
        wrongType(value, "symbol '" + name + "'",
                  "a table such as { in = \"kernel-text\", align = 4 } or { value = 0x80001000 }");
        continue;
      }
      onlyKeys(*fields, {"in", "align", "value", "near", "within"}, "in symbol '" + name + "'");
      bool ok = loadNear(*fields, s);
      if (const toml::node* n = fields->get("in")) {
        auto r = string(*n, "'in'");
        if (r && std::find(regionNames_.begin(), regionNames_.end(), *r) == regionNames_.end()) {
          error(at(*n), "unknown region '" + *r + "'" + suggest(*r, regionNames_));
          ok = false;
        }
        s.region = r.value_or("");
      }
      if (const toml::node* n = fields->get("align")) {
        auto a = integer(*n, "align");
        if (a && (*a < int64_t(codeAlign_) || !isPowerOfTwo(uint64_t(*a)))) {
          error(at(*n), "align must be a power of two >= " + std::to_string(codeAlign_) + ", not " +
                            std::to_string(*a) + " (every " + spec_.target.str() + " instruction is aligned to " +
                            std::to_string(codeAlign_) + ")");
          ok = false;
        } else if (a) {
          s.align = uint64_t(*a);
        }
      }
      if (const toml::node* n = fields->get("value")) {
        s.value = address(*n, "value");
        if (s.value && *s.value % s.align) {
          error(at(*n), "symbol '" + name + "' = " + hex(*s.value) + " is not aligned to " +
                            std::to_string(s.align) + " bytes");
          ok = false;
        }
        if (!s.value) ok = false;
      }
      if (ok && !s.value && s.region.empty() && !fields->get("in")) {
        error(at(value), "symbol '" + name + "' needs `in = \"REGION\"` (symbolic) or `value = ADDRESS` (concrete)");
        ok = false;
      }
      if (ok) spec_.symbols.push_back(std::move(s));
      else spec_.symbols.push_back({name, std::nullopt, "kernel-text", codeAlign_, at(key)});  // no cascade
    }
  }

  // `near = "N", within = W`, both or neither; the names are resolved
  // once every symbol is known (checkNearSymbols).
  bool loadNear(const toml::table& fields, SymbolSpec& s) {
    const toml::node* n = fields.get("near");
    const toml::node* w = fields.get("within");
    if (!n && !w) return true;
    if (!n || !w) {
      error(at(n ? *n : *w), std::string(n ? "`near` needs `within = BYTES`" : "`within` needs `near = \"SYMBOL\"`") +
                                 " in symbol '" + s.name + "'");
      return false;
    }
    auto anchor = string(*n, "'near'");
    auto bytes = integer(*w, "within");
    if (bytes && *bytes <= 0) error(at(*w), "within must be a positive number of bytes, not " + std::to_string(*bytes));
    if (!anchor || !bytes || *bytes <= 0) return false;
    s.near = *anchor, s.within = uint64_t(*bytes), s.nearWhere = at(*n);
    return true;
  }

  // F is symbolic in kernel-text, aligned as the ISA's instructions are,
  // unless [symbols] says otherwise.
  void addFunctionSymbol() {
    if (!spec_.symbol(spec_.function))
      spec_.symbols.push_back({spec_.function, std::nullopt, "kernel-text", codeAlign_, spec_.functionWhere});
  }

  std::vector<std::string> symbolNames() const {
    std::vector<std::string> out;
    for (const SymbolSpec& s : spec_.symbols) out.push_back(s.name);
    return out;
  }
  std::vector<std::string> stateNames() const {
    std::vector<std::string> out;
    for (const StateSpec& s : spec_.states) out.push_back(s.name);
    return out;
  }

  void loadTrampolines(const toml::table& t) {
    for (auto&& [key, value] : t) {
      std::string name(key.str());
      if (!spec_.symbol(name))
        error(at(key), "trampoline for unknown symbol '" + name + "' (declare it in [symbols])" +
                           suggest(name, symbolNames()));
      const toml::node* file = &value;
      // { source = "mips/mcount.S", object = "OBJ:SYMBOL" }: the contract
      // (and the source copy) of `source`, proven on the object's bytes.
      if (auto* both = value.as_table()) {
        onlyKeys(*both, {"source", "object"}, "in trampoline '" + name + "'");
        file = both->get("source");
        const toml::node* object = both->get("object");
        if (!file || !object) {
          error(at(value), "trampoline '" + name + "' as a table needs `source` (its file under trampolines/, "
                           "for the contract) and `object` (\"OBJ:SYMBOL\")");
          continue;
        }
        if (auto named = string(*object, "trampoline '" + name + "' object")) {
          auto colon = named->rfind(':');
          if (colon == std::string::npos || colon == 0 || colon + 1 == named->size()) {
            error(at(*object), "trampoline '" + name + "': object must be \"OBJ:SYMBOL\", not \"" + *named + "\"");
          } else {
            // A relative object path is from the spec's own directory.
            std::filesystem::path obj(named->substr(0, colon));
            if (obj.is_relative()) obj = std::filesystem::path(spec_.path).parent_path() / obj;
            spec_.trampolineObjects[name] = {obj.lexically_normal().string(), named->substr(colon + 1), *named,
                                             at(*object)};
          }
        }
      }
      auto path = string(*file, "trampoline '" + name + "'");
      if (path && path->empty()) error(at(*file), "trampoline '" + name + "' needs a file under trampolines/");
      else if (path) spec_.trampolines[name] = *path, spec_.trampolineWhere[name] = at(*file);
    }
  }

  void loadStates(const toml::table& t) {
    for (auto&& [key, value] : t) {
      StateSpec s{std::string(key.str()), {}, at(key)};
      s.words = words(value, "state '" + s.name + "'");
      if (spec_.byteUnits) {
        // Instructions, as many as fill the site's bytes (checked when assembled).
        if (value.is_array() && value.as_array()->empty())
          error(at(value), "state '" + s.name + "' has no instructions; the site has " + std::to_string(spec_.words) +
                               " bytes");
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

  std::optional<BehaviourSpec> behaviour(const toml::node& n, const std::string& what) {
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

  void loadBehaviour(const toml::table& t) {
    for (auto&& [key, value] : t) {
      std::string name(key.str());
      if (!spec_.state(name))
        error(at(key), "behaviour for unknown state '" + name + "'" + suggest(name, stateNames()));
      if (auto b = behaviour(value, "behaviour '" + name + "'")) spec_.behaviour[name] = std::move(*b);
    }
  }

  // [expect]: what the author claims of a state run alone, as `expect` in
  // a [[transition]] does of a transition.
  void loadStateExpectations(const toml::table& t) {
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
  void loadScan(const toml::table& t) {
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
        long long unit = spec_.target.isa->patchUnitBytes(spec_.target);
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

  void loadModel(const toml::table& t) {
    onlyKeys(t, {"fetch", "cache_type", "line_bytes", "preemption", "delay_slot_interrupts", "unpredictable",
                 "int3_handler", "int3_kernel", "kprobe"},
             "in [model]");
    ModelSpec& m = spec_.model;
    if (const toml::node* n = t.get("fetch"))
      if (auto f = choice(*n, "fetch model", fetchModelTable())) {
        spec_.fetchWhere = at(*n);
        // The ISA names the models its specs may take (an architecture
        // that defines how instruction fetch sees changes, its own only).
        const IsaPlugin& isa = *spec_.target.isa;
        std::string family(isa.family());
        std::string fetch((*f)->name());
        if (allowsFetchModel(isa, **f))
          m.fetch = *f;
        else if (isa.fetchModels().size() == 1)
          error(at(*n), family + " instruction fetch follows its architecture's model: fetch = \"" +
                            std::string(isa.fetchModels().front()) + "\" (the default), not \"" + fetch + "\"");
        else
          error(at(*n), "fetch = \"" + fetch + "\" is " + std::string((*f)->description()) + "; " + family + " uses " +
                            fetchModelsText(isa));
      }
    if (const toml::node* n = t.get("cache_type")) {
      if (!m.fetch->takesCacheType()) {
        std::string which;
        for (const auto& [name, rules] : fetchModelTable())
          if (rules->takesCacheType()) which += (which.empty() ? "fetch = \"" : " or \"") + name + "\"";
        error(at(*n), "cache_type applies to " + which + " only");
      }
      else if (auto c = choice(*n, "cache_type", kCacheTypes)) m.cacheType = *c;
    }
    if (const toml::node* n = t.get("line_bytes"))
      if (auto b = integer(*n, "line_bytes")) {
        if (*b < 4 || *b > 65536 || !isPowerOfTwo(uint64_t(*b)))
          error(at(*n), "line_bytes must be a power of two >= 4, not " + std::to_string(*b));
        else m.lineBytes = unsigned(*b);
      }
    if (const toml::node* n = t.get("preemption"))
      if (auto p = choice(*n, "preemption", kPreemption)) m.preemption = *p;
    if (const toml::node* n = t.get("delay_slot_interrupts"))
      m.delaySlotInterrupts = boolean(*n, "delay_slot_interrupts").value_or(true);
    if (const toml::node* n = t.get("int3_handler")) {
      spec_.breakpointWhere = at(*n);
      if (spec_.target.isa->patching().patchBreakpoint() != std::optional<std::string_view>("int3"))
        error(at(*n), "int3_handler applies to x86 sites (text_poke_bp's breakpoint), not " +
                          std::string(spec_.target.isa->family()));
      else if (auto b = choice(*n, "int3_handler", kBreakpoints)) m.breakpoint = *b;
    }
    if (const toml::node* n = t.get("int3_kernel")) {
      auto v = string(*n, "int3_kernel");
      auto k = v ? KernelVersion::parse(*v) : std::nullopt;
      auto problem = k ? spec_.target.isa->patching().breakpointKernelProblem(*k) : std::nullopt;
      if (!v) {
      } else if (spec_.target.isa->patching().patchBreakpoint() != std::optional<std::string_view>("int3")) {
        error(at(*n), "int3_kernel applies to x86 sites (text_poke_bp's breakpoint), not " +
                          std::string(spec_.target.isa->family()));
      } else if (m.breakpoint != ModelSpec::Breakpoint::Emulate) {
        error(at(*n), "int3_kernel says which instructions the handler emulates; it needs int3_handler = \"emulate\"");
      } else if (!k) {
        error(at(*n), "int3_kernel must be a Linux version MAJOR.MINOR such as \"6.3\", not '" + *v + "'");
      } else if (problem) {
        error(at(*n), "int3_kernel = \"" + k->str() + "\": " + *problem);
      } else {
        m.breakpointKernel = *k;
      }
    }
    if (const toml::node* n = t.get("unpredictable"))
      if (auto u = choice(*n, "unpredictable", kUnpredictable)) m.unpredictableAsHardware = *u;
    if (const toml::node* n = t.get("kprobe"))
      if (auto s = string(*n, "kprobe")) {
        spec_.kprobeWhere = at(*n);
        if (!spec_.target.isa->patching().probeBreakpoint())
          error(at(*n), "kprobe: patchcheck models kprobes on x86, arm64 and MIPS, not " +
                            std::string(spec_.target.isa->family()));
        else if (!spec_.state(*s))
          error(at(*n), "kprobe names the state of the probed instructions: unknown state '" + *s + "'" +
                            suggest(*s, stateNames()));
        else
          m.kprobe = *s;
      }
  }

  void loadTransitions(const toml::node& n) {
    const toml::array* a = n.as_array();
    if (a && a->empty()) return;
    if (!a || !a->is_array_of_tables()) {
      wrongType(n, "transition", "an array of tables, written [[transition]]");
      return;
    }
    for (const toml::node& e : *a) loadTransition(*e.as_table());
    for (Diagnostic& d : checkTransitionNames(spec_)) errors_.push_back(std::move(d));
  }

  void stateRef(const toml::table& t, const char* key, std::string& out) {
    const toml::node* n = t.get(key);
    if (!n) {
      error(at(t), "[[transition]] needs `" + std::string(key) + " = \"STATE\"`");
      return;
    }
    auto s = string(*n, key);
    if (!s) return;
    if (!spec_.state(*s)) error(at(*n), "unknown state '" + *s + "'" + suggest(*s, stateNames()));
    out = *s;
  }

  void loadTransition(const toml::table& t) {
    onlyKeys(t, {"name", "from", "to", "when", "publish", "steps", "expect", "allow"}, "in [[transition]]");
    TransitionSpec tr;
    tr.where = at(t);
    stateRef(t, "from", tr.from);
    stateRef(t, "to", tr.to);
    if (const toml::node* n = t.get("name"))
      if (auto name = string(*n, "name")) {
        if (isTransitionName(*name)) tr.given = *name, tr.nameWhere = at(*n);
        else
          error(at(*n), "transition name '" + *name + "' must be a letter or '_', then letters, digits or '_' (at most " +
                            std::to_string(kMaxTransitionName) + " characters)");
      }
    if (const toml::node* n = t.get("when"))
      if (auto w = choice(*n, "'when'", kWhens)) tr.when = *w;
    if (const toml::node* n = t.get("publish"))
      if (auto p = choice(*n, "'publish'", kPublish)) tr.publish = *p;
    if (const toml::node* n = t.get("expect"))
      if (auto e = choice(*n, "'expect'", kExpects)) tr.expect = *e;
    if (const toml::node* n = t.get("allow")) tr.allow = behaviour(*n, "allow");
    if (const toml::node* n = t.get("steps")) {
      if (const toml::array* a = array(*n, "steps"))
        for (const toml::node& e : *a)
          if (auto text = string(e, "each step"))
            for (StepSpec& s : step(*text, textStart(e))) tr.steps.push_back(std::move(s));
    } else {
      error(at(t), "[[transition]] needs `steps = [...]`");
    }
    spec_.transitions.push_back(std::move(tr));
  }

  // write I | write I = "insn" | sync | flush | wait, and on arm64
  // dc cvau I | dsb ish | dmb ish | ic ivau I | isb | ipi; on x86 write I,
  // write I..J (each byte of the range, in order), write I = "int3",
  // sync_core, wait. One spec step may be several writes.
  std::vector<StepSpec> step(const std::string& text, SourceLocation start) {
    std::optional<unsigned> last;
    auto s = stepOf(text, start, last);
    if (!s) return {};
    if (last) s->range = {s->index, *last};
    std::vector<StepSpec> out{*s};
    for (unsigned u = s->index + 1; last && u <= *last; ++u) {
      out.push_back(*s);
      out.back().index = u;
    }
    return out;
  }

  std::optional<StepSpec> stepOf(const std::string& text, SourceLocation start, std::optional<unsigned>& last) {
    auto where = [&](size_t offset) { return spec_.locate(start, offset); };
    StepSpec s;
    s.text = text;
    s.where = start;
    size_t i = 0;
    auto skipSpace = [&] {
      while (i < text.size() && std::isspace((unsigned char)text[i])) ++i;
    };
    auto word = [&] {
      size_t from = i;
      while (i < text.size() && (std::isalpha((unsigned char)text[i]) || text[i] == '_')) ++i;
      std::string w = text.substr(from, i - from);
      for (char& ch : w) ch = char(std::tolower((unsigned char)ch));
      return w;
    };
    skipSpace();
    size_t verbAt = i;
    std::string verb = word();
    // The steps the spec's fetch model takes ([model] is loaded first).
    const FetchRules& fetch = *spec_.model.fetch;
    const std::string usage = "steps are: " + std::string(fetch.stepUsage());
    // A step the model names whole ("fence w,o", "flush_icache_all").
    std::string whole = ownStepSpelling(text.substr(verbAt));
    std::vector<std::string> known = namesOf(kSteps);
    for (const FetchRules::OwnStep& own : fetch.ownSteps()) {
      if (whole == own.spelling) {
        s.kind = own.kind;
        return s;
      }
      known.emplace_back(own.spelling);
    }
    auto kind = lookup(kSteps, verb);
    if (!kind || !fetch.takesStep(verb)) {
      std::string got = verb.empty() ? text.substr(verbAt) : verb;
      bool own = fetch.takesStep(verb) && !verb.empty();  // its own verb, spelled otherwise ("fence w,x")
      if (own) got = whole;
      std::string why = kind || (!own && ownedElsewhere(verb)) ? stepRefusal(fetch, verb)
                                                              : "unknown step '" + got + "'" + didYouMean(own ? whole : verb, known);
      error(where(verbAt), why + "; " + usage);
      return std::nullopt;
    }
    s.kind = *kind;
    if (auto opt = kStepOptions.find(verb); opt != kStepOptions.end()) {
      skipSpace();
      size_t optAt = i;
      std::string o = word();
      if (std::find(opt->second.begin(), opt->second.end(), o) == opt->second.end()) {
        std::string allowed;
        for (const std::string& a : opt->second) allowed += (allowed.empty() ? "" : ", ") + a;
        error(where(optAt), "'" + verb + "' takes " + allowed + (o.empty() ? "" : ", not '" + o + "'") + "; " + usage);
        return std::nullopt;
      }
    }
    bool indexed = *kind == StepSpec::Kind::Write || *kind == StepSpec::Kind::DcCvau || *kind == StepSpec::Kind::IcIvau;
    if (!indexed) {
      skipSpace();
      if (i == text.size()) return s;
      std::string spelled = text.substr(verbAt, i - verbAt);
      while (!spelled.empty() && std::isspace((unsigned char)spelled.back())) spelled.pop_back();
      error(where(i), "'" + spelled + "' takes nothing after it; " + usage);
      return std::nullopt;
    }
    skipSpace();
    size_t indexAt = i;
    bool negative = i < text.size() && text[i] == '-';
    if (negative) ++i;
    size_t digitsAt = i;
    while (i < text.size() && std::isdigit((unsigned char)text[i])) ++i;
    std::optional<uint64_t> index;
    if (i > digitsAt && i - digitsAt < 6) index = parseNumber(text.substr(digitsAt, i - digitsAt));
    std::string spelled = text.substr(verbAt, digitsAt - verbAt - (negative ? 1 : 0));
    while (!spelled.empty() && std::isspace((unsigned char)spelled.back())) spelled.pop_back();
    if (!index) {
      error(where(indexAt), "'" + spelled + "' needs a " + (spec_.byteUnits ? "byte" : "word") + " index (" + spelled + " I" + (*kind == StepSpec::Kind::Write ? " or write I = \"insn\"" : "") + "); " + usage);
      return std::nullopt;
    }
    long long magnitude = (long long)*index, written = negative ? -magnitude : magnitude;
    auto unit = spec_.unitIndex(written);
    s.index = unit.value_or(0);
    if (spec_.words && !unit) {
      unsigned limit = spec_.words + spec_.bodyUnits();
      std::string site = std::string(spec_.byteUnits ? "site bytes 0.." : "site words 0..") + std::to_string(spec_.words - 1);
      std::string unit = spec_.byteUnits ? "bytes" : "words";
      std::string body = limit == spec_.words
                             ? "no body " + unit + " declared ([site] body)"
                             : "body " + unit + " " + std::to_string(spec_.words) + ".." + std::to_string(limit - 1);
      std::string data = spec_.before.empty() ? ""
                         : spec_.before.size() == 1 ? "; data unit -1"
                                                    : "; data units -" + std::to_string(spec_.before.size()) + "..-1";
      error(where(indexAt), spelled + " " + std::to_string(written) + " is outside the site and its body (" + site +
                                "; " + body + data + ")");
    }
    if (*kind != StepSpec::Kind::Write) {
      skipSpace();
      if (i == text.size()) return s;
      error(where(i), "unexpected text after '" + spelled + " " + std::to_string(written) + "'");
      return std::nullopt;
    }
    skipSpace();
    if (i == text.size()) return s;
    if (spec_.byteUnits && text.compare(i, 2, "..") == 0) {
      // write I..J: bytes I to J, each its own store (memcpy's order is not
      // the fetch's; under the x86 model they may land in any order anyway).
      size_t toAt = i + 2, d = toAt;
      while (d < text.size() && std::isdigit((unsigned char)text[d])) ++d;
      std::optional<uint64_t> to;
      if (d > toAt && d - toAt < 6) to = parseNumber(text.substr(toAt, d - toAt));
      auto toUnit = to ? spec_.unitIndex((long long)*to) : std::nullopt;
      if (!to || (long long)*to <= magnitude || negative || (spec_.words && !toUnit)) {
        error(where(toAt), "'write " + std::to_string(written) + "..J' needs a byte J after " +
                               std::to_string(written) + " within the site's " + std::to_string(spec_.words) + " bytes");
        return std::nullopt;
      }
      i = d;
      skipSpace();
      if (i != text.size()) {
        error(where(i), "unexpected text after the byte range");
        return std::nullopt;
      }
      last = toUnit.value_or(s.index);
      return s;
    }
    if (!spec_.byteUnits && text.compare(i, 2, "..") == 0) {
      error(where(i), "a byte range 'write I..J' is for byte sites ([site] bytes = N); a word site writes one "
                      "word a step");
      return std::nullopt;
    }
    if (text[i] != '=') {
      error(where(i), "expected '= \"insn\"'" + std::string(spec_.byteUnits ? ", '..J'" : "") +
                          " or the end after 'write " + std::to_string(written) + "'");
      return std::nullopt;
    }
    ++i;
    skipSpace();
    char quote = i < text.size() ? text[i] : '\0';
    size_t close = quote == '"' || quote == '\'' ? text.find(quote, i + 1) : std::string::npos;
    if (close == std::string::npos) {
      error(where(i), "expected a quoted instruction after '=' (write I = \"insn\")");
      return std::nullopt;
    }
    size_t end = close + 1;
    while (end < text.size() && std::isspace((unsigned char)text[end])) ++end;
    if (end != text.size()) {
      error(where(end), "unexpected text after the interim instruction");
      return std::nullopt;
    }
    s.interim = UnitSpec{text.substr(i + 1, close - i - 1), where(i + 1)};
    return s;
  }

  // The errors that depend on the target, for the default and each matrix
  // entry; one that holds only for some targets names them.
  void checkTargets() {
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
};

}  // namespace

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
  return SpecLoader(text, path).run();
}

std::variant<Spec, Diagnostics> loadSpec(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Diagnostics{{{path, 0, 0}, "cannot read the spec file"}};
  std::ostringstream text;
  text << in.rdbuf();
  return parseSpec(text.str(), path);
}

std::string_view name(CacheType c) {
  for (const auto& [n, k] : kCacheTypes)
    if (k == c) return n;
  return "?";
}

std::optional<CacheType> cacheTypeNamed(std::string_view n) { return lookup(kCacheTypes, n); }

}  // namespace patchcheck
