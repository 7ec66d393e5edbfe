#pragma once
// A relocation's formula (Relocation::formula, over S and P) as C code:
// patch-table headers compute address-dependent fields with it.
#include <cstdint>
#include <string>

namespace patchcheck {

// `(u64)(sym)`, plus the addend when there is one.
std::string addressExpr(const std::string& symbol, int64_t addend);

// The formula with S and P (standing alone, not inside a name) replaced.
std::string substitute(const std::string& formula, const std::string& S, const std::string& P);

}  // namespace patchcheck
