#pragma once
// The model's register file (model/IsaModel.h numbers it): x0..x31 by
// their numbers, then the LR/SC reservation of the hart (A extension,
// "Load-Reserved/Store-Conditional Instructions"): whether one is held and
// the address it was made at. x0 is hard-wired zero.
#include <vector>

#include "model/IsaModel.h"

namespace patchcheck::riscv {

namespace regfile {
constexpr unsigned reservation = 32, reservationAddress = 33, count = 34;
}

// For registers of `bits` bits (32 or 64).
std::vector<RegisterInfo> registerFile(unsigned bits);

}  // namespace patchcheck::riscv
