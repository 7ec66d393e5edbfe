// `patchcheck synth`: the cheapest safe order of single-unit writes (words;
// x86: bytes, with int3 as the interim) and barriers for one transition,
// or a proof that none exists.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "checker/cli/Commands.h"
#include "checker/cli/LimitOptions.h"
#include "checker/cli/TargetOptions.h"
#include "checker/cli/TrampolineDirOption.h"
#include "checker/explore/Progress.h"
#include "checker/explore/SiteInstance.h"
#include "checker/explore/Synthesis.h"
#include "checker/explore/TrampolineProof.h"
#include "checker/spec/FetchRegistry.h"

namespace patchcheck {
namespace {

struct SynthArgs {
  std::string spec, transition, fetch;
  bool interim = false, all = false;
  Limits limits;
  unsigned maxChecks = 4000;
  TargetOptions target;
  TrampolineDirOption trampolines;
};

std::string countsLine(const Counts& c) {
  char buf[128];
  snprintf(buf, sizeof buf, "%u intermediate states, %u executions, %u paths, %u queries", c.intermediateStates,
           c.executions, c.paths, c.queries);
  return buf;
}

// The counterexample in one line: what the pass saw and the rule it broke.
std::string oneLine(const FirstWriteFailure& f, const char* units) {
  std::string s = "after [" + stepsText(f.prefix) + "]: ";
  if (f.verdict == Verdict::Unknown) return s + "the solver could not decide";
  if (!f.counterexample) return s + "unsafe";
  if (!f.counterexample->intermediateState.empty())
    s += std::string(units) + " seen " + f.counterexample->intermediateState + ": ";
  return s + f.counterexample->rule;
}

void print(const SynthResult& r, const Spec& spec, const Target& t, double seconds) {
  const char* units = spec.byteUnits ? "bytes" : "words";
  std::cout << spec.path << " [" << t.str() << "] " << r.transition << " (fetch " << spec.model.fetch->name()
            << ")\n";
  for (const SafeOrder& o : r.orders) {
    std::cout << "  safe order: " << stepsText(o.steps) << "  (" << o.steps.size() << (o.steps.size() == 1 ? " step, " : " steps, ") << o.barriers
              << (o.barriers == 1 ? " barrier" : " barriers") << ")\n";
    std::cout << "    proof: " << name(o.proof.verdict) << ", " << countsLine(o.proof.counts) << "\n";
  }
  if (r.orders.empty() && !r.undecided) {
    std::cout << "  no safe order exists: every order of single-" << (spec.byteUnits ? "byte" : "word") << " writes"
              << (spec.byteUnits && t.isa->patching().patchBreakpoint() ? " (" + std::string(*t.isa->patching().patchBreakpoint()) +
                                                                   " where an instruction starts included)"
                                                             : "")
              << (r.failures.empty() ? "" : " fails") << " (with any barriers)\n";
    for (const FirstWriteFailure& f : r.failures)
      std::cout << "    first " << f.firstWrite << ": " << (f.explored ? oneLine(f, units) : "not reached") << "\n";
  }
  if (r.orders.empty() && r.undecided) std::cout << "  undecided: " << r.undecidedWhy << "\n";
  char buf[200];
  snprintf(buf, sizeof buf,
           "  examined %u candidate prefixes and orders: %u prefixes and %u full orders checked, %u pruned as unsafe (%.1f s)\n",
           r.examined, r.prefixesChecked, r.ordersChecked, r.pruned, seconds);
  std::cout << buf;
}

int runSynth(const SynthArgs& a) {
  if (auto p = a.trampolines.problem()) {
    std::cerr << "<command line>: error: " << *p << "\n";
    return 2;
  }
  auto loaded = loadSpec(a.spec);
  if (auto* e = std::get_if<Diagnostics>(&loaded)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  Spec spec = std::get<Spec>(std::move(loaded));  // outlives the site, which points into it
  a.trampolines.applyTo(spec);
  auto chosen = a.target.forSpec(spec, spec.target);
  if (auto* e = std::get_if<Diagnostics>(&chosen)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  Target t = std::get<Target>(chosen);
  if (!a.fetch.empty()) {
    // An ISA that names one model (arm64, x86: its architecture's) takes no other.
    const FetchRules* m = fetchModelNamed(a.fetch);
    if (t.isa->fetchModels().size() == 1) {
      std::cerr << "<command line>: error: --fetch " << a.fetch << ": " << t.isa->family()
                << " instruction fetch follows its architecture's model (" << t.isa->fetchModels().front()
                << "), the spec's only one\n";
      return 2;
    }
    if (!m || !allowsFetchModel(*t.isa, *m)) {
      std::cerr << "<command line>: error: --fetch " << a.fetch << ": " << t.isa->family() << " uses "
                << fetchModelsText(*t.isa) << "\n";
      return 2;
    }
    spec.model.fetch = m;
  }
  auto start = std::chrono::steady_clock::now();
  z3::context ctx;  // one per run
  SynthOptions opt;
  opt.interim = a.interim;
  opt.all = a.all;
  opt.maxChecks = a.maxChecks;
  opt.check.limits = a.limits;
  auto contracts = trampolineContracts(spec, t, ctx, opt.check.limits);
  auto site = SiteInstance::make(spec, t, ctx, opt.check.limits.timeoutMs);
  Diagnostics errs;
  if (auto* e = std::get_if<Diagnostics>(&contracts)) errs = *e;
  else if (auto* e2 = std::get_if<Diagnostics>(&site)) errs = *e2;
  if (!errs.empty()) {
    for (const auto& d : errs) std::cerr << d.str() << "\n";
    return 2;
  }
  opt.check.contracts = std::get<std::map<std::string, TrampolineContract>>(contracts);
  // A search may take minutes: a bar on a terminal, of at most maxChecks candidates.
  Progress progress("synth " + a.transition);
  progress.addWork(opt.maxChecks);
  opt.progress = &progress;
  auto r = synthesize(std::get<SiteInstance>(site), a.transition, opt);
  progress.clear();
  if (auto* e = std::get_if<Diagnostics>(&r)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  const SynthResult& res = std::get<SynthResult>(r);
  print(res, spec, t, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (!res.orders.empty()) return 0;
  return res.undecided ? 3 : 1;
}

}  // namespace

void addSynthCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<SynthArgs>();
  CLI::App* cmd = app.add_subcommand("synth", "Find the cheapest safe order of writes and barriers for a transition");
  cmd->add_option("spec", args->spec, "spec file (TOML)")->required();
  cmd->add_option("--transition", args->transition, "FROM->TO over the spec's states")->required();
  cmd->add_option("--fetch", args->fetch, "fetch model instead of the spec's [model] fetch (MIPS)")
      ->check(CLI::IsMember(choosableFetchModelNames()));
  cmd->add_flag("--interim", args->interim,
                "also try interim words taken from the spec's other states (a byte site always tries int3)");
  cmd->add_flag("--all", args->all, "every minimal order, not just the first");
  addLimitOptions(*cmd, args->limits);
  cmd->add_option("--max-checks", args->maxChecks, "checker runs before the search gives up (exit 3)");
  args->target.addTo(*cmd);
  args->trampolines.addTo(*cmd);
  cmd->callback([args, &exitCode] { exitCode = runSynth(*args); });
}

}  // namespace patchcheck
