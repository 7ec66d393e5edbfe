#pragma once
// MIPS as an ISA plug-in (encoder/Isa.h): the variants mips32r2, mips64r2,
// mips32r6, mips64r6 in the order of mips::Isa, the ABIs o32, n32, n64 in
// the order of mips::Abi.
#include "encoder/Isa.h"
#include "encoder/mips/Target.h"

namespace patchcheck::mips {

const patchcheck::IsaPlugin& plugin();

// The MIPS view of a neutral target of this plug-in, and back.
Target targetOf(const patchcheck::Target&);
patchcheck::Target neutral(const Target&);

}  // namespace patchcheck::mips
