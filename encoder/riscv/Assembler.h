#pragma once
// GNU-syntax RISC-V assembler, bit-exact with GNU as (binutils 2.40) on
// what it accepts: compressed forms chosen as GNU as chooses them when
// the C extension is on (and `.option norvc` is not), branches to labels
// relaxed to their compressed forms when they reach, the pseudo-
// instructions li, la, lla, call, tail expanded as GNU as expands them
// (non-PIC). Symbols are concrete addresses or symbolic (kept for Z3).
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <variant>

#include "encoder/riscv/Assembly.h"

namespace patchcheck::riscv {

struct AssemblyOptions {
  unsigned xlen = 64;
  bool rvc = true;                            // the C extension (the variant's)
  bool fd = false;                            // the F and D extensions (the variant's)
  Value base = Value::constant(0);            // address of the first unit
  std::map<std::string, uint64_t> symbols;    // concrete addresses
  std::set<std::string> symbolic;             // symbols without a fixed address
  // %hi/%pcrel_hi must name an address the pair reaches (+-2 GiB of zero
  // or of the auipc). Specs and trampolines ask for it; GNU as leaves it
  // to the linker.
  bool requireKernelReach = false;
};

std::variant<Assembly, Diagnostics> assemble(std::string_view source, const std::string& file, const AssemblyOptions&);

}  // namespace patchcheck::riscv
