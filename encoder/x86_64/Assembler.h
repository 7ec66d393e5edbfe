#pragma once
// GNU as AT&T syntax for x86-64 (as --64): one unit per instruction or data
// value, labels and numeric local labels, `#` comments, `;` between
// statements, the pseudo prefixes {disp8} and {disp32}, .byte/.short/.long/
// .quad and .p2align/.balign/.align. Jumps to labels are relaxed as GNU as
// relaxes them. Symbols are concrete addresses or symbolic (kept for Z3).
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <variant>

#include "encoder/x86_64/Assembly.h"

namespace patchcheck::x86_64 {

struct AssemblyOptions {
  Value base = Value::constant(0);          // address of the first unit
  std::map<std::string, uint64_t> symbols;  // concrete addresses
  std::set<std::string> symbolic;           // symbols without a fixed address
  // Symbolic symbols placed within `within` bytes of `anchor` (a spec's
  // `near`): a jump from the anchor's code to one of them is relaxed as
  // GNU as relaxes a jump to a label of the same section, rel8 when every
  // such placement is in reach (NearReach.h).
  struct Near {
    std::string anchor;
    uint64_t within = 0;
  };
  std::map<std::string, Near> near;
};

std::variant<Assembly, Diagnostics> assemble(std::string_view source, const std::string& file, const AssemblyOptions&);

}  // namespace patchcheck::x86_64
