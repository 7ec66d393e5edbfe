#pragma once
// How much work one exploration may do before it answers UNKNOWN instead
// of growing without bound: executions taken from its queue, and the
// process's resident memory (checked every few hundred executions).
#include <optional>
#include <string>

namespace patchcheck {

struct Budget {
  unsigned maxExecutions = 200000;
  unsigned long maxMemoryMiB = 8192;

  // Why the budget is spent after `done` executions, if it is.
  std::optional<std::string> exceeded(unsigned done) const;
};

// Resident memory of this process in MiB (0 where unknown).
unsigned long residentMiB();

}  // namespace patchcheck
