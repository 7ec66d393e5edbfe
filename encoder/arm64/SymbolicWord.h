#pragma once
// A unit whose field depends on a symbolic address: opcode and register
// fields stay concrete, the field is a Z3 term over the symbols, and the
// encoding's reach and alignment become side conditions for the solver
// (a bl whose target may lie beyond +-128 MiB is a relocation overflow,
// named with both addresses).
#include <z3++.h>

#include "encoder/Assembly.h"
#include "encoder/arm64/Assembly.h"

namespace patchcheck::arm64 {

SymbolicUnit symbolicUnit(const AssembledUnit&, z3::context&, const SymbolTerm&);

// The ELF relocation (R_AARCH64_ name, lower case, without the prefix)
// that forms the unit's address-dependent field; nothing for a concrete unit.
std::optional<Relocation> relocationOf(const AssembledUnit&);

}  // namespace patchcheck::arm64
