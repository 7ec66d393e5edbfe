#include "model/riscv/ExceptionEntry.h"

#include "encoder/riscv/Registers.h"
#include "model/ExceptionFrame.h"
#include "model/riscv/RegisterFile.h"

namespace patchcheck::riscv {

void exceptionBoundary(MachineState& s) {
  z3::expr held = s.reg(regfile::reservation);
  if (!held.is_false()) s.regs[regfile::reservation] = (held && s.havoc("exc.reservation", 0)).simplify();
  clobberFrameBelow(s, s.address(s.reg(reg::sp)), kExceptionFrameBytes);
}

}  // namespace patchcheck::riscv
