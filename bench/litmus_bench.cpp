// `patchcheck litmus` speed: the project's own instruction-fetch tests
// (tests/data/litmus/ifetch), each under the three cache types, parsed and
// run as the command does (one Z3 context per test).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "checker/litmus/LitmusParser.h"
#include "checker/litmus/LitmusRun.h"

namespace patchcheck::bench {

void litmus() {
  std::vector<std::string> paths;
  const char* dir = "tests/data/litmus/ifetch";
  if (std::filesystem::is_directory(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".litmus") paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  unsigned runs = 0, refused = 0;
  uint64_t states = 0;
  std::vector<double> each;
  auto t0 = std::chrono::steady_clock::now();
  for (const std::string& p : paths) {
    auto parsed = litmus::loadLitmus(p);
    if (!std::holds_alternative<litmus::Test>(parsed)) continue;
    for (const char* cache : {"", "IDC", "DIC"}) {
      litmus::Test t = std::get<litmus::Test>(parsed);
      if (*cache) t.meta["CacheType"] = cache;
      auto s0 = std::chrono::steady_clock::now();
      z3::context ctx;
      auto r = litmus::runLitmus(t, ctx);
      each.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count());
      ++runs;
      if (auto* ok = std::get_if<litmus::LitmusResult>(&r)) states += ok->explored;
      else ++refused;
    }
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!runs) {
    std::printf("litmus: no tests found under %s\n", dir);
    return;
  }
  std::sort(each.begin(), each.end());
  std::printf("litmus: %u runs (%zu tests x 3 cache types, %u refused) in %.2f s: %.1f tests/s, median %.1f ms, "
              "worst %.1f ms, %.0f states/s\n",
              runs, paths.size(), refused, total, runs / total, each[each.size() / 2] * 1000, each.back() * 1000,
              states / total);
}

}  // namespace patchcheck::bench
