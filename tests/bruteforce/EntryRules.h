#pragma once
// What a site owes a trampoline at each of its entries, read from the
// trampoline's contract file (DESIGN.md "Behaviours": `call T` means T's
// entry contract is met): the resume register holds the site's resume
// address, the saved-ra register holds the caller's ra, sp is moved by the
// contract's amount, and every other live register is as at F's entry.
// Only the file is shared with the checker (its parser); the judging is
// this test's own (Outcome.cpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/spec/Spec.h"
#include "encoder/mips/Target.h"

namespace bruteforce {

namespace mips = patchcheck::mips;

struct EntryRule {
  std::string callee;  // the trampoline's symbol
  std::string key;     // "ftrace_caller", "ftrace_caller+8"
  int64_t offset = 0;
  unsigned resume = 31;
  std::optional<unsigned> savedRa;
  int64_t stackAdjust = 0;
  std::vector<unsigned> clobbers;
  uint64_t address = 0;  // callee's placement + offset (set per scenario)
};

// Every entry of every trampoline the spec names, for this target; a
// string when a contract cannot be read.
std::variant<std::vector<EntryRule>, std::string> entryRules(const patchcheck::Spec&, const mips::Target&);

}  // namespace bruteforce
