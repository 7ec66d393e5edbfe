#include "checker/explore/Jobs.h"

#include <atomic>
#include <thread>
#include <vector>

namespace patchcheck {

unsigned defaultJobs() {
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

std::optional<std::string> jobsProblem(unsigned jobs) {
  if (jobs == 0) return "--jobs 0: at least one job must run (--jobs 1 checks one thing at a time)";
  return std::nullopt;
}

void runJobs(unsigned jobs, size_t count, const std::function<void(size_t)>& work) {
  if (jobs <= 1 || count <= 1) {
    for (size_t i = 0; i < count; ++i) work(i);
    return;
  }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < count; i = next++) work(i);
  };
  std::vector<std::thread> threads;
  for (unsigned k = 0; k < jobs && k < count; ++k) threads.emplace_back(worker);
  for (std::thread& t : threads) t.join();
}

}  // namespace patchcheck
