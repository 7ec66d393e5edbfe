#pragma once
// One instruction of a litmus thread through the plug-in's semantics on
// concrete values (model/ConcreteProgram.h), read back as plain numbers
// for the runner's memory model (LitmusRun.cpp). What an instruction does
// depends only on its word, its pc, the CPU's registers and the bytes the
// CPU can read, and one that loads nothing not even on those bytes; the
// search reaches the same step along many interleavings, and the tests of
// one run share code (a catalogue's copies under each cache type), so each
// answer is computed once per run and target and kept.
#include <z3++.h>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
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
  using Memory = std::vector<std::pair<uint64_t, uint8_t>>;

  StepSemantics(z3::context& c, const Target& t)
      : c_(c), target_(t), regs_(modelOf(t).registers(t)) {}

  const Target& target() const { return target_; }

  // `memory()`: every byte the CPU can read (its own buffered stores over
  // memory), ascending by address; asked for only when the step may load.
  template <typename MemoryOf>
  const StepOutcome& step(uint32_t word, uint64_t pc, const std::vector<uint64_t>& regs, MemoryOf&& memory) {
    std::string key = keyOf(word, pc, regs);
    if (auto it = loadsNothing_.find(key); it != loadsNothing_.end()) return it->second;
    if (!loaders_.count(word)) {
      // Run it on empty memory: if it loads nothing, memory was never read.
      StepOutcome out = run(word, pc, regs, {});
      if (out.loaded.empty()) return loadsNothing_.emplace(std::move(key), std::move(out)).first->second;
      loaders_.insert(word);
    }
    return withMemory(std::move(key), word, pc, regs, memory());
  }

 private:
  static std::string keyOf(uint32_t word, uint64_t pc, const std::vector<uint64_t>& regs);
  const StepOutcome& withMemory(std::string key, uint32_t word, uint64_t pc, const std::vector<uint64_t>& regs,
                                const Memory& memory);
  StepOutcome run(uint32_t word, uint64_t pc, const std::vector<uint64_t>& regs, const Memory& memory);

  z3::context& c_;
  Target target_;
  const std::vector<RegisterInfo>& regs_;
  std::unordered_map<std::string, StepOutcome> loadsNothing_;  // by word, pc, registers
  std::unordered_set<uint32_t> loaders_;                       // words seen to load
  std::unordered_map<std::string, StepOutcome> seen_;          // by word, pc, registers, readable bytes
};

}  // namespace patchcheck::litmus
