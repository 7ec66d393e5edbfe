#pragma once
// The Linux MIPS calling conventions o32, n32, n64 (docs/semantics.md) as
// the core's AbiModel, with the entry facts and the effect of calling an
// external C function such as the tracer callback.
#include <string>

#include "encoder/mips/Target.h"
#include "model/AbiModel.h"
#include "model/MachineState.h"

namespace patchcheck::mips {

const AbiModel& abiModel(Abi);

// Every ABI-conformant kernel entry state: sp aligned to stackAlign; under
// n32 (32-bit pointers in 64-bit registers) sp, ra and gp are sign-extended
// 32-bit values; sp lies at least AbiModel::kStackMargin bytes from where
// an address wraps (and, on 32-bit ISAs, changes sign).
z3::expr entryAssumptions(const MachineState&);

// A call to an external C function `name` from `state`: caller-saved
// registers become fresh values, callee-saved registers and sp keep theirs,
// memory below sp may change, memory at and above sp does not. v0/v1 are
// fresh (the return value). `tag` makes the fresh names unique.
void callExternal(MachineState& state, const std::string& name, unsigned tag);

}  // namespace patchcheck::mips
