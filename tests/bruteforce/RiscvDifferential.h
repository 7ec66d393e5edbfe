#pragma once
// The RISC-V enumeration (RiscvExecutions.h) against the checker's
// verdicts, as Differential.h does for MIPS: a SAFE verdict must survive
// random and edge placements with random entry registers (a SAFE state
// must show each declared alternative on some pass, and a SAFE transition
// must be published by the enumeration's own rules); an UNSAFE verdict
// must be reproduced: by the enumeration's publication rules when the
// checker's reason is the writer's steps alone, else by enumerating every
// interleaving at the counterexample's placement and registers. Items the
// enumeration cannot model are counted by name, never as agreement.
#include <z3++.h>

#include <random>
#include <string>
#include <vector>

#include "checker/explore/Verdict.h"
#include "checker/spec/Spec.h"

namespace bruteforce::rv {

struct Totals {
  uint64_t scenarios = 0, skipped = 0, worlds = 0, instructions = 0, passes = 0;
  uint64_t agreements = 0;
};

struct Comparison {
  unsigned safeConfirmed = 0, unsafeReproduced = 0, unknown = 0;
  std::vector<std::string> undecided;      // "item: why"
  std::vector<std::string> disagreements;  // "item: what"
};

Comparison compareWithChecker(z3::context&, const patchcheck::Spec&, const patchcheck::Target&,
                              const patchcheck::SpecResult&, unsigned trials, uint64_t seed, Totals&);

// A small random RISC-V spec (rv64ima, CALL_OPS layout: the ops literal at
// F - 8 and 2 words): random words from a vocabulary of auipc/jalr/
// jal calls of ftrace_caller, jumps, nops and t0 writes, random declared
// behaviours, one transition with random write order, interims, fences,
// ipi, flush_icache_all and wait, random fetch model, `when`, preemption
// and publication.
std::string randomSpec(std::mt19937_64&, unsigned serial);

// The runs bruteforce_recheck makes (--riscv shipped, --riscv random):
// one line per comparison, each disagreement printed with its scenario.
struct Tally {
  unsigned passed = 0, failed = 0, undecided = 0;
};
void runShipped(z3::context&, unsigned trials, uint64_t seed, Totals&, Tally&);
void runRandom(z3::context&, unsigned count, unsigned trials, uint64_t seed, Totals&, Tally&);

}  // namespace bruteforce::rv
