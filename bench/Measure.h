#pragma once
// Rates per second of this thread's CPU time (the machine is shared, so
// wall time says more about the neighbours than about us); wall time is
// kept too. Each figure is the best of five runs of at least 0.2 s of CPU
// time.
#include <chrono>
#include <cstddef>
#include <ctime>

namespace patchcheck::bench {

inline double cpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// CPU time of every thread of this process (for runs on several threads).
inline double processCpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

struct Rate {
  double perCpuSecond = 0, perWallSecond = 0;
};

// Runs `work` (returning how many items it did) until 0.2 s of CPU time has
// passed, five times; keeps the best rate.
template <class Work>
Rate measure(Work work) {
  using clock = std::chrono::steady_clock;
  Rate best;
  for (int round = 0; round < 5; ++round) {
    double c0 = cpuSeconds();
    auto w0 = clock::now();
    size_t items = 0;
    while (cpuSeconds() - c0 < 0.2) items += work();
    double cpu = cpuSeconds() - c0;
    double wall = std::chrono::duration<double>(clock::now() - w0).count();
    if (double(items) / cpu > best.perCpuSecond) best = {double(items) / cpu, double(items) / wall};
  }
  return best;
}

}  // namespace patchcheck::bench
