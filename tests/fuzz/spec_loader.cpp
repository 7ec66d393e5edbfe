// The TOML spec loader on arbitrary text (the whole file: site, symbols,
// regions, states, behaviours, steps, model, expectations). Properties: a
// rejection points at a line of the input; loading the same text twice
// gives the same spec (determinism: nothing depends on addresses, time or
// iteration order of unordered containers).
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "checker/spec/FetchRules.h"
#include "checker/spec/Spec.h"
#include "tests/fuzz/FuzzProperty.h"

using namespace patchcheck;

namespace {

void put(std::ostream& o, const SourceLocation& w) { o << '@' << w.file << ':' << w.line << ':' << w.column << ' '; }
void put(std::ostream& o, const UnitSpec& w) { o << '[' << w.text << ']', put(o, w.where); }
void put(std::ostream& o, const BehaviourSpec& b) {
  o << '{' << b.str() << '|' << b.text << '}';
  put(o, b.where);
  for (const OutcomeSpec& a : b.alternatives) {
    o << int(a.kind) << a.target << '+' << a.offset;
    put(o, a.where);
    for (const ConditionSpec& c : a.with) o << c.reg << "==" << c.value, put(o, c.where);
  }
}

// Every field of the loaded spec, locations included, as text.
std::string dump(const Spec& s) {
  std::ostringstream o;
  o << s.path << '\n' << s.schema << s.name << '\n' << s.summary << '\n' << s.target.str() << '\n';
  for (const auto& t : s.matrix) o << t.str() << ' ';
  o << '\n' << s.function << ' ' << s.words << ' ' << s.allowUnpredictable << '\n';
  put(o, s.functionWhere);
  for (const auto& w : s.body) put(o, w);
  for (auto e : s.allowedEffects) o << int(e) << ' ';
  for (const auto& y : s.symbols)
    o << y.name << '=' << (y.value ? std::to_string(*y.value) : "?") << y.region << '/' << y.align << ' ', put(o, y.where);
  for (const auto& r : s.regions) o << r.name << '[' << r.lo << ',' << r.hi << "] ", put(o, r.where);
  for (const auto& [k, v] : s.trampolines) o << k << "->" << v << ' ';
  for (const auto& [k, v] : s.trampolineWhere) o << k << ' ', put(o, v);
  for (const auto& st : s.states) {
    o << "\nstate " << st.name << ' ';
    put(o, st.where);
    for (const auto& w : st.words) put(o, w);
  }
  for (const auto& [k, b] : s.behaviour) o << "\nbehaviour " << k << ' ', put(o, b);
  for (const auto& [k, e] : s.stateExpect) o << "\nexpect " << k << int(e);
  o << "\nmodel " << (s.model.fetch ? s.model.fetch->name() : std::string_view("-")) << s.model.lineBytes << s.model.preemption << s.model.delaySlotInterrupts
    << s.model.unpredictableAsHardware;
  for (const auto& t : s.transitions) {
    o << "\ntransition " << t.name() << int(t.when) << (t.expect ? int(*t.expect) : -1) << ' ';
    put(o, t.where);
    if (t.allow) put(o, *t.allow);
    for (const auto& st : t.steps) {
      o << int(st.kind) << ':' << st.index << ':' << st.text << ' ';
      put(o, st.where);
      if (st.interim) put(o, *st.interim);
    }
  }
  return o.str();
}

std::string dump(const Diagnostics& ds) {
  std::string s;
  for (const Diagnostic& d : ds) s += d.str() + "\n";
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string path = "fuzz.toml";
  auto first = parseSpec(text, path);
  auto second = parseSpec(text, path);
  fuzz::require(first.index() == second.index(), "the same text is accepted or rejected every time");
  if (auto* e = std::get_if<Diagnostics>(&first)) {
    fuzz::requireLocated(*e, path, text);
    fuzz::require(dump(*e) == dump(std::get<Diagnostics>(second)), "the same text gives the same errors");
    return 0;
  }
  const Spec& s = std::get<Spec>(first);
  fuzz::require(s.text == text, "the spec keeps the text it was read from");
  fuzz::require(dump(s) == dump(std::get<Spec>(second)), "the same text loads to the same spec");
  return 0;
}
