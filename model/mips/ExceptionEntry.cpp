#include "model/mips/ExceptionEntry.h"

#include "encoder/mips/Registers.h"
#include "encoder/mips/Plugin.h"
#include "model/ExceptionFrame.h"
#include "model/mips/AbiModel.h"

namespace patchcheck::mips {

uint64_t exceptionFrameBytes(const Target& t) { return t.is64() ? 400 : 192; }

void exceptionBoundary(MachineState& s) {
  s.setReg(reg::k0, s.havoc("exc.k0", s.width()));
  s.setReg(reg::k1, s.havoc("exc.k1", s.width()));
  clobberFrameBelow(s, s.address(s.reg(reg::sp)), exceptionFrameBytes(targetOf(s.target)));
}

bool dependsOnException(const z3::expr& e) { return dependsOnExceptionValue(e); }

}  // namespace patchcheck::mips
