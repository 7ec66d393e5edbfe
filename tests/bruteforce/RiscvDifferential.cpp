#include "tests/bruteforce/RiscvDifferential.h"

#include <functional>
#include <set>

#include "encoder/Hex.h"
#include "encoder/riscv/Registers.h"
#include "tests/bruteforce/RiscvExecutions.h"

namespace bruteforce::rv {
namespace {

using patchcheck::hex;

std::string describe(const Scenario& s) {
  std::string d = "F=" + hex(s.placement.function);
  for (const auto& [n, v] : s.placement.symbols) d += " " + n + "=" + hex(v);
  d += " entry:";
  for (unsigned r : {1u, 2u, 5u}) d += " " + std::string(patchcheck::riscv::gprName(r)) + "=" + hex(s.entry[r]);
  return d;
}

void add(Totals& t, const Enumeration& e) {
  ++t.scenarios;
  t.worlds += e.worlds;
  t.instructions += e.instructions;
  t.passes += e.passes;
}

// The checker's reasons that rest on the writer's steps alone.
bool structural(const std::string& rule) {
  return rule.rfind("the steps do not end in", 0) == 0 || rule.rfind("not published: ", 0) == 0 ||
         rule.rfind("not synchronised ", 0) == 0;
}

struct Finding {
  bool violation = false, unpublished = false, bounded = false;
  std::string first, undecided, unreached;
  unsigned trials = 0;
};

Finding explore(z3::context& c, const patchcheck::Spec& spec, const Target& t, const patchcheck::TransitionSpec* tr,
                const std::string& state, unsigned trials, uint64_t seed, Totals& totals) {
  Finding f;
  std::mt19937_64 rng(seed ^ std::hash<std::string>()(spec.name + (tr ? tr->name() : state) + t.str()));
  std::set<std::string> reached;
  for (unsigned k = 0; k < trials; ++k) {
    Placement p;
    PlacementMode mode = k == 0 ? PlacementMode::LowEdges : k == 1 ? PlacementMode::HighEdges : PlacementMode::Random;
    if (std::string why = place(spec, t, mode, rng, p); !why.empty()) {
      ++totals.skipped;
      if (f.undecided.empty()) f.undecided = "no placement: " + why;
      continue;
    }
    auto made = tr ? transitionScenario(spec, t, p, *tr) : stateScenario(spec, t, p, state);
    if (auto* e = std::get_if<std::string>(&made)) {
      ++totals.skipped;  // a unit does not assemble at this placement
      if (f.undecided.empty()) f.undecided = *e;
      continue;
    }
    Scenario s = std::get<Scenario>(std::move(made));
    s.entry = entryRegisters(t, rng);
    Enumeration e = enumerate(c, s);
    add(totals, e);
    if (!e.undecided.empty()) {
      f.undecided = e.undecided;
      continue;
    }
    ++f.trials;
    f.bounded = f.bounded || e.bounded;
    reached.insert(e.reached.begin(), e.reached.end());
    if (!e.unpublished.empty() && !f.unpublished) {
      f.unpublished = true;
      if (!f.violation) f.first = e.unpublished;
    }
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

}  // namespace

Comparison compareWithChecker(z3::context& c, const patchcheck::Spec& spec, const Target& t,
                              const patchcheck::SpecResult& r, unsigned trials, uint64_t seed, Totals& totals) {
  Comparison out;
  auto judge = [&](const std::string& item, patchcheck::Verdict v, const std::optional<patchcheck::Counterexample>& cx,
                   const patchcheck::TransitionSpec* tr, const std::string& state) {
    if (v == patchcheck::Verdict::Unknown) {
      ++out.unknown;
      return;
    }
    if (v == patchcheck::Verdict::Safe || (cx && structural(cx->rule)) ||
        (cx && cx->rule.find("but no pass does") != std::string::npos)) {
      Finding f = explore(c, spec, t, tr, state, trials, seed, totals);
      if (!f.trials) {
        out.undecided.push_back(item + ": " + (f.undecided.empty() ? "no scenario" : f.undecided));
        return;
      }
      bool unsafe = f.violation || f.unpublished || !f.unreached.empty();
      if (v == patchcheck::Verdict::Safe) {
        if (f.bounded && !unsafe) {
          out.undecided.push_back(item + ": the world bound was hit");
          return;
        }
        if (unsafe)
          out.disagreements.push_back(item + ": SAFE, but the enumeration finds " +
                                      (f.unreached.empty() ? f.first : "no pass doing '" + f.unreached + "'"));
        else ++out.safeConfirmed;
        return;
      }
      bool same = cx->rule.find("but no pass does") != std::string::npos ? !f.unreached.empty()
                  : cx->rule.rfind("the steps do not end in", 0) == 0   ? f.violation
                                                                          : f.unpublished;
      if (same) ++out.unsafeReproduced;
      else out.disagreements.push_back(item + ": UNSAFE (" + cx->rule + "), but the enumeration's own rules do not say so");
      return;
    }
    if (!cx) {
      out.disagreements.push_back(item + ": UNSAFE without a counterexample");
      return;
    }
    Placement p;
    for (const auto& [name, value] : cx->symbols) {
      if (name == spec.function) p.function = value;
      else p.symbols[name] = value;
    }
    auto made = tr ? transitionScenario(spec, t, p, *tr) : stateScenario(spec, t, p, state);
    if (auto* e = std::get_if<std::string>(&made)) {
      out.undecided.push_back(item + ": the counterexample's placement does not assemble: " + *e);
      return;
    }
    Scenario s = std::get<Scenario>(std::move(made));
    for (const auto& [name, value] : cx->entryRegisters)
      if (auto reg = patchcheck::riscv::parseGpr(name)) s.entry[*reg] = value;
    Enumeration e = enumerate(c, s);
    add(totals, e);
    if (e.violations) ++out.unsafeReproduced;
    else if (!e.undecided.empty()) out.undecided.push_back(item + ": " + e.undecided);
    else
      out.disagreements.push_back(item + ": UNSAFE, but no interleaving at the counterexample's placement (" +
                                  describe(s) + ") breaks a rule; checker: " + cx->rule);
  };
  for (const patchcheck::StateResult& st : r.states)
    judge("state " + st.state, st.verdict, st.counterexample, nullptr, st.state);
  for (const patchcheck::TransitionResult& tr : r.transitions) {
    const patchcheck::TransitionSpec* ts = nullptr;
    for (const auto& x : spec.transitions)
      if (x.name() == tr.transition) ts = &x;
    if (ts) judge(tr.transition, tr.verdict, tr.counterexample, ts, "");
  }
  totals.agreements += out.safeConfirmed + out.unsafeReproduced;
  return out;
}

}  // namespace bruteforce::rv
