#include "checker/report/Report.h"

#include <cctype>
#include <cstdio>
#include <optional>
#include <vector>
#include <iomanip>
#include <sstream>

#include "checker/explore/Behaviour.h"
#include "encoder/Hex.h"
#include "encoder/Isa.h"

namespace patchcheck {
namespace {

std::string counts(const Counts& c) {
  char buf[160];
  snprintf(buf, sizeof buf, "%u intermediate states, %u executions, %u paths, %u queries, %.3f s",
           c.intermediateStates, c.executions, c.paths, c.queries, c.seconds);
  return buf;
}

std::string expectation(const TransitionResult& t) {
  if (!t.expect) return "";
  if (t.expectationMet()) return "  (as expected)";
  if (t.verdict == Verdict::Unknown)
    return std::string("  (neither confirms nor refutes the spec's ") + (*t.expect == Expect::Safe ? "safe" : "unsafe") + ")";
  return std::string("  EXPECTATION MISMATCH: the spec says ") +
         (*t.expect == Expect::Safe ? "safe" : "unsafe");
}

// A cell of n columns; one that fills them or more still ends in a space,
// so that it never runs into the next.
std::string pad(std::string s, size_t n) {
  s.resize(std::max(n, s.size() + 1), ' ');
  return s;
}

bool colourOn = false;

// A verdict padded to `n` columns, coloured when the terminal takes it
// (the escape codes outside the padding, so columns still line up).
std::string verdictCell(Verdict v, size_t n) {
  std::string text(name(v)), cell = pad(text, n);
  if (!colourOn) return cell;
  const char* code = v == Verdict::Safe ? "32" : v == Verdict::Unsafe ? "31" : "33";
  return "\033[1;" + std::string(code) + "m" + text + "\033[0m" + cell.substr(text.size());
}

// "byte 12" -> ("byte", 12); "data F-8" and others: no number.
std::optional<std::pair<std::string, long long>> numbered(const std::string& unit) {
  size_t space = unit.rfind(' ');
  if (space == std::string::npos || space + 1 >= unit.size()) return std::nullopt;
  long long n = 0;
  for (size_t k = space + 1; k < unit.size(); ++k) {
    if (!std::isdigit(static_cast<unsigned char>(unit[k])) || n > (1ll << 40)) return std::nullopt;
    n = n * 10 + (unit[k] - '0');
  }
  return std::make_pair(unit.substr(0, space), n);
}

// The schedule with each run of consecutive units seen in one version
// after as many writes as one entry: "[bytes 0..1099: old, 0 writes
// landed]" rather than 1100 entries.
std::vector<std::string> scheduleEntries(const std::vector<FetchEvent>& schedule) {
  std::vector<std::string> out;
  for (size_t k = 0; k < schedule.size();) {
    const FetchEvent& f = schedule[k];
    auto first = numbered(f.unit);
    size_t end = k + 1;
    while (first && end < schedule.size()) {
      const FetchEvent& g = schedule[end];
      auto next = numbered(g.unit);
      if (!next || next->first != first->first || next->second != first->second + (long long)(end - k) ||
          g.version != f.version || g.writesLanded != f.writesLanded)
        break;
      ++end;
    }
    std::string unit = end - k == 1 ? f.unit
                                     : first->first + "s " + std::to_string(first->second) + ".." +
                                           std::to_string(first->second + (long long)(end - k) - 1);
    out.push_back("[" + unit + ": " + f.version + ", " + std::to_string(f.writesLanded) + " writes landed]");
    k = end;
  }
  return out;
}

// A trace line's origin "byte 7 (old)" as ("byte", 7, "(old)"); none
// for another form.
struct Origin {
  std::string kind;
  long long index;
  std::string rest;
};
std::optional<Origin> originOf(const std::string& origin) {
  size_t paren = origin.find(" (");
  auto n = numbered(origin.substr(0, paren));
  if (!n) return std::nullopt;
  std::string rest = paren == std::string::npos ? "" : origin.substr(paren + 1);
  if (!rest.empty() && (rest.front() != '(' || rest.back() != ')')) return std::nullopt;
  return Origin{n->first, n->second, rest};
}

}  // namespace

void printCounterexample(std::ostream& o, const Counterexample& cx, const std::string& in,
                         const Target& t) {
  auto addr = [&t](uint64_t a) { return hex(t.wide() ? a : (a & 0xffffffffull)); };
  o << in << "broken rule: " << cx.rule << "\n";
  // A byte site's units are bytes (x86; RISC-V with C, whose units name
  // themselves "byte N"; a word site's never do).
  bool bytes = (t.isa && t.isa->patchUnitBytes(t) == 1) || cx.intermediateState.find("byte") != std::string::npos;
  if (!cx.intermediateState.empty()) o << in << (bytes ? "bytes seen:  " : "words seen:  ") << cx.intermediateState << "\n";
  if (!cx.schedule.empty()) {
    o << in << "schedule:   ";
    for (const std::string& e : scheduleEntries(cx.schedule)) o << " " << e;
    o << "\n";
  }
  for (const std::string& i : cx.interrupts) o << in << i << "\n";
  if (!cx.trace.empty()) {
    o << in << "trace:\n";
    for (size_t k = 0; k < cx.trace.size(); ++k) {
      const TraceStep& s = cx.trace[k];
      char head[96];
      int digits = int(2 * s.bytes);
      if (!s.encoding.empty()) snprintf(head, sizeof head, "%016llx: %-21s ", (unsigned long long)s.address,
                                        s.encoding.c_str());
      else if (t.wide()) snprintf(head, sizeof head, "%016llx: %0*llx  ", (unsigned long long)s.address, digits,
                             (unsigned long long)s.word);
      else snprintf(head, sizeof head, "%08llx: %0*llx  ", (unsigned long long)(s.address & 0xffffffffull), digits,
                    (unsigned long long)s.word);
      o << in << "  " << head << pad(s.text, 26) << (s.note.empty() ? s.origin : pad(s.origin, 24) + "  " + s.note)
        << "\n";
      // A run of one instruction from consecutive units seen in one
      // version (1100 nops of a long site): its first line, a count, its
      // last line.
      size_t end = k + 1;
      auto from = originOf(s.origin);
      while (from && s.note.empty() && end < cx.trace.size()) {
        const TraceStep& u = cx.trace[end];
        auto at = originOf(u.origin);
        if (!at || !u.note.empty() || u.text != s.text || u.encoding != s.encoding || at->kind != from->kind ||
            at->rest != from->rest || at->index != from->index + (long long)((end - k) * s.bytes))
          break;
        ++end;
      }
      if (end - k >= 4) {
        long long first = from->index + (long long)s.bytes, last = from->index + (long long)((end - k - 1) * s.bytes) - 1;
        o << in << "  ... " << (end - k - 2) << " more '" << s.text << "' (" << from->kind << "s " << first << ".."
          << last << (from->rest.empty() ? "" : ", " + from->rest.substr(1, from->rest.size() - 2)) << ")\n";
        k = end - 2;  // the run's last line is printed next
      }
    }
  }
  if (!cx.symbols.empty()) {
    o << in << "symbols:    ";
    for (const auto& [n, v] : cx.symbols) o << " " << n << "=" << addr(v);
    o << "\n";
  }
  if (!cx.entryRegisters.empty()) {
    o << in << "entry regs: ";
    unsigned k = 0;
    for (const auto& [n, v] : cx.entryRegisters) {
      if (v == 0) continue;
      if (k && k % 4 == 0) o << "\n" << in << "            ";
      o << " " << n << "=" << hex(v);
      ++k;
    }
    o << (k ? " (all others 0)" : " all 0") << "\n";
  }
  for (const std::string& d : cx.details) o << in << d << "\n";
  o << in << (cx.replayed ? "confirmed: " : "not confirmed: ") << cx.replayNote << "\n";
}

void setColour(bool on) { colourOn = on; }

void printSpecResult(std::ostream& o, const SpecResult& r, const Target& t, bool verbose) {
  o << r.specPath << " [" << t.str() << "]\n";
  // With one transition chosen, only its two states are of interest.
  auto shown = [&r](const std::string& state) {
    if (r.transitions.size() != 1) return true;
    const TransitionResult& t = r.transitions.front();
    return t.from == state || t.to == state;
  };
  for (const TrampolineResult& k : r.trampolines) {
    std::string label = "trampoline " + k.entry;
    o << "  " << pad(label, 22) << verdictCell(k.verdict, 8);
    if (k.verdict == Verdict::Safe) o << "contract proven: " << k.counts.paths << " paths, " << k.counts.queries
                                      << " queries";
    else if (k.verdict == Verdict::Unsafe) o << "its code breaks its contract";
    else o << "the solver could not decide: " << k.unknownReason;
    if (k.fromObject) o << "  (" << k.source << ", bytes sha256 " << k.sourceSha256 << ")\n";
    else o << "  (" << k.source << ")\n";
    if (k.counterexample) printCounterexample(o, *k.counterexample, "      ", t);
  }
  // A state that is not SAFE is always shown: its failure counts on its own.
  for (const StateResult& s : r.states) {
    if (s.verdict == Verdict::Safe && (!verbose || !shown(s.state))) continue;
    o << "  state " << pad(s.state, 16) << verdictCell(s.verdict, 8) << s.declared;
    if (s.expect) o << (expectationMet(s.expect, s.verdict) ? "  (as expected)" : s.verdict == Verdict::Unknown ? "" :
                        std::string("  EXPECTATION MISMATCH: the spec says ") + (*s.expect == Expect::Safe ? "safe" : "unsafe"));
    o << "\n";
    if (s.verdict == Verdict::Unknown) o << "      solver: " << s.unknownReason << "\n";
    if (s.counterexample) printCounterexample(o, *s.counterexample, "      ", t);
  }
  for (const TransitionResult& tr : r.transitions) {
    o << "  " << pad(tr.transition, 22) << verdictCell(tr.verdict, 8) << counts(tr.counts)
      << expectation(tr) << "\n";
    if (tr.verdict == Verdict::Unknown) o << "      solver: " << tr.unknownReason << "\n";
    if (tr.counterexample) printCounterexample(o, *tr.counterexample, "      ", t);
    if (verbose)
      for (const std::string& n : tr.notes) o << "      note: " << n << "\n";
  }
}

void printSummaryTable(std::ostream& o, const RunResults& rr) {
  o << pad("spec", 33) << pad("transition", 22) << pad("target", 24) << pad("verdict", 9) << pad("expect", 8)
    << pad("paths", 7) << "time\n";
  for (size_t i = 0; i < rr.specs.size(); ++i) {
    const SpecResult& r = rr.specs[i];
    for (const TrampolineResult& k : r.trampolines)
      if (k.verdict != Verdict::Safe)
        o << pad(r.spec, 33) << pad("trampoline " + k.entry, 22) << pad(rr.targets[i].str(), 24)
          << verdictCell(k.verdict, 9) << pad("-", 8) << pad(std::to_string(k.counts.paths), 7) << "\n";
    for (const StateResult& s : r.states)
      if (s.verdict != Verdict::Safe)
        o << pad(r.spec, 33) << pad("state " + s.state, 22) << pad(rr.targets[i].str(), 24)
          << verdictCell(s.verdict, 9)
          << pad(!s.expect ? "-" : expectationMet(s.expect, s.verdict) ? "met" : "MISSED", 8)
          << pad(std::to_string(s.counts.paths), 7) << "\n";
    for (const TransitionResult& t : r.transitions) {
      char time[32];
      snprintf(time, sizeof time, "%.3f s", t.counts.seconds);
      std::string ex = !t.expect ? "-" : t.expectationMet() ? "met" : "MISSED";
      o << pad(r.spec, 33) << pad(t.transition, 22) << pad(rr.targets[i].str(), 24)
        << verdictCell(t.verdict, 9) << pad(ex, 8) << pad(std::to_string(t.counts.paths), 7) << time
        << "\n";
    }
  }
  o << summaryLine(rr) << "\n";
}

// One line that agrees with the exit code: counts by verdict for the
// transitions, the states alone and the trampoline proofs, then how many
// items are not as expected (problems()).
std::string summaryLine(const RunResults& rr) {
  struct Tally {
    unsigned all = 0, safe = 0, unsafe = 0, unknown = 0;
    void add(Verdict v) {
      ++all;
      safe += v == Verdict::Safe;
      unsafe += v == Verdict::Unsafe;
      unknown += v == Verdict::Unknown;
    }
    std::string str(const std::string& what) const {
      return std::to_string(all) + " " + what + " (" + std::to_string(safe) + " SAFE, " + std::to_string(unsafe) +
             " UNSAFE, " + std::to_string(unknown) + " UNKNOWN)";
    }
  } transitions, states, trampolines;
  for (const SpecResult& r : rr.specs) {
    for (const TrampolineResult& k : r.trampolines) trampolines.add(k.verdict);
    for (const StateResult& st : r.states) states.add(st.verdict);
    for (const TransitionResult& t : r.transitions) transitions.add(t.verdict);
  }
  size_t off = problems(rr).size();
  std::ostringstream o;
  o << "summary: " << transitions.str("transitions") << ", " << states.str("states alone");
  if (trampolines.all) o << ", " << trampolines.str("trampoline proofs");
  o << "; " << (off ? std::to_string(off) + " not as expected" : "every item as expected");
  return o.str();
}

nlohmann::json toJson(const Counterexample& cx) {
  nlohmann::json j;
  j["rule"] = cx.rule;
  j["words_seen"] = cx.intermediateState;
  j["schedule"] = nlohmann::json::array();
  for (const FetchEvent& f : cx.schedule)
    j["schedule"].push_back({{"word", f.word}, {"version", f.version}, {"writes_landed", f.writesLanded}});
  j["interrupts"] = cx.interrupts;
  j["trace"] = nlohmann::json::array();
  for (const TraceStep& s : cx.trace)
    j["trace"].push_back({{"address", hex(s.address)}, {"word", s.encoding.empty() ? hex(s.word) : s.encoding}, {"text", s.text},
                          {"origin", s.origin}, {"note", s.note}});
  for (const auto& [n, v] : cx.entryRegisters) j["entry_registers"][n] = hex(v);
  for (const auto& [n, v] : cx.symbols) j["symbols"][n] = hex(v);
  j["details"] = cx.details;
  j["replayed"] = cx.replayed;
  j["replay"] = cx.replayNote;
  return j;
}

namespace {
nlohmann::json countsJson(const Counts& c) {
  return {{"intermediate_states", c.intermediateStates}, {"intermediate_states_with_executions", c.witnessedStates},
          {"executions", c.executions}, {"paths", c.paths},
          {"queries", c.queries}, {"seconds", c.seconds}};
}
}  // namespace

nlohmann::json toJson(const TransitionResult& t) {
  nlohmann::json j{{"transition", t.transition}, {"target", t.target.str()}, {"verdict", name(t.verdict)},
                   {"counts", countsJson(t.counts)}, {"notes", t.notes},
                   {"line", t.where.line}};
  if (t.expect) {
    j["expect"] = *t.expect == Expect::Safe ? "safe" : "unsafe";
    j["expectation_met"] = t.expectationMet();
  }
  if (t.counterexample) j["counterexample"] = toJson(*t.counterexample);
  if (t.verdict == Verdict::Unknown) j["unknown_reason"] = t.unknownReason;
  return j;
}

nlohmann::json toJson(const StateResult& s) {
  nlohmann::json j{{"state", s.state}, {"target", s.target.str()}, {"verdict", name(s.verdict)},
                   {"declared", s.declared}, {"counts", countsJson(s.counts)}, {"notes", s.notes}};
  if (s.expect) {
    j["expect"] = *s.expect == Expect::Safe ? "safe" : "unsafe";
    j["expectation_met"] = expectationMet(s.expect, s.verdict);
  }
  if (s.verdict == Verdict::Unknown) j["unknown_reason"] = s.unknownReason;
  if (s.counterexample) j["counterexample"] = toJson(*s.counterexample);
  return j;
}

nlohmann::json toJson(const TrampolineResult& k) {
  nlohmann::json j{{"entry", k.entry}, {"source", k.source}, {"source_sha256", k.sourceSha256},
                   {"target", k.target.str()},
                   {"verdict", name(k.verdict)}, {"counts", countsJson(k.counts)}};
  if (k.fromObject) j["source_is_object"] = true;  // source is OBJ:SYMBOL, the digest of its bytes
  if (k.counterexample) j["counterexample"] = toJson(*k.counterexample);
  if (k.verdict == Verdict::Unknown) j["unknown_reason"] = k.unknownReason;
  return j;
}

nlohmann::json toJson(const RunResults& rr) {
  nlohmann::json j = nlohmann::json::array();
  for (size_t i = 0; i < rr.specs.size(); ++i) {
    const SpecResult& r = rr.specs[i];
    nlohmann::json s{{"spec", r.spec}, {"path", r.specPath}, {"target", rr.targets[i].str()}};
    s["trampolines"] = nlohmann::json::array();
    for (const auto& k : r.trampolines) s["trampolines"].push_back(toJson(k));
    s["states"] = nlohmann::json::array();
    for (const auto& st : r.states) s["states"].push_back(toJson(st));
    s["transitions"] = nlohmann::json::array();
    for (const auto& t : r.transitions) s["transitions"].push_back(toJson(t));
    j.push_back(s);
  }
  nlohmann::json errors = nlohmann::json::array();
  for (const Diagnostic& d : rr.errors)
    errors.push_back({{"file", d.where.file}, {"line", d.where.line}, {"column", d.where.column},
                      {"message", d.message}, {"text", d.str()}});
  // docs/json.md: raised when a member is removed, renamed or changes meaning.
  return {{"format_version", 1}, {"results", j}, {"errors", errors}, {"exit_code", exitCodeOf(rr)}};
}

void dropTimes(nlohmann::json& j) {
  if (j.is_object()) {
    if (j.contains("counts") && j["counts"].is_object()) j["counts"].erase("seconds");
    for (auto& item : j.items()) dropTimes(item.value());
  } else if (j.is_array()) {
    for (auto& v : j) dropTimes(v);
  }
}

namespace {

// Each item not as expected: its spec line (0 when unknown), whether it is
// only undecided, and its text after the spec path.
struct Problem {
  unsigned line = 0;
  bool unknown = false;
  std::string text;
};

std::vector<std::vector<Problem>> problemsBySpec(const RunResults& rr, const std::vector<const Spec*>& specs) {
  std::vector<std::vector<Problem>> out(rr.specs.size());
  for (size_t i = 0; i < rr.specs.size(); ++i) {
    const SpecResult& r = rr.specs[i];
    const Spec* spec = i < specs.size() ? specs[i] : nullptr;
    auto item = [&](unsigned line, const std::string& what, Verdict v, const std::optional<Expect>& expect,
                    const std::string& unknownReason, const std::optional<Counterexample>& cx) {
      if (v != Verdict::Unknown && expectationMet(expect, v)) return;
      std::string text = "[" + rr.targets[i].str() + "] " + what + ": " + std::string(name(v));
      if (v == Verdict::Unknown) text += " (" + unknownReason + ")";
      else if (expect) text += std::string(", but the spec expects ") + (*expect == Expect::Safe ? "safe" : "unsafe");
      if (v == Verdict::Unsafe && cx) text += ": " + cx->rule;
      out[i].push_back({line, v == Verdict::Unknown, text});
    };
    for (const TrampolineResult& k : r.trampolines) {
      unsigned line = 0;
      if (spec)
        if (auto it = spec->trampolineWhere.find(k.entry.substr(0, k.entry.find('+')));
            it != spec->trampolineWhere.end())
          line = it->second.line;
      item(line, "trampoline " + k.entry, k.verdict, std::nullopt, k.unknownReason, k.counterexample);
    }
    for (const StateResult& s : r.states) {
      const StateSpec* st = spec ? spec->state(s.state) : nullptr;
      item(st ? st->where.line : 0, "state " + s.state, s.verdict, s.expect, s.unknownReason, s.counterexample);
    }
    for (const TransitionResult& t : r.transitions)
      item(decidingLine(t, spec), t.transition, t.verdict, t.expect, t.unknownReason, t.counterexample);
  }
  return out;
}

}  // namespace

unsigned decidingLine(const TransitionResult& t, const Spec* spec) {
  if (t.culprit && t.culprit->line && t.culprit->line != t.where.line) return t.culprit->line;
  if (spec)
    for (const TransitionSpec& ts : spec->transitions)
      if (ts.name() == t.transition && !ts.steps.empty() && ts.steps.front().where.line)
        return ts.steps.front().where.line;
  return t.where.line;
}

std::vector<std::string> problems(const RunResults& rr) {
  std::vector<std::string> out;
  auto all = problemsBySpec(rr, {});
  for (size_t i = 0; i < all.size(); ++i)
    for (const Problem& p : all[i]) {
      // "[target] what" reads "path [target] what" here, as it always has.
      out.push_back(rr.specs[i].specPath + " " + p.text);
    }
  return out;
}

std::vector<std::string> problemDiagnostics(const RunResults& rr, const std::vector<const Spec*>& specs) {
  std::vector<std::string> out;
  auto all = problemsBySpec(rr, specs);
  for (size_t i = 0; i < all.size(); ++i)
    for (const Problem& p : all[i])
      out.push_back(rr.specs[i].specPath + (p.line ? ":" + std::to_string(p.line) : "") + ": " +
                    (p.unknown ? "warning: " : "error: ") + p.text);
  return out;
}

// docs/exit-codes: 1 when any judged item has a definite verdict other
// than the one expected (SAFE where nothing is expected), else 3 when any
// is UNKNOWN, else 0. A state's failure counts on its own: transitions
// never excuse it (a `boot` transition does not even run it).
int exitCodeOf(const RunResults& rr) {
  if (!rr.errors.empty()) return 2;
  bool failed = false, unknown = false;
  auto judge = [&](const std::optional<Expect>& expect, Verdict v) {
    if (v == Verdict::Unknown) unknown = true;
    else if (!expectationMet(expect, v)) failed = true;
  };
  for (const SpecResult& r : rr.specs) {
    for (const TrampolineResult& k : r.trampolines) judge(std::nullopt, k.verdict);
    for (const StateResult& s : r.states) judge(s.expect, s.verdict);
    for (const TransitionResult& t : r.transitions) judge(t.expect, t.verdict);
  }
  if (failed) return 1;
  return unknown ? 3 : 0;
}

}  // namespace patchcheck
