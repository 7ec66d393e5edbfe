#pragma once
// How much work one exploration may do before it answers UNKNOWN instead
// of growing without bound: executions made (forks included, so that one
// execution that forks at every step is bound too), its wall-clock time (a
// pass that may jump anywhere forks at every step: a path explosion the
// execution count bounds only after hours), and the process's resident
// memory (checked every few hundred executions and steps). The executor
// asks before every step, not only between executions.
#include <optional>
#include <string>

namespace patchcheck {

struct Budget {
  unsigned maxExecutions = 200000;
  // Not given on the command line: a site's exploration may make at least
  // kExecutionsPerUnit executions per unit of its region (a long site is
  // more work, not a runaway); a given --max-executions is exact.
  bool executionsScale = true;
  static constexpr unsigned kExecutionsPerUnit = 200;
  unsigned long maxMemoryMiB = 8192;
  unsigned maxSeconds = 600;

  // Why the budget is spent after `executions` made, `steps` run and
  // `seconds` of one exploration, if it is.
  std::optional<std::string> exceeded(unsigned executions, unsigned long steps, double seconds) const;
};

// Resident memory of this process in MiB (0 where unknown).
unsigned long residentMiB();

}  // namespace patchcheck
