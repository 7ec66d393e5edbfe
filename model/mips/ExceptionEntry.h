#pragma once
// What an exception may do to the code it interrupts, at any instruction
// boundary (docs/model.md "Exceptions"). MIPS Linux: the general exception
// entry (SAVE_SOME in arch/mips/include/asm/stackframe.h) and the TLB
// refill handler use k0 and k1 without saving them, and in kernel mode the
// entry saves its register frame (struct pt_regs, PT_SIZE bytes) just below
// the current sp. The control side (EPC = the branch in a delay slot) is
// the plug-in's interrupt (model/mips/ControlFlow.h).
//
// Applied at every boundary of every pass and trampoline run: a fresh
// value may equal the old one, so "no exception here" is covered too, and
// no fork is needed.
#include "encoder/mips/Target.h"
#include "model/MachineState.h"

namespace patchcheck::mips {

// Bytes of the frame the exception entry saves below sp: the largest
// PT_SIZE over kernel configurations (32-bit: 184, 188 with SmartMIPS, 8-byte
// aligned; 64-bit: 304, 400 with Octeon's multiplier state).
uint64_t exceptionFrameBytes(const Target&);

// k0 and k1 become unknown; every byte stored so far that may lie in the
// frame below the current sp becomes unknown.
void exceptionBoundary(MachineState&);

// Does the term depend on a value an exception left (exceptionBoundary's)?
bool dependsOnException(const z3::expr&);

}  // namespace patchcheck::mips
