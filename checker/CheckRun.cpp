#include "checker/CheckRun.h"

#include <optional>

#include "checker/Jobs.h"
#include "checker/SiteInstance.h"
#include "checker/Trampolines.h"

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

JobResult runJob(const Spec& spec, const mips::Target& t, const Job& job, CheckOptions opt) {
  JobResult out;
  z3::context ctx;  // this job is its own checker run
  auto contracts = trampolineContracts(spec, t, ctx);
  if (auto* e = std::get_if<Diagnostics>(&contracts)) {
    out.errors = *e;
    return out;
  }
  opt.contracts = std::get<std::map<std::string, TrampolineContract>>(contracts);
  auto site = SiteInstance::make(spec, t, ctx);
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
                                                                const std::vector<mips::Target>& targets,
                                                                const CheckOptions& opt, const RunControl& rc,
                                                                const TransitionFilter& filter) {
  if (opt.transition) {
    bool found = false;
    for (const TransitionSpec& tr : spec.transitions) found = found || tr.name() == *opt.transition;
    if (!found) return Diagnostics{{{spec.path, 0, 0}, "no transition '" + *opt.transition + "' in this spec"}};
  }
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
    results[i] = runJob(spec, targets[jobs[i].target], jobs[i], opt);
    if (rc.progress) {
      std::string item = spec.name + " " + targets[jobs[i].target].str();
      if (jobs[i].transition) item += " " + spec.transitions[*jobs[i].transition].name();
      rc.progress->advance(item);
    }
  });
  std::vector<SpecResult> out(targets.size());
  for (SpecResult& r : out) r.spec = spec.name, r.specPath = spec.path;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (!results[i].errors.empty()) return results[i].errors;
    SpecResult& r = out[jobs[i].target];
    if (results[i].transition) r.transitions.push_back(std::move(*results[i].transition));
    else r.states = std::move(results[i].states);
  }
  return out;
}

}  // namespace patchcheck
