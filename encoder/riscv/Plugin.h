#pragma once
// RISC-V as an ISA plug-in (encoder/Isa.h). Variants, in this order:
// rv64imac, rv64ima, rv32imac, rv32ima: the -march Linux builds with
// (arch/riscv/Makefile: rv64ima or rv32ima, `c` added by
// CONFIG_RISCV_ISA_C), each with Zicsr and Zifencei. The C extension is a
// variant's, since it changes what GNU as emits and where an instruction
// may start. Then rv64imafdc, rv64imafd, rv32imafdc, rv32imafd and their
// G spellings rv64gc, rv64g, rv32gc, rv32g: the same with F and D (hard-
// float user code; Linux's kernel C code is built without them). ABIs
// lp64 (RV64) and ilp32 (RV32), the soft-float ones the kernel uses;
// always little-endian.
#include "encoder/Isa.h"

namespace patchcheck::riscv {

const patchcheck::IsaPlugin& plugin();

// What a neutral target of this plug-in is: register width and whether the
// C extension is on, and the F and D extensions.
unsigned xlenOf(const patchcheck::Target&);
bool rvcOf(const patchcheck::Target&);
bool fdOf(const patchcheck::Target&);

}  // namespace patchcheck::riscv
