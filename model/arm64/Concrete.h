#pragma once
// Concrete runs of A64 code: the symbolic semantics on numerals, through
// the one executor (model/Executor.h). The same code that proves also
// replays and is compared with QEMU (tests/oracle/qemu_crossval/arm64.cpp).
#include <z3++.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/ConcreteValues.h"
#include "model/Cpu.h"
#include "model/Executor.h"
#include "model/arm64/Semantics.h"

namespace patchcheck::arm64 {

// A word with concrete bits as the core hands it to Cpu::step, and
// decoded as arm64::execute takes it.
Instruction fetchWord(z3::context&, uint32_t word);
Fetched decodedWord(z3::context&, uint32_t word);

// Where a concrete run starts.
struct ConcreteStart {
  Target target;                     // an arm64 target (its byte order is the data's)
  uint64_t base = 0;                 // address of words[0]
  std::vector<uint32_t> words;       // the program
  std::array<uint64_t, 31> x{};      // x0..x30 at entry
  uint64_t sp = 0;
  bool n = false, z = false, c = false, v = false;
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

}  // namespace patchcheck::arm64
