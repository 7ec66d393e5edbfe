#pragma once
// Explicit enumeration of the executions of one concrete scenario as global
// interleavings of the writer's steps, the observing CPU's memory and cache
// events, and one pass's instructions (DESIGN.md "The formal model", coded
// directly, independent of checker/FetchModel):
//   sc    - a fetch reads memory as the writer's steps so far left it.
//   weak  - the observer's view M is a set of the writes done; a write joins
//           M only after every write of an earlier barrier group (sync or
//           flush) and every earlier write to the same word; a fetch reads
//           the newest write in M; a flush step first puts every earlier
//           write into M.
//   stale - M as under weak, ordered by the writer's syncs (memory); the
//           CPU fetches from its I-cache lines, each a copy of M's words
//           made at some refill (line_bytes); a flush refills every line;
//           with preemption = full a task may resume on another CPU, whose
//           view is only what the last flush forced.
//   wait  - completes only when the pass is not inside the site.
//   stop_machine - the steps run as one block while the pass has not
//           started or is preempted (preemption = full); afterwards every
//           write done is in M (weak, stale; stale lines stay as they were
//           unless a flush refilled them); boot: only the final state.
// Interrupts at any boundary where they matter: a delay slot (if enabled:
// the patchcheck::Cpu re-executes the branch), a preemption (stop_machine) or a migration
// (stale). The instructions run on patchcheck::Cpu with numerals.
#include <z3++.h>

#include <cstdint>
#include <set>
#include <string>

#include "tests/bruteforce/Scenario.h"

namespace bruteforce {

struct Limits {
  unsigned maxInterrupts = 2;     // per pass
  unsigned maxInstructions = 64;  // a longer pass is a runaway (as the checker's bound)
  uint64_t maxWorlds = 400000;    // per scenario: stop and say so
};

struct Enumeration {
  uint64_t worlds = 0;        // distinct global states visited
  uint64_t instructions = 0;  // distinct pass prefixes executed
  uint64_t passes = 0;        // pass ends judged
  uint64_t violations = 0;    // pass ends outside the allowed set
  bool bounded = false;       // maxWorlds hit
  std::string firstViolation;
  std::set<std::string> reached;  // allowed alternatives some pass ended in
};

Enumeration enumerate(z3::context&, const Scenario&, const Limits& = {});

}  // namespace bruteforce
