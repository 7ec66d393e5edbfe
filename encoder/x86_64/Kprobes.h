#pragma once
// How Linux's x86 kprobes run a probed instruction
// (arch/x86/kernel/kprobes/core.c): the IsaPatching::kprobeRun answer for
// one instruction, given as its unit (bytes little-endian in `bits`).
#include "encoder/IsaPatching.h"

namespace patchcheck::x86_64 {

IsaPatching::KprobeRun kprobeRun(const Unit& insn);

}  // namespace patchcheck::x86_64
