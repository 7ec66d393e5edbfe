#pragma once
// Explicit enumeration of the executions of one concrete RISC-V scenario
// as global interleavings of the writer's steps and one pass's
// instructions, the two RISC-V fetch models coded directly from
// docs/model.md "The RISC-V fetch models" (independent of checker/fetch
// and checker/FetchModel):
//   ziccif - each fetch of a unit returns any version written so far at or
//            above the unit's floor, a fresh choice per fetch (Zifencei
//            orders no fetch with another). The floor rises for the writes
//            before a flush_icache_all when it runs, and on `ipi` for the
//            writes before the last `fence w,o` ahead of it; the writer's
//            own fence.i raises nothing. Published: floor = final version.
//   ziccid - the observing hart's view M is a set of the writes done; a
//            write joins M only after every earlier write to its unit and
//            every write before an earlier `fence w,w`/`fence rw,rw`/
//            flush_icache_all (global memory order); a fetch reads the
//            newest write in M; flush_icache_all first puts every earlier
//            write in M. Published: the write is done (eventually visible).
//   wait   - completes only when the pass is not inside the site.
//   stop_machine - the steps run as one block while the pass has not
//            started or is preempted (preemption = full, the only place an
//            interrupt changes what follows: a trap is no fetch
//            synchronisation on RISC-V); nothing becomes visible on leaving.
//   boot   - only the writer's steps (publication).
// The instructions run on the RISC-V model's concrete CPU
// (model/riscv/Concrete.h, patchcheck::Cpu on numerals); ends are judged
// with the psABI's live registers (RiscvOutcome.cpp).
#include <z3++.h>

#include <cstdint>
#include <set>
#include <string>

#include "tests/bruteforce/RiscvScenario.h"

namespace bruteforce::rv {

struct Limits {
  unsigned maxInterrupts = 2;
  unsigned maxInstructions = 64;
  uint64_t maxWorlds = 400000;
};

struct Enumeration {
  uint64_t worlds = 0, instructions = 0, passes = 0, violations = 0;
  bool bounded = false;
  std::string undecided;      // non-empty: a pass did what this enumeration does not model
  std::string firstViolation;
  std::string unpublished;    // non-empty: the steps leave a CPU free to fetch an old version (or unsynchronised)
  std::set<std::string> reached;
};

Enumeration enumerate(z3::context&, const Scenario&, const Limits& = {});

}  // namespace bruteforce::rv
