#include "checker/report/Ktap.h"

#include <sstream>
#include <vector>

namespace patchcheck {
namespace {

struct Line {
  bool ok;
  std::string name, directive;
  std::vector<std::string> diagnostics;
};

// Text on one line; in a test name also without '#' (KTAP's directive mark).
std::string oneLine(const std::string& s, bool name) {
  std::string o;
  for (char c : s) o += c == '\n' || c == '\r' ? ' ' : name && c == '#' ? '_' : c;
  return o;
}

std::vector<std::string> reason(const std::string& verdict, const std::string& unknownReason,
                                const std::optional<Counterexample>& cx) {
  std::vector<std::string> d{verdict};
  if (!unknownReason.empty()) d.back() += ": " + unknownReason;
  if (cx) {
    d.back() += ": " + cx->rule;
    if (!cx->intermediateState.empty()) d.push_back("words seen: " + cx->intermediateState);
  }
  return d;
}

}  // namespace

std::string toKtap(const RunResults& rr, const std::map<std::string, std::string>& skipped,
                   const std::vector<ObjectScan>& objects) {
  std::vector<Line> lines;
  for (size_t i = 0; i < rr.specs.size(); ++i) {
    const SpecResult& r = rr.specs[i];
    std::string prefix = r.spec + " [" + rr.targets[i].str() + "] ";
    for (const TrampolineResult& k : r.trampolines) {
      bool ok = k.verdict == Verdict::Safe;
      lines.push_back({ok, prefix + "trampoline " + k.entry, "",
                       ok ? std::vector<std::string>{} : reason(std::string(name(k.verdict)), k.unknownReason, k.counterexample)});
    }
    for (const StateResult& s : r.states) {
      bool ok = s.verdict != Verdict::Unknown && expectationMet(s.expect, s.verdict);
      Line l{ok, prefix + "state " + s.state, "", {}};
      if (!ok) l.diagnostics = reason(std::string(name(s.verdict)), s.unknownReason, s.counterexample);
      else if (s.verdict == Verdict::Unsafe) l.diagnostics = {"UNSAFE, as the spec expects (a regression case)"};
      lines.push_back(l);
    }
    for (const TransitionResult& t : r.transitions) {
      bool ok = t.verdict != Verdict::Unknown && expectationMet(t.expect, t.verdict);
      Line l{ok, prefix + t.transition, "", {}};
      if (!ok) {
        l.diagnostics = reason(std::string(name(t.verdict)), t.unknownReason, t.counterexample);
        if (t.expect && t.verdict != Verdict::Unknown)
          l.diagnostics.front() += std::string(", but the spec expects ") + (*t.expect == Expect::Safe ? "safe" : "unsafe");
      } else if (t.verdict == Verdict::Unsafe) {
        l.diagnostics = {"UNSAFE, as the spec expects (a regression case)"};
      }
      lines.push_back(l);
    }
    std::string key = r.spec + " " + rr.targets[i].str() + " ";
    for (const auto& [k, why] : skipped)
      if (k.rfind(key, 0) == 0) lines.push_back({true, prefix + k.substr(key.size()), "SKIP " + why, {}});
  }
  for (const ObjectScan& obj : objects) {
    Line l{obj.failures() == 0, obj.file + " sites", "", {}};
    for (const ScanFinding& f : obj.findings)
      l.diagnostics.push_back(std::string(f.note ? "note: " : "") + f.where + ": " + f.message);
    lines.push_back(l);
  }
  std::map<std::string, std::vector<std::string>> bad;  // file -> its errors
  for (const Diagnostic& d : rr.errors) bad[d.where.file].push_back(d.str());
  for (const auto& [file, messages] : bad) lines.push_back({false, file + " input", "", messages});
  std::ostringstream o;
  o << "KTAP version 1\n1.." << lines.size() << "\n";
  unsigned pass = 0, fail = 0, skip = 0;
  for (size_t n = 0; n < lines.size(); ++n) {
    const Line& l = lines[n];
    for (const std::string& d : l.diagnostics) o << "# " << oneLine(d, false) << "\n";
    o << (l.ok ? "ok " : "not ok ") << n + 1 << " " << oneLine(l.name, true);
    if (!l.directive.empty()) o << " # " << oneLine(l.directive, false);
    o << "\n";
    (l.directive.empty() ? (l.ok ? pass : fail) : skip) += 1;
  }
  // kselftest's closing line (tools/testing/selftests/kselftest.h, ksft_print_cnts).
  o << "# Totals: pass:" << pass << " fail:" << fail << " xfail:0 xpass:0 skip:" << skip << " error:0\n";
  return o.str();
}

int kselftestExit(int patchcheckExit) { return patchcheckExit == 0 ? 0 : 1; }

}  // namespace patchcheck
