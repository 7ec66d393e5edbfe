#pragma once
// Concrete runs of x86-64 code: the symbolic semantics on numerals, through
// the one executor (model/Executor.h). The same code that proves also
// replays and is compared with QEMU (tests/oracle/qemu_crossval/x86_64.cpp).
#include <z3++.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/ConcreteValues.h"
#include "model/Cpu.h"
#include "model/Executor.h"
#include "model/x86_64/Registers.h"

namespace patchcheck::x86_64 {

// Bytes with concrete values as the core hands them to Cpu::step.
Instruction fetchBytes(z3::context&, const uint8_t* bytes, unsigned n);

// Where a concrete run starts.
struct ConcreteStart {
  Target target;                     // an x86_64 target
  uint64_t base = 0;                 // address of code[0]
  std::vector<uint8_t> code;         // the program
  std::array<uint64_t, 16> r{};      // rax..r15 by number (reg::rax...)
  bool cf = false, pf = false, af = false, zf = false, sf = false, of = false, df = false;
  uint64_t sysflags = rflags::IF;    // TF, IF, IOPL, ...: interrupts on, as in user mode
  struct Bytes {
    uint64_t address;
    std::vector<uint8_t> bytes;
  };
  std::vector<Bytes> memory;         // initial memory; the rest is zero
  unsigned maxSteps = kDefaultMaxSteps;
};

struct ConcreteRun {
  MachineState state;
  uint64_t pc = 0;                   // where it stopped
  unsigned steps = 0;
  std::vector<Fault> faults;         // faults that happened; the run stops at the first
  std::string stop;                  // "left the program", "fault", "step limit", ...

  std::optional<uint64_t> reg(unsigned r) const { return concreteValue(state.reg(r)); }
  std::vector<std::optional<uint8_t>> bytes(uint64_t address, size_t n) const {
    return concreteBytes(state, address, n);
  }
};

// Runs from base until pc leaves the program, a fault happens, or the step limit.
ConcreteRun runConcrete(z3::context&, const ConcreteStart&);

}  // namespace patchcheck::x86_64
