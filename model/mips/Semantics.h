#pragma once
// What one instruction does, as Z3 terms. Dispatch is by the instruction
// table's Op: there is no second decoder. Faults are explicit outcomes with
// the condition under which they happen; the register and memory effects
// applied to the state are those of the non-faulting case.
#include <z3++.h>

#include <string>
#include <vector>

#include "encoder/mips/InstructionTable.h"
#include "model/Cpu.h"
#include "model/Fault.h"
#include "model/MachineState.h"

namespace patchcheck::mips {

// Model-only registers, numbered after the 32 GPRs in the register file
// (model/IsaModel.h): HI and LO (pre-R6 multiply/divide results) and
// LLbit (set by ll/lld, cleared by an interrupt's ERET).
namespace reg {
constexpr unsigned hi = 32, lo = 33, llbit = 34;
constexpr unsigned count = 35;
}  // namespace reg

// An instruction word as fetched: its row (from the concrete opcode and
// register bits) and the whole word as a term (immediates may be symbolic).
struct Fetched {
  const InstrDesc* desc;  // nullptr: reserved for this ISA
  uint32_t bits;          // the concrete bits (opcode and register fields always)
  z3::expr word;          // 32-bit term

  unsigned reg(Opnd) const;               // register operand (Rs, Rt, Rd, RtRs, Mem base)
  z3::expr imm(Opnd, unsigned width) const;  // immediate, sign/zero-extended as the kind says
};

struct StepEffect {
  Control control;
  std::vector<Fault> faults;
};

// Executes `f` at `pc` (64-bit): applies register/memory effects to `state`
// and reports control flow and faults.
StepEffect execute(MachineState& state, const Fetched& f, const z3::expr& pc);

}  // namespace patchcheck::mips
