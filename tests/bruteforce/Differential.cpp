#include "tests/bruteforce/Differential.h"

#include <functional>
#include <random>
#include <set>

#include "encoder/Hex.h"
#include "encoder/mips/Registers.h"

namespace bruteforce {
namespace {

using patchcheck::hex;

std::string describe(const Scenario& s) {
  std::string d = "F=" + hex(s.placement.function);
  for (const auto& [n, v] : s.placement.symbols) d += " " + n + "=" + hex(v);
  return d;
}

const patchcheck::TransitionSpec* findTransition(const patchcheck::Spec& s, const std::string& name) {
  for (const auto& t : s.transitions)
    if (t.name() == name) return &t;
  return nullptr;
}

void add(Totals& t, const Enumeration& e) {
  ++t.scenarios;
  t.worlds += e.worlds;
  t.instructions += e.instructions;
  t.passes += e.passes;
}

bool structural(const patchcheck::Counterexample& cx) {
  // The writer's steps alone (no execution to reproduce): the steps do not
  // end in `to`, a state no pass reaches, or `to` never published.
  return cx.rule.find("the steps do not end in") == 0 || cx.rule.find("but no pass does") != std::string::npos ||
         cx.rule.find("not published: ") == 0 || cx.rule.find("not synchronised ") == 0;
}

}  // namespace

Finding explore(z3::context& c, const patchcheck::Spec& spec, const mips::Target& t,
                const patchcheck::TransitionSpec* tr, const std::string& state, unsigned trials, uint64_t seed,
                Totals& totals) {
  Finding f;
  std::mt19937_64 rng(seed ^ std::hash<std::string>()(spec.name + (tr ? tr->name() : state) + t.str()));
  std::set<std::string> reached;
  for (unsigned k = 0; k < trials; ++k) {
    Placement p;
    PlacementMode mode = k == 0 ? PlacementMode::LowEdges : k == 1 ? PlacementMode::HighEdges : PlacementMode::Random;
    if (!place(spec, t, mode, rng, p).empty()) {
      ++totals.skipped;
      continue;
    }
    auto made = tr ? transitionScenario(spec, t, p, *tr) : stateScenario(spec, t, p, state);
    if (std::holds_alternative<std::string>(made)) {
      ++totals.skipped;  // a word does not encode at this placement
      continue;
    }
    Scenario s = std::get<Scenario>(std::move(made));
    s.entry = entryRegisters(t, rng);
    Enumeration e = enumerate(c, s);
    ++f.trials;
    add(totals, e);
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

bool fromCounterexample(const patchcheck::Counterexample& cx, const patchcheck::Spec& spec, const mips::Target& t,
                        Placement& p, std::array<uint64_t, 32>& regs) {
  p = Placement{};
  for (const auto& [name, value] : cx.symbols) {
    if (name == spec.function) p.function = value;
    else p.symbols[name] = value;
  }
  if (!cx.symbols.count(spec.function)) return false;
  regs = {};
  for (const auto& [name, value] : cx.entryRegisters)
    if (auto r = mips::parseGpr(name, t.abi)) regs[*r] = value;
  return true;
}

Comparison compareWithChecker(z3::context& c, const patchcheck::Spec& spec, const mips::Target& t,
                              const patchcheck::SpecResult& r, unsigned trials, uint64_t seed, Totals& totals) {
  Comparison out;
  auto reproduce = [&](const std::string& item, const patchcheck::Counterexample& cx,
                       const patchcheck::TransitionSpec* tr, const std::string& state) {
    if (structural(cx)) {
      ++out.structural;
      return;
    }
    Placement p;
    std::array<uint64_t, 32> regs{};
    if (!fromCounterexample(cx, spec, t, p, regs)) {
      out.disagreements.push_back({item, "the counterexample names no placement of F"});
      return;
    }
    auto made = tr ? transitionScenario(spec, t, p, *tr) : stateScenario(spec, t, p, state);
    if (auto* e = std::get_if<std::string>(&made)) {
      out.disagreements.push_back({item, "the counterexample's placement does not assemble: " + *e});
      return;
    }
    Scenario s = std::get<Scenario>(std::move(made));
    s.entry = regs;
    Enumeration e = enumerate(c, s);
    add(totals, e);
    if (e.violations) ++out.unsafeReproduced;
    else
      out.disagreements.push_back({item, "UNSAFE, but no interleaving at the counterexample's placement (" +
                                             describe(s) + ") and registers breaks a rule; checker: " + cx.rule});
  };
  for (const patchcheck::StateResult& st : r.states) {
    std::string item = "state " + st.state;
    if (st.verdict == patchcheck::Verdict::Unknown) {
      ++out.unknown;
    } else if (st.verdict == patchcheck::Verdict::Safe) {
      Finding f = explore(c, spec, t, nullptr, st.state, trials, seed, totals);
      if (f.violation) out.disagreements.push_back({item, "SAFE, but the enumeration breaks it: " + f.first});
      else if (!f.unreached.empty())
        out.disagreements.push_back({item, "SAFE, but no enumerated pass does '" + f.unreached + "'"});
      else if (f.bounded || !f.trials)
        out.disagreements.push_back({item, "SAFE, but the enumeration could not finish (bound or no placement)"});
      else ++out.safeConfirmed;
    } else if (st.counterexample) {
      reproduce(item, *st.counterexample, nullptr, st.state);
    }
  }
  for (const patchcheck::TransitionResult& tr : r.transitions) {
    const patchcheck::TransitionSpec* ts = findTransition(spec, tr.transition);
    if (!ts) continue;
    if (tr.verdict == patchcheck::Verdict::Unknown) {
      ++out.unknown;
    } else if (tr.verdict == patchcheck::Verdict::Safe) {
      Finding f = explore(c, spec, t, ts, "", trials, seed, totals);
      if (f.violation)
        out.disagreements.push_back({tr.transition, "SAFE, but the enumeration breaks it: " + f.first});
      else if (f.bounded || !f.trials)
        out.disagreements.push_back({tr.transition, "SAFE, but the enumeration could not finish (bound or no placement)"});
      else ++out.safeConfirmed;
    } else if (tr.counterexample) {
      reproduce(tr.transition, *tr.counterexample, ts, "");
    }
  }
  return out;
}

}  // namespace bruteforce
