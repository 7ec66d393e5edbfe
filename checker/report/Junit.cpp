#include "checker/report/Junit.h"

#include <cstdio>
#include <sstream>


namespace patchcheck {

std::string xmlEscape(const std::string& s) {
  std::string o;
  for (char c : s) switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&apos;"; break;
      default:
        if ((unsigned char)c < 0x20 && c != '\n' && c != '\t') o += ' ';  // not allowed in XML 1.0
        else o += c;
    }
  return o;
}

namespace {

struct Case {
  std::string name, verdict, detail;
  double seconds = 0;
  std::string skipped;
};

std::string detailOf(const std::optional<Counterexample>& cx, const Target& t) {
  if (!cx) return "";
  std::ostringstream o;
  printCounterexample(o, *cx, "", t);
  return o.str();
}

}  // namespace

std::string toJunit(const RunResults& rr, const std::map<std::string, std::string>& skipped,
                    const std::vector<ObjectScan>& objects, bool times) {
  std::ostringstream suites;
  unsigned tests = 0, failures = 0, errors = 0, skips = 0;
  for (size_t i = 0; i < rr.specs.size(); ++i) {
    const SpecResult& r = rr.specs[i];
    std::string target = rr.targets[i].str();
    std::vector<Case> cases;
    for (const TrampolineResult& k : r.trampolines)
      cases.push_back({"trampoline " + k.entry, std::string(name(k.verdict)),
                       k.verdict == Verdict::Unknown ? k.unknownReason : detailOf(k.counterexample, rr.targets[i]),
                       k.counts.seconds, ""});
    for (const StateResult& s : r.states) {
      // A state broken as its [expect] says passes, labelled.
      bool asExpected = s.verdict == Verdict::Unsafe && expectationMet(s.expect, s.verdict);
      std::string label = "state " + s.state + (asExpected ? " (UNSAFE, as the spec expects)" : "");
      cases.push_back({label, asExpected ? "SAFE" : std::string(name(s.verdict)),
                       s.verdict == Verdict::Unknown ? s.unknownReason : detailOf(s.counterexample, rr.targets[i]),
                       s.counts.seconds, ""});
    }
    for (const TransitionResult& t : r.transitions) {
      Case c{t.transition, std::string(name(t.verdict)), detailOf(t.counterexample, rr.targets[i]), t.counts.seconds, ""};
      if (t.verdict == Verdict::Unknown)
        c.verdict = "UNKNOWN";
      else if (t.expect && !t.expectationMet())
        c.verdict = "EXPECTATION", c.detail = std::string("the spec expects ") +
                                            (*t.expect == Expect::Safe ? "safe" : "unsafe") + ", the check found " +
                                            std::string(name(t.verdict)) + "\n" + c.detail;
      else if (t.expect && t.verdict == Verdict::Unsafe)
        c.verdict = "SAFE";  // unsafe as the spec expects: a passing case
      if (t.verdict == Verdict::Unknown) c.detail = t.unknownReason;
      cases.push_back(c);
    }
    std::string prefix = r.spec + " " + target + " ";
    for (const auto& [key, why] : skipped)
      if (key.rfind(prefix, 0) == 0) cases.push_back({key.substr(prefix.size()), "SKIPPED", "", 0, why});
    unsigned f = 0, e = 0, s = 0;
    std::ostringstream body;
    for (const Case& c : cases) {
      body << "    <testcase classname=\"" << xmlEscape(r.spec + "." + target) << "\" name=\"" << xmlEscape(c.name) << "\"";
      if (times) {
        char time[32];
        snprintf(time, sizeof time, "%.3f", c.seconds);
        body << " time=\"" << time << "\"";
      }
      if (c.verdict == "SAFE") {
        body << "/>\n";
        continue;
      }
      body << ">\n";
      if (c.verdict == "SKIPPED") {
        body << "      <skipped message=\"" << xmlEscape(c.skipped) << "\"/>\n";
        ++s;
      } else if (c.verdict == "UNKNOWN") {
        body << "      <error message=\"UNKNOWN\" type=\"UNKNOWN\">" << xmlEscape(c.detail) << "</error>\n";
        ++e;
      } else {
        body << "      <failure message=\"" << xmlEscape(c.verdict) << "\" type=\"" << xmlEscape(c.verdict) << "\">"
             << xmlEscape(c.detail) << "</failure>\n";
        ++f;
      }
      body << "    </testcase>\n";
    }
    suites << "  <testsuite name=\"" << xmlEscape(r.spec + " [" + target + "]") << "\" tests=\"" << cases.size()
           << "\" failures=\"" << f << "\" errors=\"" << e << "\" skipped=\"" << s << "\">\n"
           << body.str() << "  </testsuite>\n";
    tests += unsigned(cases.size()), failures += f, errors += e, skips += s;
  }
  // Bad input: per file, one test case in error carrying every message.
  std::map<std::string, std::string> bad;
  for (const Diagnostic& d : rr.errors) bad[d.where.file] += d.str() + "\n";
  for (const auto& [file, text] : bad) {
    suites << "  <testsuite name=\"" << xmlEscape(file) << "\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
           << "    <testcase classname=\"" << xmlEscape(file) << "\" name=\"input\">\n"
           << "      <error message=\"bad input\" type=\"input-error\">" << xmlEscape(text) << "</error>\n"
           << "    </testcase>\n  </testsuite>\n";
    ++tests, ++errors;
  }
  if (!objects.empty()) {  // the build's sites, one case per object
    unsigned f = 0;
    std::ostringstream body;
    for (const ObjectScan& o : objects) {
      body << "    <testcase classname=\"objects\" name=\"" << xmlEscape(o.file) << "\"" << (times ? " time=\"0.000\"" : "");
      if (!o.failures()) {
        body << "/>\n";
        continue;
      }
      std::string detail;
      for (const ScanFinding& x : o.findings)
        if (!x.note) detail += o.file + ": " + x.where + ": " + x.message + "\n";
      body << ">\n      <failure message=\"" << o.failures() << " finding(s)\" type=\"SITE\">" << xmlEscape(detail)
           << "</failure>\n    </testcase>\n";
      ++f;
    }
    suites << "  <testsuite name=\"objects\" tests=\"" << objects.size() << "\" failures=\"" << f
           << "\" errors=\"0\" skipped=\"0\">\n" << body.str() << "  </testsuite>\n";
    tests += unsigned(objects.size()), failures += f;
  }
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"patchcheck gate\" tests=\"" << tests
    << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" skipped=\"" << skips << "\">\n"
    << suites.str() << "</testsuites>\n";
  return o.str();
}

}  // namespace patchcheck
