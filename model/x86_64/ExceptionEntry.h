#pragma once
// What an interrupt or exception may do to the code it interrupts, at any
// instruction boundary (docs/semantics-x86.md "Exceptions"). In kernel
// mode without a stack switch the CPU aligns rsp down to 16 bytes and
// pushes SS, RSP, RFLAGS, CS, RIP (and an error code); the kernel's entry
// (arch/x86/entry/entry_64.S, idtentry) saves the rest of struct pt_regs
// below them, and an exception's C handler runs below pt_regs on the same
// stack. IRET restores every register and RFLAGS. So an exception changes
// no register; it may overwrite the bytes below rsp (the kernel has no red
// zone: -mno-red-zone).
#include <z3++.h>

#include <cstdint>

#include "model/MachineState.h"

namespace patchcheck::x86_64 {

// Bytes below rsp an exception may write: the whole kernel stack (THREAD_SIZE
// is 16 KiB, 32 KiB with KASAN), since the handler's own frames follow
// pt_regs (168 bytes) down the same stack.
constexpr uint64_t kExceptionFrameBytes = 0x8000;

// Every byte stored so far that may lie below rsp becomes unknown.
void exceptionBoundary(MachineState&);

}  // namespace patchcheck::x86_64
