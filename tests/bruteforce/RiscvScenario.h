#pragma once
// One concrete instance of a RISC-V spec's transition (or state) for the
// brute-force differential: every symbol at a concrete address, every unit
// version assembled there with the RISC-V assembler, the writer's steps in
// their RISC-V spellings, and concrete entry registers. Nothing comes from
// the checker's SiteInstance, Timeline or FetchModel.
#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "checker/spec/Spec.h"
#include "tests/bruteforce/EntryRules.h"

namespace bruteforce::rv {

using patchcheck::Target;

struct Placement {
  uint64_t function = 0;                    // F, as a 64-bit address (RV32: sign-extended)
  std::map<std::string, uint64_t> symbols;  // every declared symbol but F
};

enum class PlacementMode { Random, LowEdges, HighEdges };

// A placement meeting every symbol's region, alignment and `near`/`within`
// bound, the others apart from F's site region and from each other (a
// trampoline at least 64 KiB from it). Empty on success, else why not.
std::string place(const patchcheck::Spec&, const Target&, PlacementMode, std::mt19937_64&, Placement&);

// x1..x31 at F's entry: random, sp 16-aligned (psABI), 32-bit on RV32.
std::array<uint64_t, 32> entryRegisters(const Target&, std::mt19937_64&);

// The writer's steps as Linux's RISC-V patching spells them
// (arch/riscv/mm/cacheflush.c, docs/model.md "The RISC-V fetch models").
enum class Step { Write, FenceWW, FenceWO, FenceILocal, Ipi, FlushIcacheAll, Wait };

struct WriterStep {
  Step kind = Step::Write;
  unsigned unit = 0;     // Write: the region unit
  unsigned version = 0;  // Write: the version of that unit it creates (>= 1)
};

enum class Fetch { Ziccif, Ziccid };

struct Scenario {
  std::string name;
  Target target;
  Placement placement;
  Fetch fetch = Fetch::Ziccif;
  bool preemption = true;
  bool synchronised = false;          // publish = "synchronised"
  unsigned dataUnits = 0;             // units before F (read by loads, never fetched)
  unsigned siteUnits = 0;             // data units + site words
  unsigned regionUnits = 0;           // + the body's words
  std::vector<uint64_t> address;      // per region unit
  std::vector<std::vector<uint64_t>> versions;  // per region unit; [0] before the steps
  std::vector<WriterStep> steps;
  patchcheck::When when = patchcheck::When::Live;
  patchcheck::BehaviourSpec allowed;
  std::array<uint64_t, 32> entry{};
  std::string brokenEnd;              // the steps do not end in `to` (why)
  std::vector<EntryRule> entries;     // the trampolines' entries, placed
  uint64_t resume() const { return placement.function + 4ull * (siteUnits - dataUnits); }
};

// The transition, or the state alone (no steps, allowed = its behaviour),
// at this placement; a string when it cannot be made there.
std::variant<Scenario, std::string> transitionScenario(const patchcheck::Spec&, const Target&, const Placement&,
                                                       const patchcheck::TransitionSpec&);
std::variant<Scenario, std::string> stateScenario(const patchcheck::Spec&, const Target&, const Placement&,
                                                  const std::string& state);

}  // namespace bruteforce::rv
