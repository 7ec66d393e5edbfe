#pragma once
// The AArch64 plug-in's answers for `patchcheck scan` (encoder/ObjectCode.h).
#include "encoder/ObjectCode.h"

namespace patchcheck::arm64 {

const patchcheck::ObjectCode& objectCode();

}  // namespace patchcheck::arm64
