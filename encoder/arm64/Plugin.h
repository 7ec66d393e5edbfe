#pragma once
// AArch64 as an ISA plug-in (encoder/Isa.h): the variant arm64 (A64, the
// instructions of Linux arm64 ftrace sites, trampolines and prologues) and
// the ABI lp64 (AAPCS64). Instructions are little-endian in memory on
// every AArch64 system; the target's byte order is the data's.
#include "encoder/Isa.h"

namespace patchcheck::arm64 {

const patchcheck::IsaPlugin& plugin();

}  // namespace patchcheck::arm64
