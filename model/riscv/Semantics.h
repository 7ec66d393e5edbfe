#pragma once
// What one RISC-V instruction does, as Z3 terms (RISC-V Unprivileged ISA,
// 20240411: chapters RV32I, RV64I, M, A, Zicsr, Zifencei, C; Privileged
// ISA for sret, mret, wfi, sfence.vma). Dispatch is by the instruction
// table's row (encoder/riscv/InstructionTable.h): its Op, which a
// compressed row shares with the instruction it expands to (C: "each RVC
// instruction expands into a single 32-bit instruction"), so a compressed
// instruction runs the base instruction's semantics on the operands its
// fields name. Faults are explicit outcomes with the condition under which
// they happen; the register and memory effects applied to the state are
// those of the non-faulting case.
#include <z3++.h>

#include <cstdint>
#include <vector>

#include "encoder/riscv/Decoder.h"
#include "encoder/riscv/InstructionTable.h"
#include "model/Cpu.h"
#include "model/Fault.h"
#include "model/MachineState.h"

namespace patchcheck::riscv {

// An instruction as fetched: the decoder's reading of its concrete bits
// (row, registers, the immediate's value for these bits), its bits and
// the whole instruction as a term (an immediate may depend on a symbolic
// address).
struct Fetched {
  Decoded d;         // d.row nullptr: no instruction of this target (illegal)
  uint32_t bits;     // the concrete bits (opcode and register fields always)
  z3::expr word;     // 16- or 32-bit term
  unsigned bytes;    // 2 or 4

  const Row* row() const { return d.row; }
};

// The operands of one instruction, wherever its format keeps them.
struct Operands {
  unsigned rd = 0, rs1 = 0, rs2 = 0;
  z3::expr imm;        // 64-bit, sign-extended where the field is signed
  unsigned csr = 0;    // Zicsr: the CSR number
  unsigned pred = 0, succ = 0, fm = 0;  // fence
};

// The operands of a fetched instruction: registers and the CSR number as
// the decoder read them, the immediate as a term over the instruction.
Operands operandsOf(const Fetched&, z3::context&);

struct StepEffect {
  Control control;  // Kind::Compact for every transfer (no delay slots)
  std::vector<Fault> faults;
};

// What the target's ISA string provides that changes semantics.
struct Features {
  unsigned xlen = 64;
  bool compressed = true;  // C: 2-byte instruction alignment (IALIGN 16)
  bool fd = false;         // F and D: their encodings decode (and fault: kernel code runs with sstatus.FS Off)
};

// Executes `f` at `pc` (64-bit): applies register and memory effects to
// `state` and reports control flow and faults.
StepEffect execute(MachineState& state, const Fetched& f, const z3::expr& pc, Features);

}  // namespace patchcheck::riscv
