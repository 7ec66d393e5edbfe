#pragma once
// x86-64's patching half (encoder/IsaPatching.h): text_poke_bp's int3 and
// what the kernel's int3 handler emulates.
#include "encoder/IsaPatching.h"

namespace patchcheck::x86_64 {

const IsaPatching& int3Patching();

}  // namespace patchcheck::x86_64
