#pragma once
// How Linux's arm64 kprobes run a probed instruction
// (arch/arm64/kernel/probes/decode-insn.c, arm_probe_decode_insn): the
// IsaPatching::kprobeRun answer for one A64 word.
#include <cstdint>

#include "encoder/IsaPatching.h"

namespace patchcheck::arm64 {

// `brk #0x4` (KPROBES_BRK_IMM, arch/arm64/include/asm/brk-imm.h).
inline constexpr uint32_t kKprobeBrk = 0xd4200080;

IsaPatching::KprobeRun kprobeRun(uint32_t insn);

}  // namespace patchcheck::arm64
