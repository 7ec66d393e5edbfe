#pragma once
// herd7's AArch64 litmus dialect (encoder/Litmus.h): the header word
// "AArch64", X0-X30 and W0-W30, the bare instruction names herd7 reads as
// values, tests run for arm64 (little-endian, lp64) under the Arm fetch
// model.
#include "encoder/Litmus.h"

namespace patchcheck::arm64 {

const LitmusDialect& litmusDialect();

}  // namespace patchcheck::arm64
