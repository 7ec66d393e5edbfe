#pragma once
// arm64's patching half (encoder/IsaPatching.h): the Arm ARM's CMODX list
// and kprobes.
#include <functional>
#include <memory>

#include "encoder/IsaPatching.h"

namespace patchcheck::arm64 {

// `isInstruction` tells an instruction from a data directive's unit (a
// literal is not executed, so the list says nothing about it).
std::unique_ptr<const IsaPatching> cmodxPatching(std::function<bool(const Unit&)> isInstruction);

}  // namespace patchcheck::arm64
