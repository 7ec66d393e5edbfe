#include "model/x86_64/ExceptionEntry.h"

#include "model/ExceptionFrame.h"
#include "model/x86_64/Registers.h"

namespace patchcheck::x86_64 {

void exceptionBoundary(MachineState& s) { clobberFrameBelow(s, s.reg(reg::rsp), kExceptionFrameBytes); }

}  // namespace patchcheck::x86_64
