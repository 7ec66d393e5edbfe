#pragma once
// A unit whose field depends on a symbolic address, as a Z3 term of
// 8 * bytes bits (byte k at bits 8k+7..8k, memory order: x86 is
// little-endian): every other byte stays concrete, the field is the
// address term (minus the end of the instruction for a pc-relative one),
// and what the field can hold becomes a side condition (rel32 reaches
// +-2 GiB, a sign-extended imm32 names the 64-bit address).
#include <z3++.h>

#include <optional>

#include "encoder/Assembly.h"
#include "encoder/x86_64/Assembly.h"

namespace patchcheck::x86_64 {

SymbolicUnit symbolicUnit(const AssembledUnit&, z3::context&, const SymbolTerm&);

// The ELF relocation that forms the field (R_X86_64_ name, lower case,
// without the prefix; pc32 also stands for plt32); nothing for a concrete unit.
std::optional<Relocation> relocationOf(const AssembledUnit&);

}  // namespace patchcheck::x86_64
