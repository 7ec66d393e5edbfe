#pragma once
// GNU-syntax A64 assembler: one line is one unit, never a literal pool or
// an expanded macro (`ldr x0, =value` is refused). Symbols are concrete
// addresses or symbolic (kept for Z3).
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <variant>

#include "encoder/arm64/Assembly.h"

namespace patchcheck::arm64 {

struct AssemblyOptions {
  Value base = Value::constant(0);          // address of the first unit
  std::map<std::string, uint64_t> symbols;  // concrete addresses
  std::set<std::string> symbolic;           // symbols without a fixed address
  // Accept what the Arm ARM calls CONSTRAINED UNPREDICTABLE (writeback to a
  // register the access also transfers, ldp of one register twice), which
  // GNU as only warns about, so a spec can describe it.
  bool allowUnpredictable = false;
};

std::variant<Assembly, Diagnostics> assemble(std::string_view source, const std::string& file,
                                             const AssemblyOptions&);

}  // namespace patchcheck::arm64
