#pragma once
// What one A64 instruction does, as Z3 terms (Arm ARM DDI 0487, the
// shared pseudocode of each instruction in C6). Dispatch is by the
// instruction table's row (encoder/arm64/InstructionTable.h): its Op and
// operand kinds; there is no second decoder. Faults are explicit outcomes
// with the condition under which they happen; the register and memory
// effects applied to the state are those of the non-faulting case.
#include <z3++.h>

#include <vector>

#include "encoder/arm64/InstructionTable.h"
#include "encoder/arm64/Operands.h"
#include "model/Cpu.h"
#include "model/Fault.h"
#include "model/MachineState.h"

namespace patchcheck::arm64 {

// The register file (model/IsaModel.h numbers it): x0..x30, sp, the
// NZCV flags as booleans, and PSTATE.BTYPE (2 bits: what kind of
// indirect branch brought execution to the next instruction).
namespace reg {
constexpr unsigned lr = 30, sp = 31, n = 32, z = 33, c = 34, v = 35, btype = 36;
constexpr unsigned count = 37;
}  // namespace reg

// An instruction word as fetched: its row (from the concrete bits) and the
// whole word as a term (immediates may depend on a symbolic address).
struct Fetched {
  const InstrDesc* desc;  // nullptr: no row (unallocated, or not modelled)
  uint32_t bits;          // the concrete bits (opcode and register fields always)
  z3::expr word;          // 32-bit term

  // A field of the word, as a term of the field's width.
  z3::expr field(BitField) const;
};

struct StepEffect {
  Control control;  // Kind::Compact for every transfer (A64 has no delay slots)
  std::vector<Fault> faults;
};

// Executes `f` at `pc` (64-bit): applies register and memory effects to
// `state` (PSTATE.BTYPE included) and reports control flow and faults.
StepEffect execute(MachineState& state, const Fetched& f, const z3::expr& pc);

// PSTATE.BTYPE after an indirect branch (Arm ARM, BranchTo / BTYPE).
constexpr unsigned kBtypeNone = 0, kBtypeBrX16X17 = 1, kBtypeBlr = 2, kBtypeBr = 3;

// Is the instruction a landing pad compatible with BTYPE `btype` (a 2-bit
// term)? BTI c: after BR x16/x17 and BLR; BTI j: after any BR; BTI jc:
// any; BTI (no target): none; PACIASP/PACIBSP: like BTI c (Linux sets
// SCTLR_EL1.BT1, so they do not accept a BR through another register).
// Every other instruction (and a word without a row) accepts none.
z3::expr acceptsBranchType(const Fetched&, const z3::expr& btype);

}  // namespace patchcheck::arm64
