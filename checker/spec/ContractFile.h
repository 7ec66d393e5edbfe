#pragma once
// A trampoline's contract file (TOML, beside its assembly; the format is in
// docs/trampolines.md): the entries a site may call, the callback and its
// arguments, the pt_regs layout, and where the trampoline's own symbols lie.
// Register names stay text here: they resolve per target ABI.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checker/spec/TrampolineContract.h"
#include "encoder/Diagnostic.h"
#include "encoder/Target.h"

namespace patchcheck {

// A symbol the trampoline uses that the spec need not declare.
struct ContractSymbol {
  std::string name;
  std::optional<uint64_t> value;  // concrete address
  std::string region;             // symbolic: lies in this region ...
  uint64_t align = 4;             // ... with this alignment
  std::string regionStart;        // or: the first byte of this region (_stext)
  std::string regionEnd;          // or: one past its last byte (_etext)
  SourceLocation where;
};

struct ContractFile {
  std::string path;
  std::string symbol;                  // the label at the file's first word
  std::vector<std::string> isas;       // the ISA variants the file assembles for ("mips64r2")
  std::vector<std::string> abis;
  std::vector<TrampolineContract> entries;  // callback filled in each
  std::vector<SourceLocation> entryWhere;
  std::vector<ContractSymbol> symbols;
  SourceLocation ipWhere;              // [callback] ip, for errors found later

  bool supports(const Target&) const;
};

std::variant<ContractFile, Diagnostics> loadContractFile(const std::string& path);
std::variant<ContractFile, Diagnostics> parseContractFile(std::string_view text, const std::string& path);

}  // namespace patchcheck
