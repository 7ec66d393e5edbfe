// [[transition]]: from which state to which, when, and the steps that
// take the site there (write I, sync, dc cvau I, write I..J, ...), each
// step checked against the spec's fetch model. Part of the spec loader
// (SpecLoaderImpl.h).
#include <algorithm>
#include <cctype>
#include <map>

#include <toml++/toml.h>

#include "checker/spec/FetchRegistry.h"
#include "checker/spec/Spec.h"
#include "checker/spec/SpecLoaderImpl.h"
#include "checker/spec/Suggest.h"
#include "checker/spec/TransitionNames.h"

namespace patchcheck::specloader {
namespace {

const NameTable<When> kWhens{{"live", When::Live}, {"stop_machine", When::StopMachine}, {"boot", When::Boot}, {"early", When::Early}};
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
                                       {"ipi", StepSpec::Kind::Ipi},
                                       {"run", StepSpec::Kind::Run}};
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

void SpecLoader::loadTransitions(const toml::node& n) {
  const toml::array* a = n.as_array();
  if (a && a->empty()) return;
  if (!a || !a->is_array_of_tables()) {
    wrongType(n, "transition", "an array of tables, written [[transition]]");
    return;
  }
  for (const toml::node& e : *a) loadTransition(*e.as_table());
  for (Diagnostic& d : checkTransitionNames(spec_)) errors_.push_back(std::move(d));
}

void SpecLoader::stateRef(const toml::table& t, const char* key, std::string& out) {
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

void SpecLoader::loadTransition(const toml::table& t) {
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
  bool runs = false;
  for (const StepSpec& s : tr.steps)
    if (s.kind == StepSpec::Kind::Run) {
      runs = true;
      if (tr.when != When::Early)
        error(s.where, "'run' (the writer's own CPU runs the site here) needs when = \"early\": under other "
                       "'when' any CPU may run the site at any time");
    }
  if (tr.when == When::Early && !runs && !tr.steps.empty())
    error(at(t), "when = \"early\" needs a 'run' step: where the writer's own CPU may run the site "
                 "(it also runs it before the first step and after the last)");
  // irq_window opens the site to passes that stop_machine otherwise keeps
  // out; a live transition's passes run between every two steps already.
  for (const StepSpec& s : tr.steps)
    if (s.kind == StepSpec::Kind::IrqWindow && tr.when != When::StopMachine)
      error(s.where, "'irq_window' is for a `when = \"stop_machine\"` transition (interrupts off on the only "
                     "running CPU); a " + std::string(tr.when == When::Live ? "live" : "boot") +
                         " transition has no such window");
  spec_.transitions.push_back(std::move(tr));
}

// write I | write I = "insn" | sync | flush | wait, and on arm64
// dc cvau I | dsb ish | dmb ish | ic ivau I | isb | ipi; on x86 write I,
// write I..J (each byte of the range, in order), write I = "int3",
// sync_core, wait. One spec step may be several writes.
std::vector<StepSpec> SpecLoader::step(const std::string& text, SourceLocation start) {
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

std::optional<StepSpec> SpecLoader::stepOf(const std::string& text, SourceLocation start, std::optional<unsigned>& last) {
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
  // `run` is the writer's own CPU running the site, under every model
  // (loadTransition holds it to when = "early").
  if (kind == StepSpec::Kind::Run) {
    s.kind = *kind;
    skipSpace();
    if (i == text.size()) return s;
    error(where(i), "'run' takes nothing after it; " + usage);
    return std::nullopt;
  }
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
    if (i < text.size() && text[i] == '=') {
      ++i;
      if (!stateSource(text, i, where, s, toUnit.value_or(s.index))) return std::nullopt;
    } else if (i != text.size()) {
      error(where(i), "unexpected text after the byte range (expected the end or '= STATE')");
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
  if (spec_.byteUnits && i < text.size() && (std::isalpha((unsigned char)text[i]) || text[i] == '_')) {
    if (!stateSource(text, i, where, s, s.index)) return std::nullopt;
    return s;
  }
  char quote = i < text.size() ? text[i] : '\0';
  size_t close = quote == '"' || quote == '\'' ? text.find(quote, i + 1) : std::string::npos;
  if (close == std::string::npos) {
    error(where(i), spec_.byteUnits ? "expected a quoted instruction or a state after '=' (write I = \"insn\", write I = STATE)"
                                    : "expected a quoted instruction after '=' (write I = \"insn\")");
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

// The STATE of `write I = STATE` / `write I..J = STATE`, from text[i] on
// (after the '='): a declared state, and the written units the site's.
bool SpecLoader::stateSource(const std::string& text, size_t i,
                             const std::function<SourceLocation(size_t)>& where, StepSpec& s, unsigned last) {
  while (i < text.size() && std::isspace((unsigned char)text[i])) ++i;
  size_t from = i;
  while (i < text.size() && (std::isalnum((unsigned char)text[i]) || text[i] == '_' || text[i] == '-')) ++i;
  std::string name = text.substr(from, i - from);
  size_t end = i;
  while (end < text.size() && std::isspace((unsigned char)text[end])) ++end;
  if (name.empty() || end != text.size()) {
    error(where(name.empty() ? from : end), name.empty() ? "expected a state after '='"
                                                         : "unexpected text after the state '" + name + "'");
    return false;
  }
  if (!spec_.state(name)) {
    error(where(from), "unknown state '" + name + "'" + suggest(name, stateNames()));
    return false;
  }
  if (spec_.words && last >= spec_.words) {
    error(where(from), "'write ... = " + name + "' writes a unit past the site: a state holds the site's units only");
    return false;
  }
  s.source = name;
  s.sourceWhere = where(from);
  return true;
}

}  // namespace patchcheck::specloader

namespace patchcheck {

std::string StepSpec::verb() const {
  size_t from = text.find_first_not_of(" \t"), to = from;
  while (to < text.size() && (std::isalpha((unsigned char)text[to]) || text[to] == '_')) ++to;
  std::string w = from == std::string::npos ? "" : text.substr(from, to - from);
  for (char& ch : w) ch = char(std::tolower((unsigned char)ch));
  return w;
}

}  // namespace patchcheck
