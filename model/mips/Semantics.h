#pragma once
// What one instruction does, as Z3 terms. Dispatch is by the instruction
// table's Op: there is no second decoder. Faults are explicit outcomes with
// the condition under which they happen; the register and memory effects
// applied to the state are those of the non-faulting case.
#include <z3++.h>

#include <string>
#include <vector>

#include "encoder/mips/InstructionTable.h"
#include "model/MachineState.h"

namespace patchcheck::mips {

enum class FaultKind {
  ReservedInstruction,  // no row for this ISA, or an R6-removed encoding, or CTI in an R6 slot
  Unpredictable,        // jalr rd == rs, CTI in a pre-R6 delay slot, 32-bit op on a non-sign-extended input
  AddressError,         // misaligned load, store, or jump target
  IntegerOverflow,      // add, addi, sub, dadd, ...
  Trap,                 // teq, tne, ... when the condition holds
  Break,
  Syscall,
  DebugBreak,           // sdbbp
  Eret,                 // eret/deret leave the pass
  Wait,                 // wait: the CPU sleeps (harmless, reported)
};

std::string_view name(FaultKind);

struct Fault {
  FaultKind kind;
  z3::expr when;        // boolean: the fault happens iff this holds
  std::string detail;   // human-readable ("jalr t1, t1: rd == rs")
};

// An instruction word as fetched: its row (from the concrete opcode and
// register bits) and the whole word as a term (immediates may be symbolic).
struct Fetched {
  const InstrDesc* desc;  // nullptr: reserved for this ISA
  uint32_t bits;          // the concrete bits (opcode and register fields always)
  z3::expr word;          // 32-bit term

  unsigned reg(Opnd) const;               // register operand (Rs, Rt, Rd, RtRs, Mem base)
  z3::expr imm(Opnd, unsigned width) const;  // immediate, sign/zero-extended as the kind says
};

struct Control {
  enum class Kind { None, Delayed, Compact };
  Kind kind = Kind::None;
  z3::expr taken;         // boolean; true for jumps
  z3::expr target;        // 64-bit address
  bool likely = false;    // delay slot annulled when not taken
  bool forbiddenSlot = false;  // R6 conditional compact branch
};

struct StepEffect {
  Control control;
  std::vector<Fault> faults;
};

// Executes `f` at `pc` (64-bit): applies register/memory effects to `state`
// and reports control flow and faults.
StepEffect execute(MachineState& state, const Fetched& f, const z3::expr& pc);

}  // namespace patchcheck::mips
