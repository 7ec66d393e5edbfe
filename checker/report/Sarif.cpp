#include "checker/report/Sarif.h"

namespace patchcheck {
namespace {

using json = nlohmann::json;

struct Rule {
  const char* id;
  const char* text;
};
const std::vector<Rule>& rules() {
  static const std::vector<Rule> r = {
      {"unsafe-transition", "An execution of a pass during the transition leaves the allowed behaviours"},
      {"expectation-mismatch", "The transition's verdict differs from its `expect`"},
      {"undecided", "The solver could not decide the transition or state (UNKNOWN is never SAFE)"},
      {"state-behaviour", "A state run alone does not behave as declared"},
      {"trampoline-contract", "A trampoline's code does not keep the contract its call sites rely on"},
      {"object-site", "A patch site of the build is not an instance of a proven spec state, or patching it is unsafe"},
  };
  return r;
}

json location(const std::string& path, unsigned line) {
  json region{{"startLine", line ? line : 1}};
  return {{"physicalLocation", {{"artifactLocation", {{"uri", path}}}, {"region", region}}}};
}

json result(const std::string& rule, const std::string& level, const std::string& message, const std::string& path,
            unsigned line) {
  return {{"ruleId", rule}, {"level", level}, {"message", {{"text", message}}}, {"locations", {location(path, line)}}};
}

std::string why(const std::optional<Counterexample>& cx) {
  if (!cx) return "";
  std::string s = ": " + cx->rule;
  if (!cx->intermediateState.empty()) s += " (words seen: " + cx->intermediateState + ")";
  return s;
}

}  // namespace

json toSarif(const RunResults& rr, const std::vector<const Spec*>& specs, const std::vector<ObjectScan>& objects) {
  json results = json::array();
  for (const ObjectScan& o : objects)
    for (const ScanFinding& f : o.findings) {
      json r = result("object-site", f.note ? "note" : "error", f.where + ": " + f.message, o.file, 0);
      if (f.fileOffset) r["locations"][0]["physicalLocation"]["region"] = {{"byteOffset", *f.fileOffset}};
      else r["locations"][0]["physicalLocation"].erase("region");
      r["locations"][0]["logicalLocations"] = {{{"fullyQualifiedName", f.where}, {"kind", "function"}}};
      results.push_back(std::move(r));
    }
  for (size_t i = 0; i < rr.specs.size(); ++i) {
    const SpecResult& r = rr.specs[i];
    std::string target = rr.targets[i].str();
    for (const TrampolineResult& k : r.trampolines) {
      if (k.verdict == Verdict::Safe) continue;
      bool unknown = k.verdict == Verdict::Unknown;
      results.push_back(result(unknown ? "undecided" : "trampoline-contract", unknown ? "warning" : "error",
                               "trampoline " + k.entry + " [" + target + "]: " + std::string(name(k.verdict)) +
                                   (unknown ? ": " + k.unknownReason : why(k.counterexample)),
                               k.source, 1));
    }
    for (const StateResult& s : r.states) {
      if (s.verdict == Verdict::Safe) continue;
      const StateSpec* st = i < specs.size() && specs[i] ? specs[i]->state(s.state) : nullptr;
      std::string rule = s.verdict == Verdict::Unknown ? "undecided" : "state-behaviour";
      // Broken as its [expect] says: context, not a failure.
      std::string level = s.verdict == Verdict::Unknown ? "warning" : expectationMet(s.expect, s.verdict) ? "note" : "error";
      results.push_back(result(rule, level,
                               "state " + s.state + " [" + target + "]: " + std::string(name(s.verdict)) +
                                   (s.verdict == Verdict::Unknown ? ": " + s.unknownReason : why(s.counterexample)),
                               r.specPath, st ? st->where.line : 1));
    }
    for (const TransitionResult& t : r.transitions) {
      std::string rule;
      if (t.verdict == Verdict::Unknown) rule = "undecided";
      else if (t.expect && !t.expectationMet()) rule = "expectation-mismatch";
      else if (!t.expect && t.verdict == Verdict::Unsafe) rule = "unsafe-transition";
      if (rule.empty()) continue;
      unsigned line = t.culprit && t.culprit->line ? t.culprit->line : t.where.line;
      std::string msg = t.transition + " [" + target + "]: " + std::string(name(t.verdict));
      if (rule == "expectation-mismatch")
        msg += ", but the spec expects " + std::string(*t.expect == Expect::Safe ? "safe" : "unsafe");
      if (t.verdict == Verdict::Unknown) msg += ": " + t.unknownReason;
      msg += why(t.counterexample);
      for (const std::string& n : t.notes)
        if (n.rfind("baseline: ", 0) == 0) msg += " [" + n + "]";  // what changed since the certified table
      results.push_back(result(rule, rule == "undecided" ? "warning" : "error", msg, r.specPath, line));
    }
  }
  json ruleList = json::array();
  for (const Rule& r : rules()) ruleList.push_back({{"id", r.id}, {"shortDescription", {{"text", r.text}}}});
  json driver{{"name", "patchcheck"}, {"version", PATCHCHECK_VERSION}, {"rules", ruleList}};
  return {{"version", "2.1.0"},
          {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"runs", {{{"tool", {{"driver", driver}}}, {"results", results}}}}};
}

}  // namespace patchcheck
