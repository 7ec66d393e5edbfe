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

std::optional<std::string> Budget::exceeded(unsigned done, double seconds) const {
  if (done > maxExecutions)
    return "the exploration budget is spent (" + std::to_string(maxExecutions) +
           " executions); raise it with --max-executions";
  if (seconds > maxSeconds)
    return "the exploration's time budget is spent (" + std::to_string(maxSeconds) +
           " s, " + std::to_string(done) + " executions); raise it with --max-seconds";
  if (done % 256 == 0) {
    unsigned long mib = residentMiB();
    if (mib > maxMemoryMiB)
      return "the memory budget is spent (" + std::to_string(mib) + " MiB resident, limit " +
             std::to_string(maxMemoryMiB) + " MiB); raise it with --max-memory";
  }
  return std::nullopt;
}

}  // namespace patchcheck
