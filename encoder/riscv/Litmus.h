#pragma once
// herd7's RISC-V litmus dialect (encoder/Litmus.h): the header word
// "RISCV", registers by their psABI or x names, instructions as
// instr:"...", tests run for rv64ima (every instruction a 4-byte word,
// lp64, little-endian) under the Ziccif model unless `litmus --fetch`
// names another (docs/litmus.md "RISC-V").
#include "encoder/Litmus.h"

namespace patchcheck::riscv {

const LitmusDialect& litmusDialect();

}  // namespace patchcheck::riscv
