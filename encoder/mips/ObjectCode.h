#pragma once
// The MIPS plug-in's answers for `patchcheck scan` (encoder/ObjectCode.h).
#include "encoder/ObjectCode.h"

namespace patchcheck::mips {

const patchcheck::ObjectCode& objectCode();

}  // namespace patchcheck::mips
