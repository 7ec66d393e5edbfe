#pragma once
// The F and D extensions' rows (FloatRows.cpp); instructionTable() puts
// them before the integer rows, so that objdump's F names of the fcsr
// CSRs (frcsr, fsrm, ...) come before csrr and csrw, as in binutils.
#include <span>

#include "encoder/riscv/InstructionTable.h"

namespace patchcheck::riscv {

std::span<const Row> floatRows();

}  // namespace patchcheck::riscv
