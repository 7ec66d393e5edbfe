#include "model/arm64/ExceptionEntry.h"

#include "model/ExceptionFrame.h"
#include "model/arm64/Semantics.h"

namespace patchcheck::arm64 {

void exceptionBoundary(MachineState& s) { clobberFrameBelow(s, s.reg(reg::sp), kExceptionFrameBytes); }

}  // namespace patchcheck::arm64
