#pragma once
// AAPCS64 with the Linux kernel's conventions (docs/model-arm64.md;
// Arm IHI 0055 "Procedure Call Standard for the Arm 64-bit Architecture";
// Linux arch/arm64): x0-x7 arguments and x0 the result, x8 the indirect
// result address, x9-x15 temporaries, x16/x17 IP0/IP1 (a veneer or PLT
// between caller and callee may change them), x18 the platform register
// (the shadow call stack pointer under CONFIG_SHADOW_CALL_STACK; no
// kernel C function changes it), x19-x28 callee-saved, x29 the frame
// pointer, x30 the link register, sp 16-byte aligned.
#include <string>

#include "model/AbiModel.h"
#include "model/MachineState.h"

namespace patchcheck::arm64 {

const AbiModel& abiModel();

// Every kernel entry state: sp 16-byte aligned and at least
// AbiModel::kStackMargin bytes from either end of the address space.
z3::expr entryAssumptions(const MachineState&);

// A call to an external C function: x0-x17 and x30 become fresh values
// (tagged), as do the flags; x18-x29 and sp keep theirs; memory below sp
// may change, memory at and above sp does not.
void callExternal(MachineState&, const std::string& name, unsigned tag);

}  // namespace patchcheck::arm64
