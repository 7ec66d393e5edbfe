#pragma once
// --timeout and --max-steps, the same on every command that checks
// (checker/explore/Limits.h says what each limit does).
#include <CLI/CLI.hpp>

#include "checker/explore/Limits.h"

namespace patchcheck {

inline void addLimitOptions(CLI::App& cmd, Limits& limits) {
  cmd.add_option("--timeout", limits.timeoutMs, "solver timeout per query in ms (an open question: UNKNOWN)")
      ->capture_default_str();
  cmd.add_option("--max-steps", limits.maxSteps,
                 "instructions one execution (a pass, a trampoline run) runs before it counts as not leaving: "
                 "a counterexample, never SAFE")
      ->capture_default_str();
}

}  // namespace patchcheck
