#pragma once
// The RISC-V psABI integer calling convention (RISC-V ELF psABI, "Integer
// Register Convention") with the Linux kernel's own rules, as the core's
// AbiModel: lp64 on RV64, ilp32 on RV32. a0-a7 (x10-x17) carry arguments
// and a0/a1 results; s0-s11 (x8, x9, x18-x27) and sp are callee-saved; ra
// (x1) is the link register; t0-t6 are temporaries. The kernel keeps the
// current task in tp (x4, arch/riscv/include/asm/current.h) and, with
// CONFIG_SHADOW_CALL_STACK, the shadow stack pointer in gp (x3,
// arch/riscv/include/asm/scs.h): no kernel C function changes either. t0
// is the alternate link register the ftrace call sites use (`auipc t0` /
// `jalr t0`, arch/riscv/kernel/ftrace.c): dead at a function's entry, as
// every temporary is. sp is 16-byte aligned at a call under both ABIs.
#include <string>

#include "model/AbiModel.h"
#include "model/MachineState.h"

namespace patchcheck::riscv {

// lp64 for 64-bit registers, ilp32 for 32-bit ones.
const AbiModel& abiModel(unsigned registerBits);

// Every kernel entry state: sp 16-byte aligned and at least
// AbiModel::kStackMargin bytes from either end of the address space (and,
// on RV32, from where a sign-extended address flips).
z3::expr entryAssumptions(const MachineState&);

// A call to an external C function: ra, t0-t6 and a0-a7 become fresh
// values (tagged), as does the hart's reservation; zero, sp, gp, tp and
// s0-s11 keep theirs; memory below sp may change, memory at and above it
// does not.
void callExternal(MachineState&, const std::string& name, unsigned tag);

}  // namespace patchcheck::riscv
