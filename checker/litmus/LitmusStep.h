#pragma once
// One instruction of a litmus thread through the plug-in's semantics on
// concrete values (model/ConcreteProgram.h), read back as plain numbers
// for the runner's memory model (LitmusRun.cpp). What an instruction does
// depends only on its word, its pc, the CPU's registers and the bytes the
// CPU can read; the search reaches the same step along many interleavings,
// so each answer is computed once per test run and kept.
#include <z3++.h>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "encoder/Target.h"
#include "model/Effect.h"
#include "model/Fault.h"
#include "model/IsaModel.h"

namespace patchcheck::litmus {

struct StepEffect {
  Ordering ordering = Ordering::None;
  EffectKind kind = EffectKind::Other;
  std::optional<uint64_t> address;  // when concrete
  bool valueGiven = false;          // the effect carries a value ...
  std::optional<uint64_t> value;    // ... and this is it, when concrete
  std::string what;
};

// The bytes one instruction stored at consecutive addresses.
struct StepStore {
  uint64_t address = 0;
  unsigned bytes = 0;
  uint64_t value = 0;  // little-endian; the first 8 bytes only (more is refused)
};

struct StepOutcome {
  std::vector<StepEffect> effects;
  std::vector<std::optional<uint64_t>> loaded;  // each load's address, in order; nullopt: not concrete
  std::vector<uint64_t> storedBytes;            // each concrete byte address stored to, in order
  std::vector<StepStore> stores;                // the same bytes as runs, ascending
  std::vector<std::optional<uint64_t>> regs;    // the register file after; nullopt: not concrete
  std::vector<std::pair<FaultKind, std::string>> faults;  // kind, detail
  std::string stop;                             // "stepped": ran to the next instruction
  uint64_t pc = 0;                              // where it went
};

class StepSemantics {
 public:
  StepSemantics(z3::context& c, const Target& t)
      : c_(c), target_(t), regs_(modelOf(t).registers(t)) {}

  // `memory`: every byte the CPU can read (its own buffered stores over
  // memory), ascending by address.
  const StepOutcome& step(uint32_t word, uint64_t pc, const std::vector<uint64_t>& regs,
                          const std::vector<std::pair<uint64_t, uint8_t>>& memory);

 private:
  StepOutcome run(uint32_t word, uint64_t pc, const std::vector<uint64_t>& regs,
                  const std::vector<std::pair<uint64_t, uint8_t>>& memory);

  z3::context& c_;
  Target target_;
  const std::vector<RegisterInfo>& regs_;
  std::unordered_map<std::string, StepOutcome> seen_;
};

}  // namespace patchcheck::litmus
