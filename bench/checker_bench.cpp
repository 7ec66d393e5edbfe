// Time to check every shipped spec across its matrix, and per transition.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "checker/explore/Checker.h"

namespace patchcheck::bench {

void checker() {
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::directory_iterator("specs/mips"))
    if (e.path().extension() == ".toml") paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  std::vector<double> perTransition;
  unsigned transitions = 0, paths_ = 0, queries = 0;
  auto t0 = std::chrono::steady_clock::now();
  z3::context ctx;
  for (const std::string& p : paths) {
    auto loaded = loadSpec(p);
    if (!std::holds_alternative<Spec>(loaded)) continue;
    const Spec& spec = std::get<Spec>(loaded);
    auto s0 = std::chrono::steady_clock::now();
    for (const patchcheck::Target& t : targetsOf(spec, true)) {
      auto r = checkSpec(spec, t, ctx, CheckOptions{});
      if (!std::holds_alternative<SpecResult>(r)) continue;
      for (const TransitionResult& tr : std::get<SpecResult>(r).transitions) {
        perTransition.push_back(tr.counts.seconds);
        ++transitions;
        paths_ += tr.counts.paths;
        queries += tr.counts.queries;
      }
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
    std::printf("check %-44s %7.3f s (matrix, both endians)\n", p.c_str(), s);
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::sort(perTransition.begin(), perTransition.end());
  double median = perTransition.empty() ? 0 : perTransition[perTransition.size() / 2];
  double worst = perTransition.empty() ? 0 : perTransition.back();
  std::printf("check all shipped specs: %.3f s for %u transition checks (%u paths, %u queries)\n", total,
              transitions, paths_, queries);
  std::printf("per transition: median %.1f ms, worst %.1f ms\n", median * 1000, worst * 1000);
}

}  // namespace patchcheck::bench
