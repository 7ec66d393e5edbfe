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

// Bytes below sp the exception entry may write: PT_REGS_SIZE, the size
// of struct pt_regs (x0-x30, sp, pc, pstate, then orig_x0, syscallno, the
// PMR, a frame record and bookkeeping: a little over 300 bytes in v6.x);
// 512 bounds it across configurations and versions.
constexpr uint64_t kExceptionFrameBytes = 512;

// Every byte stored so far that may lie in the frame below sp becomes unknown.
void exceptionBoundary(MachineState&);

}  // namespace patchcheck::arm64
