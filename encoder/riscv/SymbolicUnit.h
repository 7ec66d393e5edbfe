#pragma once
// An assembled unit whose field depends on symbolic addresses, as a Z3
// term (8 * bytes bits), with the encoding's reach as side conditions: a
// jal reaches +-1 MiB, a %hi/%pcrel_hi pair +-2 GiB (the linker's
// R_RISCV_HI20/PCREL_HI20/JAL overflow checks, RISC-V ELF psABI).
#include <z3++.h>

#include "encoder/Assembly.h"
#include "encoder/riscv/Assembly.h"

namespace patchcheck::riscv {

patchcheck::SymbolicUnit symbolicUnit(const AssembledUnit&, unsigned xlen, z3::context&, const SymbolTerm&);

}  // namespace patchcheck::riscv
