#pragma once
// How Linux's MIPS kprobes treat a probed word (arch/mips/kernel/kprobes.c,
// arch_prepare_kprobe, kprobe_handler; probes-common.h; traps.c, do_bp):
// the IsaPatching::kprobeRun answer and the break codes.
#include <cstdint>
#include <optional>

#include "encoder/IsaPatching.h"
#include "encoder/mips/InstructionTable.h"

namespace patchcheck::mips {

// arch/mips/include/asm/break.h: BRK_KPROBE_BP and BRK_KPROBE_SSTEPBP.
inline constexpr uint32_t kKprobeBreakCode = 515, kKprobeStepBreakCode = 516;
// kprobes.c's breakpoint_insn: SPECIAL, code 515 in the 20-bit field
// (bits 25..6), BREAK. GNU as spells it `break 0, 515` (0x000080cd;
// `break 515` puts the code in bits 25..16 instead).
inline constexpr uint32_t kKprobeBreak = (kKprobeBreakCode << 6) | 0x0d;

// do_bp's break code of the word at EPC: bits 25..6, the halves swapped
// when the value is 1024 or more (GNU as's `break N` form). It reads the
// bits whatever the opcode.
uint32_t doBpCode(uint32_t word);

// __insn_has_delay_slot (probes-common.h), on the word's bits.
bool kernelHasDelaySlot(uint32_t word);

// arch_prepare_kprobe's checks and the handler's way with `insn` (its
// table row, nullptr for a .word; `bits` its fixed bits), given the word
// before it when the spec says what it is.
IsaPatching::KprobeRun kprobeRun(const InstrDesc* desc, uint32_t bits, std::optional<uint32_t> previous);

}  // namespace patchcheck::mips
