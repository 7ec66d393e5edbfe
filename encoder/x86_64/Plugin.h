#pragma once
// x86-64 as an ISA plug-in (encoder/Isa.h): the variant x86_64, the ABI
// sysv (the System V AMD64 ABI as the kernel uses it), little-endian.
// Decoding, printing and encoding go through Zydis.
#include "encoder/Isa.h"

namespace patchcheck::x86_64 {

const patchcheck::IsaPlugin& plugin();

}  // namespace patchcheck::x86_64
