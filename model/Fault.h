#pragma once
// An instruction's outcome other than going on: an exception it raises, an
// architecturally UNPREDICTABLE case, or leaving the pass (eret, wait).
// Faults are explicit, with the condition under which they happen.
#include <z3++.h>

#include <string>
#include <string_view>

namespace patchcheck {

enum class FaultKind {
  ReservedInstruction,  // undefined for this ISA (MIPS: no row, R6-removed, CTI in an R6 slot)
  Unpredictable,        // the architecture does not define the result (MIPS jalr rd == rs, CTI in a delay slot)
  AddressError,         // misaligned load, store, or jump target
  IntegerOverflow,      // add, addi, sub, dadd, ...
  Trap,                 // conditional traps when the condition holds
  Break,
  Syscall,
  DebugBreak,           // MIPS sdbbp
  Eret,                 // an exception return leaves the pass
  Wait,                 // the CPU sleeps until an interrupt (harmless, reported)
  BranchTarget,         // an indirect branch landed on an incompatible instruction (arm64 BTI)
};

std::string_view name(FaultKind);

struct Fault {
  FaultKind kind;
  z3::expr when;        // boolean: the fault happens iff this holds
  std::string detail;   // human-readable ("jalr t1, t1: rd == rs")
};

}  // namespace patchcheck
