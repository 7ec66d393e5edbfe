// Brute-force re-check (ISSUE4 "Tests"): every SAFE verdict the checker gives
// for the shipped specs (specs/mips/*.toml, every matrix target, states and
// transitions) is re-checked by explicit enumeration over concrete placements
// and random entry registers (tests/bruteforce/Executions.h), which must find
// no violation. The hand-made specs of tests/data/specs/model, with the
// verdicts argued in their headers, show that the enumeration can fail: it
// must find a violation exactly where the argued verdict is UNSAFE.
//
// Usage: bruteforce_recheck [--trials N] [--seed S]
// Ends with "N passed, M failed"; exit 0 only if all passed.
#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>

#include "checker/Checker.h"
#include "tests/bruteforce/Executions.h"

using namespace patchcheck;
namespace bf = bruteforce;
namespace fs = std::filesystem;

namespace {

struct Options {
  unsigned trials = 6;
  uint64_t seed = 1;
};

struct Totals {
  uint64_t scenarios = 0, skipped = 0, worlds = 0, instructions = 0, passes = 0;
  unsigned passed = 0, failed = 0;
};

// What the enumeration found for one transition or state over all trials.
struct Finding {
  bool violation = false;
  std::string first;   // the first violation, with its placement
  std::string unreached;  // a state's declared alternative no pass took
  bool bounded = false;
  unsigned trials = 0;
};

std::string hex(uint64_t v) {
  char b[32];
  snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
  return b;
}

std::string describe(const bf::Scenario& s) {
  std::string d = "F=" + hex(s.placement.function);
  for (const auto& [n, v] : s.placement.symbols) d += " " + n + "=" + hex(v);
  return d;
}

// `state` empty: the transition `tr`.
Finding explore(z3::context& c, const Spec& spec, const mips::Target& t, const TransitionSpec* tr,
                const std::string& state, const Options& opt, Totals& totals) {
  Finding f;
  std::mt19937_64 rng(opt.seed ^ std::hash<std::string>()(spec.name + (tr ? tr->name() : state) + t.str()));
  std::set<std::string> reached;
  for (unsigned k = 0; k < opt.trials; ++k) {
    bf::Placement p;
    bf::PlacementMode mode = k == 0   ? bf::PlacementMode::LowEdges
                             : k == 1 ? bf::PlacementMode::HighEdges
                                      : bf::PlacementMode::Random;
    std::string why = bf::place(spec, t, mode, rng, p);
    if (!why.empty()) {
      ++totals.skipped;
      continue;
    }
    auto made = tr ? bf::transitionScenario(spec, t, p, *tr) : bf::stateScenario(spec, t, p, state);
    if (std::holds_alternative<std::string>(made)) {
      ++totals.skipped;  // a word does not encode at this placement
      continue;
    }
    bf::Scenario s = std::get<bf::Scenario>(std::move(made));
    s.entry = bf::entryRegisters(t, rng);
    bf::Enumeration e = bf::enumerate(c, s);
    ++f.trials;
    ++totals.scenarios;
    totals.worlds += e.worlds;
    totals.instructions += e.instructions;
    totals.passes += e.passes;
    f.bounded = f.bounded || e.bounded;
    reached.insert(e.reached.begin(), e.reached.end());
    if (e.violations && !f.violation) {
      f.violation = true;
      f.first = e.firstViolation + " | " + describe(s);
    }
  }
  if (!tr && f.trials)
    for (const auto& o : spec.behaviour.at(state).alternatives)
      if (!reached.count(o.str())) f.unreached = o.str();
  return f;
}

bool unsafeFound(const Finding& f) { return f.violation || !f.unreached.empty(); }

void report(bool ok, const std::string& what, const Finding& f, const std::string& expected, Totals& totals) {
  (ok ? totals.passed : totals.failed)++;
  std::cout << (ok ? "ok    " : "FAIL  ") << what << ": expected " << expected << ", enumeration "
            << (unsafeFound(f) ? "found a violation" : "found none") << " (" << f.trials << " placements"
            << (f.bounded ? ", world bound hit" : "") << ")\n";
  if (f.violation && (!ok || expected == "unsafe")) std::cout << "      " << f.first << "\n";
  if (!f.unreached.empty()) std::cout << "      no pass does '" << f.unreached << "'\n";
}

const TransitionSpec* findTransition(const Spec& s, const std::string& name) {
  for (const auto& t : s.transitions)
    if (t.name() == name) return &t;
  return nullptr;
}

// ---- the hand-made specs: verdicts argued in each file's header

struct HandCase {
  std::string file;
  std::string knob;                   // "" or what the change is
  std::function<void(Spec&)> change;  // the knob the header says the test flips
  std::string item;                   // "from->to" or "state NAME"
  bool unsafe;
};

std::vector<HandCase> handCases() {
  auto fetch = [](FetchKind k) { return [k](Spec& s) { s.model.fetch = k; }; };
  auto align = [](uint64_t a) {
    return [a](Spec& s) {
      for (auto& x : s.symbols)
        if (x.name == "T") x.align = a;
    };
  };
  auto noDsi = [](Spec& s) { s.model.delaySlotInterrupts = false; };
  auto noPreempt = [](Spec& s) { s.model.preemption = false; };
  auto live = [](Spec& s) {
    for (auto& t : s.transitions) t.when = When::Live;
  };
  // Drops step `index` of transition `name` (weakening a shipped order).
  auto drop = [](std::string name, size_t index) {
    return [name, index](Spec& s) {
      for (auto& t : s.transitions)
        if (t.name() == name && index < t.steps.size()) t.steps.erase(t.steps.begin() + long(index));
    };
  };
  const std::string shipped = "specs/mips/";  // from the source root
  return {
      // The shipped orders, each weakened by one step their comments say is
      // needed: the enumeration must break them.
      {shipped + "patchable-entry.toml", "no wait", drop("noregs->disabled", 2), "noregs->disabled", true},
      {shipped + "patchable-entry.toml", "no first flush", drop("disabled->noregs", 1), "disabled->noregs",
       true},
      {shipped + "patchable-entry-livepatch.toml", "no first wait", drop("disabled->livepatch", 2),
       "disabled->livepatch", true},
      {"sc-vs-weak.toml", "", nullptr, "off->on", false},
      {"sc-vs-weak.toml", "fetch = weak", fetch(FetchKind::Weak), "off->on", true},
      {"flush-stale.toml", "", nullptr, "off->on_none", true},
      {"flush-stale.toml", "", nullptr, "off->on_sync", true},
      {"flush-stale.toml", "", nullptr, "off->on_flush", false},
      {"flush-stale.toml", "fetch = weak", fetch(FetchKind::Weak), "off->on_none", true},
      {"flush-stale.toml", "fetch = weak", fetch(FetchKind::Weak), "off->on_sync", false},
      {"flush-stale.toml", "fetch = weak", fetch(FetchKind::Weak), "off->on_flush", false},
      {"delay-slot-interrupt.toml", "", nullptr, "a->b", true},
      {"delay-slot-interrupt.toml", "", nullptr, "state a", false},
      {"delay-slot-interrupt.toml", "", nullptr, "state b", false},
      {"delay-slot-interrupt.toml", "delay_slot_interrupts = false", noDsi, "a->b", false},
      {"placement.toml", "", nullptr, "state on", true},
      {"placement.toml", "", nullptr, "off->on", true},
      {"placement.toml", "T align 0x10000", align(0x10000), "state on", false},
      {"placement.toml", "T align 0x10000", align(0x10000), "off->on", false},
      {"stop-machine-preemption.toml", "", nullptr, "off->lp", true},
      {"stop-machine-preemption.toml", "preemption = none", noPreempt, "off->lp", false},
      {"wait-enter.toml", "", nullptr, "off->lp", false},
      {"wait-enter.toml", "", nullptr, "off->lp_nowait", true},
      {"wait-enter.toml", "", nullptr, "lp->off", false},
      {"wait-enter.toml", "", nullptr, "state lp", false},
      {"boot.toml", "", nullptr, "nop->on", false},
      {"boot.toml", "", nullptr, "nop->on2", true},
      {"boot.toml", "", nullptr, "nop->on3", true},
      {"boot.toml", "when = live", live, "nop->on", true},
      {"allow.toml", "", nullptr, "t->u", true},
      {"allow.toml", "", nullptr, "t->u2", false},
      {"allow.toml", "", nullptr, "t->u3", true},
      {"allow.toml", "", nullptr, "t->u4", false},
      {"expect-mismatch.toml", "", nullptr, "off->on", false},
      {"expect-mismatch.toml", "", nullptr, "nop->on", true},
      {"expect-mismatch.toml", "", nullptr, "nop->off", false},
      {"wrong-behaviour.toml", "", nullptr, "state calls", true},
      {"wrong-behaviour.toml", "", nullptr, "state either", true},
      {"wrong-behaviour.toml", "", nullptr, "state withcond", true},
      {"wrong-behaviour.toml", "", nullptr, "state right", false},
      {"wrong-behaviour.toml", "", nullptr, "state plain", false},
      {"stale-line.toml", "", nullptr, "off->on", false},
      {"stop-machine-stale.toml", "", nullptr, "off->lp", true},
      {"stop-machine-stale.toml", "", nullptr, "off->lp_flushed", false},
  };
}

std::optional<Spec> loaded(const std::string& path) {
  auto r = loadSpec(path);
  if (auto* e = std::get_if<Diagnostics>(&r)) {
    for (const auto& d : *e) std::cout << d.str() << "\n";
    return std::nullopt;
  }
  return std::get<Spec>(std::move(r));
}

void runHandCases(z3::context& c, const Options& opt, Totals& totals) {
  std::string dir = std::string(PATCHCHECK_SOURCE_DIR) + "/tests/data/specs/model/";
  std::cout << "== hand-made specs (" << dir << "): the enumeration must agree with the argued verdicts\n";
  for (const HandCase& hc : handCases()) {
    std::string what = hc.file + (hc.knob.empty() ? "" : " [" + hc.knob + "]") + " " + hc.item;
    bool fromRoot = hc.file.rfind("specs/", 0) == 0;
    auto spec = loaded(fromRoot ? std::string(PATCHCHECK_SOURCE_DIR) + "/" + hc.file : dir + hc.file);
    if (!spec) {
      ++totals.failed;
      std::cout << "FAIL  " << what << ": does not load\n";
      continue;
    }
    if (hc.change) hc.change(*spec);
    Finding f;
    if (hc.item.rfind("state ", 0) == 0) {
      f = explore(c, *spec, spec->target, nullptr, hc.item.substr(6), opt, totals);
    } else if (const TransitionSpec* t = findTransition(*spec, hc.item)) {
      f = explore(c, *spec, spec->target, t, "", opt, totals);
    } else {
      ++totals.failed;
      std::cout << "FAIL  " << what << ": no such transition\n";
      continue;
    }
    bool ok = f.trials > 0 && unsafeFound(f) == hc.unsafe;
    report(ok, what, f, hc.unsafe ? "unsafe" : "safe", totals);
  }
}

// ---- the shipped specs: every SAFE verdict must survive the enumeration

void runShipped(z3::context& c, const Options& opt, Totals& totals) {
  std::string dir = std::string(PATCHCHECK_SOURCE_DIR) + "/specs/mips";
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  unsigned unsafeAgreed = 0, unsafeUnseen = 0;
  for (const std::string& path : files) {
    auto spec = loaded(path);
    if (!spec) {
      ++totals.failed;
      continue;
    }
    std::cout << "== " << path << "\n";
    for (const mips::Target& t : targetsOf(*spec, true)) {
      CheckOptions copt;
      auto r = checkSpec(*spec, t, c, copt);
      if (auto* e = std::get_if<Diagnostics>(&r)) {
        ++totals.failed;
        std::cout << "FAIL  " << t.str() << ": " << (e->empty() ? "?" : e->front().str()) << "\n";
        continue;
      }
      const SpecResult& res = std::get<SpecResult>(r);
      for (const StateResult& st : res.states) {
        if (st.verdict != Verdict::Safe) continue;
        Finding f = explore(c, *spec, t, nullptr, st.state, opt, totals);
        report(f.trials > 0 && !unsafeFound(f), "state " + st.state + " [" + t.str() + "]", f, "safe", totals);
      }
      for (const TransitionResult& tr : res.transitions) {
        const TransitionSpec* ts = findTransition(*spec, tr.transition);
        if (!ts) continue;
        Finding f = explore(c, *spec, t, ts, "", opt, totals);
        if (tr.verdict == Verdict::Safe) {
          report(f.trials > 0 && !unsafeFound(f), tr.transition + " [" + t.str() + "]", f, "safe", totals);
        } else if (tr.verdict == Verdict::Unsafe) {
          // Not a test (a bounded random search may miss it): counted only.
          (f.violation ? unsafeAgreed : unsafeUnseen)++;
        }
      }
    }
  }
  std::cout << "checker UNSAFE transitions the enumeration also broke: " << unsafeAgreed << ", did not: "
            << unsafeUnseen << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--trials") opt.trials = unsigned(std::stoul(argv[i + 1]));
    else if (a == "--seed") opt.seed = std::stoull(argv[i + 1]);
    else {
      std::cerr << "usage: bruteforce_recheck [--trials N] [--seed S]\n";
      return 2;
    }
  }
  auto start = std::chrono::steady_clock::now();
  z3::context c;  // one per run
  Totals totals;
  runHandCases(c, opt, totals);
  runShipped(c, opt, totals);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "scenarios " << totals.scenarios << " (placements skipped " << totals.skipped << "), worlds "
            << totals.worlds << ", instructions " << totals.instructions << ", pass ends " << totals.passes
            << ", " << secs << " s\n";
  std::cout << totals.passed << " passed, " << totals.failed << " failed\n";
  return totals.failed ? 1 : 0;
}
