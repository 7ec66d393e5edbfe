#pragma once
// Where a RISC-V pass ends, judged on concrete values (DESIGN of
// "Behaviours", written out directly for the RISC-V psABI): the registers
// live at a function's entry (ra, sp, gp, tp, a0-a7, s0-s11) hold their
// entry values, memory at and above the entry sp is unchanged, the `with`
// conditions hold, a trampoline's entry contract is met, and the place
// reached is the one the behaviour names.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "checker/spec/Spec.h"
#include "model/MachineState.h"
#include "tests/bruteforce/EntryRules.h"

namespace bruteforce::rv {

struct Exit {
  bool atSymbol = false;
  std::string symbol;
  const EntryRule* entry = nullptr;
  uint64_t offset = 0;
};

struct Judgement {
  bool ok = false;
  std::string held, why;
};

Judgement judge(const patchcheck::BehaviourSpec& allowed, const Exit&, bool wide, const std::array<uint64_t, 32>& entry,
                const patchcheck::MachineState& now, const std::vector<EntryRule>& entries, uint64_t resume);

}  // namespace bruteforce::rv
