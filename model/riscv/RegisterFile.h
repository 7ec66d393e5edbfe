#pragma once
// The model's register file (model/IsaModel.h numbers it): x0..x31 by
// their numbers, then the LR/SC reservation of the hart (A extension,
// "Load-Reserved/Store-Conditional Instructions"): whether one is held and
// the address it was made at. x0 is hard-wired zero. A variant with F and
// D adds f0..f31 (64 bits: D's FLEN), fflags and frm (the two fields of
// fcsr), and whether sstatus.FS is on (false at entry: kernel code runs
// with FS Off; docs/model-riscv.md, "Floating point").
#include <vector>

#include "model/IsaModel.h"

namespace patchcheck::riscv {

namespace regfile {
constexpr unsigned reservation = 32, reservationAddress = 33, count = 34;
constexpr unsigned f0 = 34, fflags = 66, frm = 67, fsOn = 68, countWithFloat = 69;
constexpr unsigned f(unsigned r) { return f0 + r; }
}  // namespace regfile

// For registers of `bits` bits (32 or 64), with the F/D state or not.
std::vector<RegisterInfo> registerFile(unsigned bits, bool fd = false);

}  // namespace patchcheck::riscv
