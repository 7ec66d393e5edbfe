#pragma once
// The two limits every checker run has, from --timeout and --max-steps:
// how long the solver may take over one question (past it, the answer is
// unknown and the verdict UNKNOWN), and how many instructions one execution
// may run (past it, the execution counts as not terminating: a hazard,
// never SAFE).
#include "model/Executor.h"

namespace patchcheck {

struct Limits {
  unsigned timeoutMs = 20000;
  unsigned maxSteps = kDefaultMaxSteps;
};

}  // namespace patchcheck
