#pragma once
// Concrete runs of RISC-V code: the symbolic semantics on numerals,
// through the one executor (model/Executor.h). The same code that proves
// also replays and is compared with QEMU (tests/oracle/qemu_crossval/riscv.cpp).
#include <z3++.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/ConcreteValues.h"
#include "model/Cpu.h"
#include "model/Executor.h"
#include "model/riscv/Semantics.h"

namespace patchcheck::riscv {

// An instruction with concrete bits (2 or 4 bytes, as its low parcel
// announces) as the core hands it to Cpu::step.
Instruction fetchInstruction(z3::context&, uint32_t bits);

// Where a concrete run starts.
struct ConcreteStart {
  Target target;                     // a riscv target
  uint64_t base = 0;                 // address of code[0]
  std::vector<uint8_t> code;         // the program, little-endian parcels
  std::array<uint64_t, 32> x{};      // x0..x31 at entry (x0 is ignored: it reads 0)
  struct Bytes {
    uint64_t address;
    std::vector<uint8_t> bytes;
  };
  std::vector<Bytes> memory;         // initial memory; the rest is zero
  // F/D state (a variant with F and D): f0..f31, fflags, frm, and sstatus.FS
  // (Off as kernel code runs; QEMU's user mode runs with it on).
  std::array<uint64_t, 32> f{};
  uint8_t fflags = 0, frm = 0;
  bool fsOn = false;
  unsigned maxSteps = kDefaultMaxSteps;
};

struct ConcreteRun {
  MachineState state;
  uint64_t pc = 0;                   // where it stopped
  unsigned steps = 0;
  std::vector<Fault> faults;         // faults that happened; the run stops at the first
  std::string stop;                  // "left the program", "fault", "step limit", ...

  std::optional<uint64_t> reg(unsigned r) const { return concreteValue(state.reg(r)); }
  // f register r, fflags (32) or frm (33) of a variant with F and D.
  std::optional<uint64_t> floatReg(unsigned r) const;
  std::vector<std::optional<uint8_t>> bytes(uint64_t address, size_t n) const {
    return concreteBytes(state, address, n);
  }
};

// Runs from base until pc leaves the program, a fault happens, or the step limit.
ConcreteRun runConcrete(z3::context&, const ConcreteStart&);

}  // namespace patchcheck::riscv
