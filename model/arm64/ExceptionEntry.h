#pragma once
// What an exception may do to the code it interrupts, at any instruction
// boundary (docs/model-arm64.md "Exceptions"). Linux arm64 takes an
// exception from EL1 on the current kernel stack: kernel_entry
// (arch/arm64/kernel/entry.S) subtracts PT_REGS_SIZE from sp and saves
// x0-x29, lr, sp, pc and pstate there (struct pt_regs), and kernel_exit
// restores every register, NZCV and BTYPE included (SPSR_EL1). So an
// exception changes no register; it may overwrite the bytes below sp.
#include <z3++.h>

#include <cstdint>

#include "model/MachineState.h"

namespace patchcheck::arm64 {

// Bytes below sp an exception may write: the whole kernel stack. The entry
// saves struct pt_regs (PT_REGS_SIZE, a little over 300 bytes in v6.x)
// below sp, and a synchronous exception's C handler (a BRK, a fault, a
// debug exception) then runs below it on the same stack; only interrupts
// move to the IRQ stack, after pt_regs is saved. The stack is THREAD_SIZE
// (arch/arm64/include/asm/memory.h: 1 << MIN_THREAD_SHIFT, 14 plus one
// with KASAN; with CONFIG_VMAP_STACK at least one page, so 64 KiB with 64
// KiB pages). 64 KiB bounds every configuration; the ABI's entry facts
// keep sp 64 KiB from the ends of the address space.
constexpr uint64_t kExceptionFrameBytes = 0x10000;

// Every byte stored so far that may lie in the frame below sp becomes unknown.
void exceptionBoundary(MachineState&);

}  // namespace patchcheck::arm64
