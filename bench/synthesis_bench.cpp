// What `patchcheck synth` costs on the shipped specs (issue 16): every
// transition (FROM->TO) of every spec under specs/mips, specs/arm64 and specs/x86,
// synthesised on the spec's own [target] with the command's defaults (no
// --interim, no --all, --max-checks 4000), through the calls runSynth
// makes (checker/cli/SynthCommand.cpp): the trampolines' contracts proven,
// then in a fresh Z3 context the site made and the search. The proofs,
// nearly all of a run's time on the shipped specs, are done once per spec
// and counted once per run in the totals; the rest of each run is one row,
// in a child process stopped after kRowSeconds (bench/ChildRun.h).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "bench/ChildRun.h"
#include "bench/Measure.h"
#include "checker/explore/SiteInstance.h"
#include "checker/explore/Synthesis.h"
#include "checker/explore/TrampolineProof.h"

namespace patchcheck::bench {
namespace {

// Each synth run (one row) is stopped after this long (wall time): the
// search has no time limit of its own, only --max-checks checker runs of
// up to --max-seconds each.
constexpr unsigned kRowSeconds = 30;

std::vector<std::string> shippedSpecs() {
  std::vector<std::string> paths;
  for (const char* dir : {"specs/mips", "specs/arm64", "specs/x86"}) {
    std::vector<std::string> here;
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".toml") here.push_back(e.path().string());
    std::sort(here.begin(), here.end());
    paths.insert(paths.end(), here.begin(), here.end());
  }
  return paths;
}

// What one synth run found, in a few words.
std::string outcome(const SynthResult& r) {
  if (!r.orders.empty()) return "order: " + stepsText(r.orders.front().steps);
  if (r.undecided) return "undecided: " + r.undecidedWhy;
  return "no safe order";
}

struct Timing {
  double wall = 0, cpu = 0;
  unsigned stopped = 0;  // rows stopped at kRowSeconds (their wall time counted as kRowSeconds, no CPU time)
};

// The spec's trampolines proven against their contracts on `t`, as every
// synth run does first; nullopt (printed) on an input error.
std::optional<std::map<std::string, TrampolineContract>> proveContracts(const Spec& spec, const Target& t,
                                                                       Timing& time) {
  double c0 = cpuSeconds();
  auto w0 = std::chrono::steady_clock::now();
  z3::context ctx;
  auto contracts = trampolineContracts(spec, t, ctx, SynthOptions{}.check.limits);
  time.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  time.cpu = cpuSeconds() - c0;
  if (auto* e = std::get_if<Diagnostics>(&contracts)) {
    for (const Diagnostic& d : *e) std::printf("  %s\n", d.str().c_str());
    return std::nullopt;
  }
  return std::get<std::map<std::string, TrampolineContract>>(std::move(contracts));
}

// The rest of one `patchcheck synth SPEC --transition T`, in this process:
// its row, after its wall and CPU times on a first line.
std::string synthOne(const Spec& spec, const Target& t, const std::map<std::string, TrampolineContract>& contracts,
                     const std::string& transition) {
  double c0 = cpuSeconds();
  auto w0 = std::chrono::steady_clock::now();
  z3::context ctx;  // one per run
  SynthOptions opt;
  opt.check.contracts = contracts;
  auto site = SiteInstance::make(spec, t, ctx, opt.check.limits.timeoutMs);
  Diagnostics errs;
  std::string what;
  if (auto* e = std::get_if<Diagnostics>(&site)) errs = *e;
  else {
    auto r = synthesize(std::get<SiteInstance>(site), transition, opt);
    if (auto* e2 = std::get_if<Diagnostics>(&r)) errs = *e2;
    else {
      const SynthResult& res = std::get<SynthResult>(r);
      char counts[96];
      std::snprintf(counts, sizeof counts, " %6u %7u %6u  ", res.examined, res.prefixesChecked + res.ordersChecked,
                    res.pruned);
      what = counts + outcome(res);
    }
  }
  if (!errs.empty()) {
    what = "  error:";
    for (const Diagnostic& d : errs) what += "\n    " + d.str();
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  char head[128];
  std::snprintf(head, sizeof head, "%.6f %.6f\n", wall, cpuSeconds() - c0);
  return head + what;
}

// Runs one row in a child process stopped after kRowSeconds; prints it.
void synthRow(const Spec& spec, const Target& t, const std::map<std::string, TrampolineContract>& contracts,
              const std::string& transition, Timing& sum) {
  auto out = inChild(kRowSeconds, [&] { return synthOne(spec, t, contracts, transition); });
  double wall = 0, cpu = 0;
  int used = 0;
  if (!out || std::sscanf(out->c_str(), "%lf %lf%n", &wall, &cpu, &used) < 2 || (*out)[size_t(used)] != '\n') {
    std::printf("  %-20s %8s %8s  stopped after %u s: no result\n", transition.c_str(), "-", "-", kRowSeconds);
    sum.wall += kRowSeconds;
    ++sum.stopped;
    return;
  }
  std::printf("  %-20s %8.3f %8.3f%s\n", transition.c_str(), wall, cpu, out->c_str() + used + 1);
  sum.wall += wall, sum.cpu += cpu;
}

std::string total(const Timing& t) {
  char buf[160];
  if (t.stopped)
    std::snprintf(buf, sizeof buf, ">= %.3f s wall, >= %.3f s cpu (%u row(s) stopped at %u s)", t.wall, t.cpu,
                  t.stopped, kRowSeconds);
  else std::snprintf(buf, sizeof buf, "%.3f s wall, %.3f s cpu", t.wall, t.cpu);
  return buf;
}

}  // namespace

void synthesis() {
  std::printf("== synthesis: patchcheck synth on every transition of the shipped specs (the spec's [target],\n"
              "   the command's defaults). Every synth run first proves the spec's trampolines; here they are\n"
              "   proven once per spec, and each row is the rest of one run (site made, search), stopped after\n"
              "   %u s. exam. = candidates examined, checked = checker runs, pruned = unsafe prefixes\n",
              kRowSeconds);
  Timing proofs, searches, commands;
  unsigned transitions = 0;
  for (const std::string& path : shippedSpecs()) {
    auto loaded = loadSpec(path);
    if (auto* d = std::get_if<Diagnostics>(&loaded)) {
      for (const Diagnostic& e : *d) std::printf("  %s\n", e.str().c_str());
      continue;
    }
    const Spec& spec = std::get<Spec>(loaded);
    Target t = targetsOf(spec, false).front();
    std::printf("%s [%s] fetch %s\n", path.c_str(), t.str().c_str(), std::string(spec.model.fetch->name()).c_str());
    Timing proof;
    auto contracts = proveContracts(spec, t, proof);
    if (!contracts) continue;
    std::printf("  trampolines proven (%zu entries): %.3f s wall, %.3f s cpu\n", contracts->size(), proof.wall,
                proof.cpu);
    std::printf("  %-20s %8s %8s %6s %7s %6s  %s\n", "transition", "wall s", "cpu s", "exam.", "checked", "pruned",
                "outcome");
    Timing sum;
    std::vector<std::string> names;  // synth takes FROM->TO: a pair declared twice is one run
    for (const TransitionSpec& tr : spec.transitions)
      if (std::find(names.begin(), names.end(), tr.name()) == names.end()) names.push_back(tr.name());
    for (const std::string& n : names) synthRow(spec, t, *contracts, n, sum);
    transitions += unsigned(names.size());
    Timing runs{sum.wall + double(names.size()) * proof.wall, sum.cpu + double(names.size()) * proof.cpu, sum.stopped};
    std::printf("  searches: %s; as %zu synth runs (each proving the trampolines): %s\n", total(sum).c_str(),
                names.size(), total(runs).c_str());
    proofs.wall += proof.wall, proofs.cpu += proof.cpu;
    searches.wall += sum.wall, searches.cpu += sum.cpu, searches.stopped += sum.stopped;
    commands.wall += runs.wall, commands.cpu += runs.cpu, commands.stopped += runs.stopped;
  }
  std::printf("synthesis total, %u transitions: trampoline proofs %.3f s wall, %.3f s cpu (once per spec);\n"
              "  searches %s; as separate synth runs %s\n",
              transitions, proofs.wall, proofs.cpu, total(searches).c_str(), total(commands).c_str());
}

}  // namespace patchcheck::bench
