#pragma once
// MIPS's patching half (encoder/IsaPatching.h): kprobes.
#include <functional>
#include <memory>

#include "encoder/IsaPatching.h"
#include "encoder/mips/InstructionTable.h"

namespace patchcheck::mips {

// `descOf`: the table row a unit was assembled from (nullptr for .word).
std::unique_ptr<const IsaPatching> kprobePatching(std::function<const InstrDesc*(const Unit&)> descOf);

}  // namespace patchcheck::mips
