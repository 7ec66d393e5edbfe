#pragma once
// The x86-64 plug-in's answers for `patchcheck scan` (encoder/ObjectCode.h).
#include "encoder/ObjectCode.h"

namespace patchcheck::x86_64 {

const patchcheck::ObjectCode& objectCode();

}  // namespace patchcheck::x86_64
