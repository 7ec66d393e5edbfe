#include "checker/explore/Budget.h"

#include <fstream>

#include <unistd.h>

namespace patchcheck {

unsigned long residentMiB() {
  std::ifstream statm("/proc/self/statm");
  unsigned long size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * (unsigned long)sysconf(_SC_PAGESIZE) / (1024 * 1024);
}

std::optional<std::string> Budget::exceeded(unsigned executions, unsigned long steps, double seconds) const {
  if (executions > maxExecutions)
    return "the exploration budget is spent (" + std::to_string(maxExecutions) +
           " executions); raise it with --max-executions";
  if (seconds > maxSeconds)
    return "the exploration's time budget is spent (" + std::to_string(maxSeconds) +
           " s, " + std::to_string(executions) + " executions, " +
           std::to_string(steps) + " steps); raise it with --max-seconds";
  // Reading /proc costs a system call: every 256th step (and every 256th
  // execution made) is often enough to stop a growing run.
  if ((executions + steps) % 256 == 0) {
    unsigned long mib = residentMiB();
    if (mib > maxMemoryMiB)
      return "the memory budget is spent (" + std::to_string(mib) + " MiB resident, limit " +
             std::to_string(maxMemoryMiB) + " MiB); raise it with --max-memory";
  }
  return std::nullopt;
}

}  // namespace patchcheck
