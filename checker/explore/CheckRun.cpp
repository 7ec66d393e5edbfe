#include "checker/explore/CheckRun.h"

#include <map>
#include <optional>

#include "checker/explore/Jobs.h"
#include "checker/explore/SiteInstance.h"
#include "checker/explore/TrampolineProof.h"

namespace patchcheck {
namespace {

struct Job {
  size_t target = 0;
  std::optional<size_t> transition;  // none: the states
};

struct JobResult {
  std::vector<StateResult> states;
  std::optional<TransitionResult> transition;
  Diagnostics errors;
};

// The trampolines of one target, each entry proven against its contract.
struct ContractProofs {
  std::map<std::string, TrampolineContract> contracts;
  Diagnostics errors;
};

// The site's solver checks for one target, asked once for all its jobs.
std::variant<SiteChecks, Diagnostics> checkSite(const Spec& spec, const Target& t, const Limits& limits) {
  z3::context ctx;
  auto site = SiteInstance::make(spec, t, ctx, limits.timeoutMs);
  if (auto* e = std::get_if<Diagnostics>(&site)) return *e;
  return std::get<SiteInstance>(site).checks();
}

ContractProofs proveContracts(const Spec& spec, const Target& t, const Limits& limits, const SiteChecks& checked) {
  ContractProofs out;
  z3::context ctx;  // this job is its own checker run
  auto contracts = trampolineContracts(spec, t, ctx, limits, &checked);
  if (auto* e = std::get_if<Diagnostics>(&contracts)) out.errors = *e;
  else out.contracts = std::get<std::map<std::string, TrampolineContract>>(std::move(contracts));
  return out;
}

JobResult runJob(const Spec& spec, const Target& t, const Job& job, const CheckOptions& opt,
               const SiteChecks& checked);

// A job that runs out of memory (or trips over a solver error) answers
// UNKNOWN for what it was to check, with the reason; it never takes the
// run down.
JobResult guardedJob(const Spec& spec, const Target& t, const Job& job, const CheckOptions& opt,
                     const SiteChecks& checked) {
  std::string why;
  try {
    return runJob(spec, t, job, opt, checked);
  } catch (const std::bad_alloc&) {
    why = "out of memory (lower --max-memory to stop earlier)";
  } catch (const z3::exception& e) {
    why = std::string("solver error: ") + e.msg();
  }
  JobResult out;
  if (!job.transition) {
    for (const StateSpec& st : spec.states) {
      StateResult r;
      r.state = st.name;
      if (auto e = spec.stateExpect.find(st.name); e != spec.stateExpect.end()) r.expect = e->second;
      r.target = t;
      r.verdict = Verdict::Unknown;
      r.declared = spec.behaviour.at(st.name).str();
      r.unknownReason = why;
      out.states.push_back(r);
    }
    return out;
  }
  const TransitionSpec& tr = spec.transitions[*job.transition];
  TransitionResult r;
  r.spec = spec.name;
  r.specPath = spec.path;
  r.transition = tr.name();
  r.where = tr.where;
  r.target = t;
  r.expect = tr.expect;
  r.verdict = Verdict::Unknown;
  r.unknownReason = why;
  out.transition = r;
  return out;
}

JobResult runJob(const Spec& spec, const Target& t, const Job& job, const CheckOptions& opt,
               const SiteChecks& checked) {
  JobResult out;
  z3::context ctx;  // this job is its own checker run
  auto site = SiteInstance::make(spec, t, ctx, opt.limits.timeoutMs, &checked);
  if (auto* e = std::get_if<Diagnostics>(&site)) {
    out.errors = *e;
    return out;
  }
  const SiteInstance& s = std::get<SiteInstance>(site);
  if (!job.transition) {
    for (const StateSpec& st : spec.states) out.states.push_back(checkState(s, st, opt));
    return out;
  }
  auto r = checkTransition(s, spec.transitions[*job.transition], opt);
  if (auto* e = std::get_if<Diagnostics>(&r)) out.errors = *e;
  else out.transition = std::get<TransitionResult>(r);
  return out;
}

}  // namespace

std::variant<std::vector<SpecResult>, Diagnostics> checkTargets(const Spec& spec,
                                                                const std::vector<Target>& targets,
                                                                const CheckOptions& opt, const RunControl& rc,
                                                                const TransitionFilter& filter) {
  if (opt.transition) {
    bool found = false;
    for (const TransitionSpec& tr : spec.transitions) found = found || tr.name() == *opt.transition;
    if (!found) return Diagnostics{{{"<command line>", 0, 0}, "--transition: no transition '" + *opt.transition + "' in " + spec.path}};
  }
  // First the site's solver checks, once per target (a spec error stops
  // here, at its first target), then the trampolines' own proofs, one job
  // per target: the site checks use their contracts.
  std::vector<std::variant<SiteChecks, Diagnostics>> sites(targets.size());
  runJobs(rc.jobs, targets.size(), [&](size_t i) { sites[i] = checkSite(spec, targets[i], opt.limits); });
  std::vector<SiteChecks> checked;
  for (const auto& s : sites) {
    if (auto* e = std::get_if<Diagnostics>(&s)) return *e;
    checked.push_back(std::get<SiteChecks>(s));
  }
  std::vector<ContractProofs> proofs(targets.size());
  if (!spec.trampolines.empty()) {
    if (rc.progress) rc.progress->addWork(targets.size());
    runJobs(rc.jobs, targets.size(), [&](size_t i) {
      proofs[i] = proveContracts(spec, targets[i], opt.limits, checked[i]);
      if (rc.progress) rc.progress->advance(spec.name + " " + targets[i].str() + " trampolines");
    });
    for (const ContractProofs& p : proofs)
      if (!p.errors.empty()) return p.errors;
  }
  std::vector<CheckOptions> options(targets.size(), opt);
  for (size_t i = 0; i < targets.size(); ++i) options[i].contracts = proofs[i].contracts;
  std::vector<Job> jobs;
  for (size_t ti = 0; ti < targets.size(); ++ti) {
    jobs.push_back({ti, std::nullopt});
    if (opt.statesOnly) continue;
    for (size_t k = 0; k < spec.transitions.size(); ++k) {
      const TransitionSpec& tr = spec.transitions[k];
      if (opt.transition && tr.name() != *opt.transition) continue;
      if (filter && !filter(targets[ti], tr)) continue;
      jobs.push_back({ti, k});
    }
  }
  if (rc.progress) rc.progress->addWork(jobs.size());
  std::vector<JobResult> results(jobs.size());
  runJobs(rc.jobs, jobs.size(), [&](size_t i) {
    results[i] = guardedJob(spec, targets[jobs[i].target], jobs[i], options[jobs[i].target], checked[jobs[i].target]);
    if (rc.progress) {
      std::string item = spec.name + " " + targets[jobs[i].target].str();
      if (jobs[i].transition) item += " " + spec.transitions[*jobs[i].transition].name();
      rc.progress->advance(item);
    }
  });
  std::vector<SpecResult> out(targets.size());
  for (size_t i = 0; i < targets.size(); ++i) {
    out[i].spec = spec.name, out[i].specPath = spec.path;
    for (const auto& [key, k] : proofs[i].contracts) out[i].trampolines.push_back(trampolineResult(k, targets[i]));
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!results[i].errors.empty()) return results[i].errors;
    SpecResult& r = out[jobs[i].target];
    if (results[i].transition) r.transitions.push_back(std::move(*results[i].transition));
    else r.states = std::move(results[i].states);
  }
  return out;
}

}  // namespace patchcheck
