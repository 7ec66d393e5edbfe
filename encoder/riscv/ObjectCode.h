#pragma once
// The RISC-V plug-in's answers for `patchcheck scan` (encoder/ObjectCode.h).
#include "encoder/ObjectCode.h"

namespace patchcheck::riscv {

const patchcheck::ObjectCode& objectCode();

}  // namespace patchcheck::riscv
