#pragma once
// What every ISA's exception entry shares: the kernel saves a register
// frame just below the current sp, so any byte stored there may be lost
// (overwritten by the frame) when an exception is taken. Plug-ins call
// these from their IsaModel::exceptionBoundary with their own frame size
// and add their own registers (MIPS: k0, k1).
//
// Values an exception leaves are havoc constants named "exc.*"
// (MachineState::havoc), so a counterexample that relies on one can say so.
#include <z3++.h>

#include <cstdint>

#include "model/MachineState.h"

namespace patchcheck {

// Every byte stored so far that may lie in [sp - frameBytes, sp) becomes
// unknown (only those stored since the last boundary when sp has not moved).
// `sp` is the stack pointer as a 64-bit address.
void clobberFrameBelow(MachineState&, const z3::expr& sp, uint64_t frameBytes);

// Does the term depend on a value an exception left?
bool dependsOnExceptionValue(const z3::expr&);

}  // namespace patchcheck
