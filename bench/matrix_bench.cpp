// The whole shipped matrix as `patchcheck check --matrix --jobs N` runs it
// (checker/cli/CheckCommand.cpp): every spec under specs/mips, specs/arm64
// and specs/x86, on every [target] matrix entry in both endians. Each
// target is one job (checker/explore/CheckRun.h): its site, its
// trampolines' proofs, its states, its transitions. With N = 1 spec by
// spec (a time per spec); with N = the machine's cores, every target of
// every spec on one pool of N threads through checkSpecs, as the command
// does.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "bench/Measure.h"
#include "checker/explore/CheckRun.h"
#include "checker/spec/SpecTarget.h"

namespace patchcheck::bench {
namespace {

struct Entry {
  std::string path;
  Spec spec;
  std::vector<Target> targets;
};

// The shipped specs with their targets, as the command computes them
// (matrix entries that name the same target checked once).
std::vector<Entry> shippedMatrix() {
  std::vector<Entry> out;
  for (const char* dir : {"specs/mips", "specs/arm64", "specs/x86"}) {
    std::vector<std::string> paths;
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".toml") paths.push_back(e.path().string());
    std::sort(paths.begin(), paths.end());
    for (const std::string& p : paths) {
      auto loaded = loadSpec(p);
      if (auto* d = std::get_if<Diagnostics>(&loaded)) {
        for (const Diagnostic& e : *d) std::printf("  %s\n", e.str().c_str());
        continue;
      }
      Entry entry{p, std::get<Spec>(std::move(loaded)), {}};
      Diagnostics errors;
      for (const Target& t : targetsOf(entry.spec, true)) {
        if (std::any_of(entry.targets.begin(), entry.targets.end(), [&](const Target& o) { return o.str() == t.str(); }))
          continue;
        Diagnostics d = checkSpecForTarget(entry.spec, t);
        errors.insert(errors.end(), d.begin(), d.end());
        entry.targets.push_back(t);
      }
      for (const Diagnostic& e : errors) std::printf("  %s\n", e.str().c_str());
      if (errors.empty()) out.push_back(std::move(entry));
    }
  }
  return out;
}

struct Tally {
  double wall = 0, cpu = 0;
  double trampolineSeconds = 0, stateSeconds = 0, transitionSeconds = 0;  // each piece's own clock, summed
  unsigned trampolines = 0, states = 0, safe = 0, unsafe = 0, unknown = 0, unexpected = 0;
  std::vector<double> perTransition;
};

void add(Tally& t, const SpecResult& r) {
  for (const TrampolineResult& p : r.trampolines) t.trampolineSeconds += p.counts.seconds, ++t.trampolines;
  for (const StateResult& s : r.states) t.stateSeconds += s.counts.seconds, ++t.states;
  for (const TransitionResult& tr : r.transitions) {
    t.transitionSeconds += tr.counts.seconds;
    t.perTransition.push_back(tr.counts.seconds);
    (tr.verdict == Verdict::Safe ? t.safe : tr.verdict == Verdict::Unsafe ? t.unsafe : t.unknown) += 1;
    if (tr.verdict != Verdict::Unknown && !tr.expectationMet()) ++t.unexpected;
  }
}

Tally runMatrix(const std::vector<Entry>& matrix, unsigned jobs) {
  std::printf("--jobs %u\n", jobs);
  Tally t;
  double c0 = processCpuSeconds();
  auto w0 = std::chrono::steady_clock::now();
  if (jobs > 1) {
    std::vector<SpecCheck> checks;
    for (const Entry& e : matrix) checks.push_back({&e.spec, e.targets, CheckOptions{}});
    auto all = checkSpecs(checks, {jobs, nullptr});
    for (size_t i = 0; i < matrix.size(); ++i) {
      if (auto* d = std::get_if<Diagnostics>(&all[i])) {
        for (const Diagnostic& x : *d) std::printf("  %s\n", x.str().c_str());
        continue;
      }
      for (const SpecResult& r : std::get<std::vector<SpecResult>>(all[i])) add(t, r);
    }
    std::printf("  every target of the %zu specs on one pool of %u threads\n", matrix.size(), jobs);
  }
  for (const Entry& e : matrix) {
    if (jobs > 1) break;
    double sc0 = processCpuSeconds();
    auto sw0 = std::chrono::steady_clock::now();
    auto results = checkTargets(e.spec, e.targets, CheckOptions{}, {jobs, nullptr});
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - sw0).count();
    double cpu = processCpuSeconds() - sc0;
    if (auto* d = std::get_if<Diagnostics>(&results)) {
      for (const Diagnostic& x : *d) std::printf("  %s\n", x.str().c_str());
      continue;
    }
    size_t transitions = 0;
    for (const SpecResult& r : std::get<std::vector<SpecResult>>(results)) {
      add(t, r);
      transitions += r.transitions.size();
    }
    std::printf("  %-42s %2zu targets %4zu transitions %8.3f s wall %8.3f s cpu\n", e.path.c_str(), e.targets.size(),
                transitions, wall, cpu);
  }
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  t.cpu = processCpuSeconds() - c0;
  std::sort(t.perTransition.begin(), t.perTransition.end());
  size_t n = t.perTransition.size();
  double median = n == 0 ? 0 : n % 2 ? t.perTransition[n / 2] : (t.perTransition[n / 2 - 1] + t.perTransition[n / 2]) / 2;
  double worst = n == 0 ? 0 : t.perTransition.back();
  std::printf("  total %.3f s wall, %.3f s cpu: %zu transition checks (%u SAFE, %u UNSAFE, %u UNKNOWN; %u not as "
              "expected)\n",
              t.wall, t.cpu, n, t.safe, t.unsafe, t.unknown, t.unexpected);
  std::printf("  per transition: median %.1f ms, worst %.1f ms\n", median * 1000, worst * 1000);
  double pieces = t.trampolineSeconds + t.stateSeconds + t.transitionSeconds;
  std::printf("  split (each piece's own wall clock, summed over threads): trampoline proofs %.3f s (%u), states "
              "%.3f s (%u), transitions %.3f s (%zu)\n",
              t.trampolineSeconds, t.trampolines, t.stateSeconds, t.states, t.transitionSeconds, n);
  if (jobs == 1)
    std::printf("  outside those pieces (sites made: placement, assembly; trampolines assembled): %.3f s\n",
                t.wall - pieces);
  return t;
}

}  // namespace

void matrix() {
  std::printf("== matrix: patchcheck check --matrix over specs/mips, specs/arm64, specs/x86 (both endians)\n");
  std::vector<Entry> entries = shippedMatrix();
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  Tally one = runMatrix(entries, 1);
  if (cores == 1) return;
  Tally all = runMatrix(entries, cores);
  std::printf("speed-up of --jobs %u over --jobs 1: %.2fx wall (cpu %.3f s vs %.3f s)\n", cores, one.wall / all.wall,
              all.cpu, one.cpu);
}

}  // namespace patchcheck::bench
