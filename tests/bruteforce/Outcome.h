#pragma once
// Where a pass ends, judged on concrete values with the rules of DESIGN.md
// ("Behaviours"), written out directly: the ABI's live registers (FACTS.md)
// hold their entry values, memory at and above the entry sp is unchanged,
// the `with` conditions hold, and the place reached is the one the
// behaviour names.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "checker/spec/Spec.h"
#include "model/MachineState.h"
#include "tests/bruteforce/EntryRules.h"

namespace bruteforce {

namespace mips = patchcheck::mips;

// Where the pass left: F's body start (or the end of the declared body,
// never having entered it), or a declared symbol, or a trampoline's entry
// (`entry` its rule; `symbol` then the trampoline).
struct Exit {
  bool atSymbol = false;
  std::string symbol;
  const EntryRule* entry = nullptr;
  uint64_t offset = 0;  // reached symbol + offset (`call T + 8`)
};

struct Judgement {
  bool ok = false;
  std::string held;  // the alternative that held (OutcomeSpec::str())
  std::string why;   // when not ok
};

// `entries`: every trampoline entry of the spec; `resume`: F's body start,
// where a trampoline must resume the site.
Judgement judge(const patchcheck::BehaviourSpec& allowed, const Exit&, const mips::Target&,
                const std::array<uint64_t, 32>& entry, const patchcheck::MachineState& now,
                const std::vector<EntryRule>& entries, uint64_t resume);

// Live at a function's entry (FACTS.md register list): arguments a0-a3
// (o32) or a0-a7 (n32/n64), s0-s7, gp, sp, s8, ra.
bool liveAtEntry(unsigned reg, mips::Abi);

}  // namespace bruteforce
