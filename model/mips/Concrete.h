#pragma once
// Concrete mode: the symbolic semantics run on numerals. Every term the
// semantics builds from numerals simplifies back to a numeral, so the same
// code that proves also replays counterexamples and is compared with QEMU.
#include <z3++.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/Cpu.h"
#include "model/ConcreteValues.h"
#include "model/Executor.h"
#include "model/mips/Semantics.h"

namespace patchcheck::mips {

using patchcheck::concreteValue;  // model/ConcreteValues.h

// A word fetched with concrete bits, as the core hands it to Cpu::step,
// and decoded, as mips::execute takes it.
Instruction fetchWord(z3::context&, uint32_t word);
Fetched decodedWord(z3::context&, uint32_t word, Isa);

// Where a concrete run starts.
struct ConcreteStart {
  Target target;
  uint64_t base = 0;                 // address of words[0] (64-bit, sign-extended on 32-bit ISAs)
  std::vector<uint32_t> words;       // the program
  std::array<uint64_t, 32> gpr{};    // entry registers (gpr[0] ignored)
  uint64_t hi = 0, lo = 0;           // pre-R6
  struct Bytes {
    uint64_t address;
    std::vector<uint8_t> bytes;
  };
  std::vector<Bytes> memory;         // initial memory; the rest is zero
  // Interrupt before these step numbers (0-based) to replay re-execution.
  std::vector<unsigned> interruptBefore;
  unsigned maxSteps = kDefaultMaxSteps;
};

struct ConcreteRun {
  MachineState state;
  uint64_t pc = 0;                   // where it stopped
  unsigned steps = 0;
  std::vector<Fault> faults;         // faults that happened (condition true); the run stops at the first
  std::string stop;                  // why it stopped: "left the program", "fault", "step limit"

  std::optional<uint64_t> reg(unsigned r) const { return concreteValue(state.reg(r)); }
  std::optional<uint64_t> hi() const { return concreteValue(state.reg(reg::hi)); }
  std::optional<uint64_t> lo() const { return concreteValue(state.reg(reg::lo)); }
  std::optional<uint64_t> byte(uint64_t address) const;
  // n bytes from address in one walk over the store history (nullopt: unknown).
  std::vector<std::optional<uint8_t>> bytes(uint64_t address, size_t n) const;
};

// Runs from base until pc leaves the program (at a boundary outside any
// delay slot), a fault happens, or the step limit.
ConcreteRun runConcrete(z3::context&, const ConcreteStart&);

}  // namespace patchcheck::mips
