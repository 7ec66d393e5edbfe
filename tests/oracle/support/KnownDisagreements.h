#pragma once
// Disagreements of a third assembler (llvm-mc) with GNU as and patchcheck,
// kept as data: tests/data/encoder/*known-disagreements.txt, one class a
// line, `kind ISAS MNEMONIC reason`. An oracle test collects what it sees
// (`Observed`) and `reportDisagreements` passes each class that the file
// records and fails each one it does not.
#include <map>
#include <string>
#include <vector>

namespace patchcheck::oracle {

// A disagreement class: what LLVM does differently, where, for which mnemonic.
//   rejects  LLVM refuses an input GNU as and we accept
//   encodes  LLVM encodes an input differently from GNU as and us
//   accepts  LLVM accepts an input GNU as and we refuse
//   fails    llvm-mc crashes, or fails without naming a line, on an input
//            GNU as and we accept
struct DisagreementKey {
  std::string kind, isa, mnemonic;
  bool operator<(const DisagreementKey& o) const;
};

struct KnownDisagreement {
  std::string kind, isas, mnemonic, reason;  // isas: "*" or a comma list
  bool covers(const DisagreementKey&) const;
};

// Reads a known-disagreements file; throws naming file:line on a bad line.
std::vector<KnownDisagreement> readKnownDisagreements(const std::string& path);

// Up to three examples per class.
struct Observed {
  std::map<DisagreementKey, std::vector<std::string>> examples;
  void add(const DisagreementKey&, const std::string& example);
};

struct DisagreementTally {
  size_t recorded = 0, unrecorded = 0;
};

// Prints every observed class (known with its reason, or FAIL with its
// examples) and every recorded class no longer seen.
DisagreementTally reportDisagreements(const Observed&, const std::vector<KnownDisagreement>&);

// "mnemonic op, op" or "mnemonic\top" -> mnemonic.
std::string mnemonicOf(const std::string& text);

}  // namespace patchcheck::oracle
