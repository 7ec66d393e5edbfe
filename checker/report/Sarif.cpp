#include "checker/report/Sarif.h"

#include <cctype>
#include <cstdio>
#include <filesystem>

#include "checker/explore/Sha256.h"

namespace patchcheck {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

struct Rule {
  const char* id;
  const char* text;
  const char* help;
};
const std::vector<Rule>& rules() {
  static const std::vector<Rule> r = {
      {"unsafe-transition", "An execution of a pass during the transition leaves the allowed behaviours",
       "A CPU fetching the site while the steps are under way can run an instruction sequence that neither the old "
       "nor the new state allows. The code flow shows the words the pass fetched and what it ran. Reorder the "
       "steps (breakpoint first, one word at a time, a flush or IPI between writes), or mark a documented "
       "regression case with expect = \"unsafe\"."},
      {"expectation-mismatch", "The transition's verdict differs from its `expect`",
       "The spec says `expect = \"safe\"` or `\"unsafe\"` and the check found the other verdict: either the "
       "sequence changed or the expectation is out of date."},
      {"undecided", "The solver could not decide the transition or state (UNKNOWN is never SAFE)",
       "A limit (--timeout, --max-executions, --max-seconds, --max-memory) or an unsupported construct stopped "
       "the proof. Raise the limit or simplify the spec; UNKNOWN is not a proof of safety."},
      {"state-behaviour", "A state run alone does not behave as declared",
       "The words of the state, run without any patching under way, do not do what the state's behaviour says."},
      {"trampoline-contract", "A trampoline's code does not keep the contract its call sites rely on",
       "The trampoline must return to the call site with the registers the ABI preserves intact and take the "
       "path its contract names; the message says which rule broke."},
      {"input-error", "The input could not be read as a spec, table or trampoline",
       "The file has a syntax error, an unknown key or value, or names something that does not exist; the "
       "message gives file:line:column. Nothing in this file was checked."},
      {"object-site", "A patch site of the build is not an instance of a proven spec state, or patching it is unsafe",
       "scan (and gate --objects) read the object's patch-site tables and bytes: the site's bytes are not the spec's "
       "compiled state, a branch targets the inside of the patched range, or a table entry is zero, duplicated or "
       "outside text. The message names the function and offset, as objtool does."},
  };
  return r;
}

// A path as URI text: RFC 3986 unreserved characters and '/' stay.
std::string escape(const std::string& s) {
  static const char* hexd = "0123456789ABCDEF";
  std::string o;
  for (unsigned char c : s)
    if (isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') o += char(c);
    else o += '%', o += hexd[c >> 4], o += hexd[c & 15];
  return o;
}

// A relative URI against SRCROOT (the working directory) when the file is
// under it, else an absolute file: URI; code scanning needs one or the other.
json artifact(const std::string& path) {
  std::error_code ec;
  fs::path p(path), cwd = fs::current_path(ec);
  fs::path abs = p.is_absolute() ? p : (cwd / p);
  abs = abs.lexically_normal();
  fs::path rel = abs.lexically_relative(cwd);
  if (!ec && !rel.empty() && *rel.begin() != "..")
    return {{"uri", escape(rel.generic_string())}, {"uriBaseId", "SRCROOT"}};
  return {{"uri", "file://" + escape(abs.generic_string())}};
}

json location(const std::string& path, unsigned line, unsigned column = 0) {
  json region{{"startLine", line ? line : 1}};
  if (line && column) region["startColumn"] = column;
  return {{"physicalLocation", {{"artifactLocation", artifact(path)}, {"region", region}}}};
}

// Stable across runs and line moves: the rule, the file and the item's
// name (transition, state or trampoline entry, with its target).
json fingerprint(const std::string& rule, const std::string& path, const std::string& item) {
  return {{"patchcheckItem/v1", sha256Hex(rule + "\n" + path + "\n" + item).substr(0, 32)}};
}

json result(const std::string& rule, const std::string& level, const std::string& message, const std::string& path,
            unsigned line, const std::string& item) {
  return {{"ruleId", rule},
          {"level", level},
          {"message", {{"text", message}}},
          {"locations", {location(path, line)}},
          {"partialFingerprints", fingerprint(rule, path, item)}};
}

std::string why(const std::optional<Counterexample>& cx) {
  if (!cx) return "";
  std::string s = ": " + cx->rule;
  if (!cx->intermediateState.empty()) s += " (words seen: " + cx->intermediateState + ")";
  return s;
}

// The counterexample's trace as a SARIF code flow: each instruction the
// pass ran, in order, at the deciding spec line (the trace runs in memory,
// not in the spec; the message carries the address and the disassembly).
void addCodeFlow(json& res, const std::optional<Counterexample>& cx, const std::string& path, unsigned line) {
  if (!cx || cx->trace.empty()) return;
  json steps = json::array();
  for (const TraceStep& s : cx->trace) {
    char at[24];
    snprintf(at, sizeof at, "0x%llx: ", (unsigned long long)s.address);
    std::string text = at + s.text;
    if (!s.origin.empty()) text += "  [" + s.origin + "]";
    if (!s.note.empty()) text += "  " + s.note;
    json loc = location(path, line);
    loc["message"] = {{"text", text}};
    steps.push_back({{"location", loc}});
  }
  res["codeFlows"] = {{{"threadFlows", {{{"locations", steps}}}}}};
}

}  // namespace

json toSarif(const RunResults& rr, const std::vector<const Spec*>& specs, const std::vector<ObjectScan>& objects) {
  json results = json::array();
  for (const ObjectScan& o : objects)
    for (const ScanFinding& f : o.findings) {
      json r = result("object-site", f.note ? "note" : "error", f.where + ": " + f.message, o.file, 0,
                      f.where + ": " + f.message);
      if (f.fileOffset) r["locations"][0]["physicalLocation"]["region"] = {{"byteOffset", *f.fileOffset}};
      else r["locations"][0]["physicalLocation"].erase("region");
      r["locations"][0]["logicalLocations"] = {{{"fullyQualifiedName", f.where}, {"kind", "function"}}};
      results.push_back(std::move(r));
    }
  for (size_t i = 0; i < rr.specs.size(); ++i) {
    const SpecResult& r = rr.specs[i];
    const Spec* spec = i < specs.size() ? specs[i] : nullptr;
    std::string target = rr.targets[i].str();
    for (const TrampolineResult& k : r.trampolines) {
      if (k.verdict == Verdict::Safe) continue;
      bool unknown = k.verdict == Verdict::Unknown;
      std::string rule = unknown ? "undecided" : "trampoline-contract";
      json res = result(rule, unknown ? "warning" : "error",
                        "trampoline " + k.entry + " [" + target + "]: " + std::string(name(k.verdict)) +
                            (unknown ? ": " + k.unknownReason : why(k.counterexample)),
                        k.source, 1, "trampoline " + k.entry + " [" + target + "]");
      addCodeFlow(res, k.counterexample, k.source, 1);
      results.push_back(res);
    }
    for (const StateResult& s : r.states) {
      if (s.verdict == Verdict::Safe) continue;
      const StateSpec* st = spec ? spec->state(s.state) : nullptr;
      std::string rule = s.verdict == Verdict::Unknown ? "undecided" : "state-behaviour";
      // Broken as its [expect] says: context, not a failure.
      std::string level = s.verdict == Verdict::Unknown ? "warning" : expectationMet(s.expect, s.verdict) ? "note" : "error";
      unsigned line = st ? st->where.line : 1;
      json res = result(rule, level,
                        "state " + s.state + " [" + target + "]: " + std::string(name(s.verdict)) +
                            (s.verdict == Verdict::Unknown ? ": " + s.unknownReason : why(s.counterexample)),
                        r.specPath, line, "state " + s.state + " [" + target + "]");
      addCodeFlow(res, s.counterexample, r.specPath, line);
      results.push_back(res);
    }
    for (const TransitionResult& t : r.transitions) {
      std::string rule;
      if (t.verdict == Verdict::Unknown) rule = "undecided";
      else if (t.expect && !t.expectationMet()) rule = "expectation-mismatch";
      else if (!t.expect && t.verdict == Verdict::Unsafe) rule = "unsafe-transition";
      if (rule.empty()) continue;
      unsigned line = decidingLine(t, spec);
      std::string msg = t.transition + " [" + target + "]: " + std::string(name(t.verdict));
      if (rule == "expectation-mismatch")
        msg += ", but the spec expects " + std::string(*t.expect == Expect::Safe ? "safe" : "unsafe");
      if (t.verdict == Verdict::Unknown) msg += ": " + t.unknownReason;
      msg += why(t.counterexample);
      for (const std::string& n : t.notes)
        if (n.rfind("baseline: ", 0) == 0) msg += " [" + n + "]";  // what changed since the certified table
      json res = result(rule, rule == "undecided" ? "warning" : "error", msg, r.specPath, line,
                        t.transition + " [" + target + "]");
      addCodeFlow(res, t.counterexample, r.specPath, line);
      results.push_back(res);
    }
  }
  // Bad input: a tool notification (the run did not finish) and a result,
  // so the pull request shows the typo where it is.
  json notifications = json::array();
  for (const Diagnostic& d : rr.errors) {
    json n{{"level", "error"}, {"message", {{"text", d.str()}}}, {"descriptor", {{"id", "input-error"}}}};
    bool inFile = d.where.file.size() && d.where.file.front() != '<';
    if (inFile) n["locations"] = {location(d.where.file, d.where.line, d.where.column)};
    notifications.push_back(n);
    if (inFile)
      results.push_back({{"ruleId", "input-error"},
                         {"level", "error"},
                         {"message", {{"text", d.message}}},
                         {"locations", {location(d.where.file, d.where.line, d.where.column)}},
                         {"partialFingerprints", fingerprint("input-error", d.where.file, d.message)}});
  }
  json ruleList = json::array();
  for (const Rule& r : rules())
    ruleList.push_back({{"id", r.id},
                        {"name", r.id},
                        {"shortDescription", {{"text", r.text}}},
                        {"fullDescription", {{"text", r.text}}},
                        {"help", {{"text", r.help}}}});
  json driver{{"name", "patchcheck"}, {"version", PATCHCHECK_VERSION}, {"rules", ruleList}};
  std::error_code ec;
  std::string root = fs::current_path(ec).generic_string();
  if (root.empty() || root.back() != '/') root += '/';
  json run{{"tool", {{"driver", driver}}},
           {"invocations",
            {{{"executionSuccessful", rr.errors.empty()}, {"toolExecutionNotifications", notifications}}}},
           {"originalUriBaseIds", {{"SRCROOT", {{"uri", "file://" + escape(root)}}}}},
           {"columnKind", "unicodeCodePoints"},
           {"results", results}};
  return {{"version", "2.1.0"}, {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"runs", {run}}};
}

}  // namespace patchcheck
