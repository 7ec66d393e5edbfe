#pragma once
// What an exception may do to the code it interrupts, at any instruction
// boundary (docs/model-riscv.md "Exceptions"). Linux RISC-V takes a trap
// from S-mode on the current kernel stack: handle_exception
// (arch/riscv/kernel/entry.S) finds sscratch zero (kernel mode), keeps tp,
// subtracts PT_SIZE_ON_STACK from sp and saves every general register
// there (struct pt_regs); the return path restores every one of them,
// sp last, and sret resumes at sepc. So no register changes; the bytes
// below sp may. The return path also clears the hart's LR reservation
// (entry.S: "we clear any existing reservation -- unintuitively, by
// performing a (possibly) failing SC"), so an exception may end one.
#include <z3++.h>

#include <cstdint>

#include "model/MachineState.h"

namespace patchcheck::riscv {

// Bytes below sp an exception may write: the whole kernel stack. pt_regs
// is 36 registers (288 bytes on RV64, PT_SIZE_ON_STACK rounds to 16), and
// a synchronous exception's C handler (a breakpoint, a page fault, an
// emulated misaligned access) runs below it on the same stack; interrupts
// move to the IRQ stack only after pt_regs is saved (call_on_irq_stack).
// THREAD_SIZE is 16 KiB on RV64 (32 KiB with KASAN,
// arch/riscv/include/asm/thread_info.h); 64 KiB bounds every
// configuration, and the ABI's entry facts keep sp that far from the ends
// of the address space.
constexpr uint64_t kExceptionFrameBytes = 0x10000;

// Every byte stored so far that may lie in the frame below sp becomes
// unknown, and the reservation may be gone.
void exceptionBoundary(MachineState&);

}  // namespace patchcheck::riscv
