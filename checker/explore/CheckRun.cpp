#include "checker/explore/CheckRun.h"

#include <algorithm>
#include <map>
#include <optional>

#include "checker/explore/BatchCheck.h"
#include "checker/explore/Jobs.h"
#include "checker/explore/Kprobes.h"
#include "checker/explore/SiteInstance.h"
#include "checker/explore/TrampolineProof.h"

namespace patchcheck {
namespace {

// Everything checked on one target: its site, its trampolines' proofs, its
// states and its transitions, one after another in one Z3 context.
struct TargetRun {
  Diagnostics errors;  // an input error: nothing else is kept
  std::map<std::string, TrampolineContract> contracts;
  std::vector<StateResult> states;
  std::vector<TransitionResult> transitions;  // those wanted, in spec order
};

// What a check that ran out of memory (or tripped over a solver error)
// answers: UNKNOWN, with the reason. It never takes the run down.
std::string failure(const std::function<void()>& check) {
  try {
    check();
    return "";
  } catch (const std::bad_alloc&) {
    return "out of memory (lower --max-memory to stop earlier)";
  } catch (const z3::exception& e) {
    return std::string("solver error: ") + e.msg();
  }
}

std::vector<StateResult> unknownStates(const Spec& spec, const std::vector<StateSpec>& states, const Target& t,
                                       const std::string& why) {
  std::vector<StateResult> out;
  for (const StateSpec& st : states) {
    StateResult r;
    r.state = st.name;
    if (auto e = spec.stateExpect.find(st.name); e != spec.stateExpect.end()) r.expect = e->second;
    r.target = t;
    r.verdict = Verdict::Unknown;
    r.declared = spec.behaviour.at(st.name).str();
    r.unknownReason = why;
    out.push_back(r);
  }
  return out;
}

TransitionResult unknownTransition(const Spec& spec, const Target& t, const TransitionSpec& tr,
                                   const std::string& why) {
  TransitionResult r;
  r.spec = spec.name;
  r.specPath = spec.path;
  r.transition = tr.name();
  r.from = tr.from, r.to = tr.to;
  r.where = tr.where;
  r.target = t;
  r.expect = tr.expect;
  r.verdict = Verdict::Unknown;
  r.unknownReason = why;
  return r;
}

// The jobs of one target share a context, a site and a prover, in a fixed
// order: the output is the same whatever the number of threads.
TargetRun runTarget(const Spec& spec, const Target& t, const CheckOptions& opt, const std::vector<size_t>& wanted,
                    const RunControl& rc) {
  TargetRun out;
  z3::context ctx;  // this target is its own checker run
  auto made = SiteInstance::make(spec, t, ctx, opt.limits.timeoutMs);
  if (auto* e = std::get_if<Diagnostics>(&made)) {
    out.errors = *e;
    return out;
  }
  const SiteInstance& site = std::get<SiteInstance>(made);
  // A probe the kernel refuses is an input error, whatever is checked.
  if (auto probes = siteKprobes(site); auto* e = std::get_if<Diagnostics>(&probes)) {
    out.errors = *e;
    return out;
  }
  auto advance = [&](const std::string& what) {
    if (rc.progress) rc.progress->advance(spec.name + " " + t.str() + what);
  };
  CheckOptions options = opt;
  if (!spec.trampolines.empty()) {
    out.contracts = trampolineContracts(site, opt.limits);
    options.contracts = out.contracts;
    advance(" trampolines");
  }
  // A check that fails leaves the prover in no known state: the next one
  // starts on a fresh one.
  std::optional<SiteChecker> checker;
  auto fresh = [&]() -> SiteChecker& {
    if (!checker) checker.emplace(site, options);
    return *checker;
  };
  // `--transition X` asks about X: the states it goes between are checked
  // with it, no other (a state that hangs must not hold up another's
  // transition).
  std::vector<StateSpec> states;
  for (const StateSpec& st : spec.states) {
    bool involved = !opt.transition;
    for (size_t k : wanted) involved = involved || spec.transitions[k].from == st.name || spec.transitions[k].to == st.name;
    if (involved) states.push_back(st);
  }
  std::string why = failure([&] {
    for (const StateSpec& st : states) {
      BatchStateAttempt batch = proveBatchState(site, st, options);
      out.states.push_back(batch.proven ? std::move(*batch.proven) : fresh().state(st));
      if (!batch.proven && !batch.note.empty()) out.states.back().notes.push_back(batch.note);
    }
  });
  if (!why.empty()) {
    out.states = unknownStates(spec, states, t, why);
    checker.reset();
  }
  advance("");
  for (size_t k : wanted) {
    const TransitionSpec& tr = spec.transitions[k];
    std::optional<std::variant<TransitionResult, Diagnostics>> r;
    // A batch is proven on one instance first (BatchCheck.h).
    BatchAttempt batch;
    if (failure([&] { batch = proveBatch(site, tr, options); }).empty() && batch.proven) {
      out.transitions.push_back(std::move(*batch.proven));
      advance(" " + tr.name());
      continue;
    }
    why = failure([&] { r = fresh().transition(tr); });
    if (!why.empty()) {
      out.transitions.push_back(unknownTransition(spec, t, tr, why));
      checker.reset();
    } else if (auto* e = std::get_if<Diagnostics>(&*r)) {
      out.errors = *e;
      return out;
    } else {
      out.transitions.push_back(std::get<TransitionResult>(std::move(*r)));
      if (!batch.note.empty()) out.transitions.back().notes.push_back(batch.note);
    }
    advance(" " + tr.name());
  }
  return out;
}

}  // namespace

namespace {

// The transitions wanted on each target of one spec, or the input error
// that stops the spec.
std::variant<std::vector<std::vector<size_t>>, Diagnostics> wantedTransitions(const SpecCheck& item, Progress* progress) {
  const Spec& spec = *item.spec;
  const CheckOptions& opt = item.options;
  std::vector<const TransitionSpec*> chosen;
  if (opt.transition) {
    chosen = spec.transitionsNamed(*opt.transition);
    if (chosen.empty())
      return Diagnostics{{{"<command line>", 0, 0}, std::get<std::string>(spec.transitionNamed(*opt.transition))}};
  }
  std::vector<std::vector<size_t>> wanted(item.targets.size());
  size_t items = 0;
  for (size_t ti = 0; ti < item.targets.size(); ++ti) {
    items += 1 + (spec.trampolines.empty() ? 0 : 1);
    if (opt.statesOnly) continue;
    for (size_t k = 0; k < spec.transitions.size(); ++k) {
      const TransitionSpec& tr = spec.transitions[k];
      if (opt.transition && std::find(chosen.begin(), chosen.end(), &tr) == chosen.end()) continue;
      if (item.filter && !item.filter(item.targets[ti], tr)) continue;
      wanted[ti].push_back(k);
    }
    items += wanted[ti].size();
  }
  if (progress) progress->addWork(items);
  return wanted;
}

// How long a target's job looks, to start the long ones first. In make
// bench's split a trampoline's proof costs 10 to 20 transitions (33 ms
// against 1.6 ms, and an entry or two per trampoline file); a transition
// or a state counts one.
size_t weight(const Spec& spec, size_t transitions) {
  return 10 * spec.trampolines.size() + transitions + spec.states.size();
}

}  // namespace

std::vector<std::variant<std::vector<SpecResult>, Diagnostics>> checkSpecs(const std::vector<SpecCheck>& items,
                                                                           const RunControl& rc) {
  std::vector<std::variant<std::vector<SpecResult>, Diagnostics>> out(items.size());
  std::vector<std::vector<std::vector<size_t>>> wanted(items.size());
  struct Job {
    size_t item, target, weight;
  };
  std::vector<Job> jobs;
  for (size_t i = 0; i < items.size(); ++i) {
    auto w = wantedTransitions(items[i], rc.progress);
    if (auto* e = std::get_if<Diagnostics>(&w)) {
      out[i] = *e;
      continue;
    }
    wanted[i] = std::get<std::vector<std::vector<size_t>>>(std::move(w));
    for (size_t t = 0; t < items[i].targets.size(); ++t)
      jobs.push_back({i, t, weight(*items[i].spec, wanted[i][t].size())});
  }
  // Heaviest first, so that no long job starts when the others are done;
  // results go to their own slots, so the order of the output stays.
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.weight > b.weight; });
  std::vector<std::vector<TargetRun>> runs(items.size());
  for (size_t i = 0; i < items.size(); ++i) runs[i].resize(items[i].targets.size());
  runJobs(rc.jobs, jobs.size(), [&](size_t j) {
    const Job& job = jobs[j];
    const SpecCheck& item = items[job.item];
    runs[job.item][job.target] =
        runTarget(*item.spec, item.targets[job.target], item.options, wanted[job.item][job.target], rc);
  });
  for (size_t i = 0; i < items.size(); ++i) {
    if (std::holds_alternative<Diagnostics>(out[i])) continue;
    const Spec& spec = *items[i].spec;
    // A spec error is reported for the first target that finds one.
    auto error = std::find_if(runs[i].begin(), runs[i].end(), [](const TargetRun& r) { return !r.errors.empty(); });
    if (error != runs[i].end()) {
      out[i] = error->errors;
      continue;
    }
    std::vector<SpecResult> results(items[i].targets.size());
    for (size_t t = 0; t < results.size(); ++t) {
      results[t].spec = spec.name, results[t].specPath = spec.path;
      for (const auto& [key, k] : runs[i][t].contracts)
        results[t].trampolines.push_back(trampolineResult(k, items[i].targets[t]));
      results[t].states = std::move(runs[i][t].states);
      results[t].transitions = std::move(runs[i][t].transitions);
    }
    out[i] = std::move(results);
  }
  return out;
}

std::variant<std::vector<SpecResult>, Diagnostics> checkTargets(const Spec& spec, const std::vector<Target>& targets,
                                                                const CheckOptions& opt, const RunControl& rc,
                                                                const TransitionFilter& filter) {
  return std::move(checkSpecs({{&spec, targets, opt, filter}}, rc).front());
}

}  // namespace patchcheck
