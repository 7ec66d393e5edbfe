#pragma once
// One concrete instance of a spec's transition (or state) for the brute-force
// re-check: every symbol at a concrete address, every word version assembled
// with those addresses, the writer's steps, the model knobs and concrete entry
// registers. Nothing here comes from the checker's SiteInstance, Timeline or
// Regions: placements and regions are re-derived from docs/semantics.md.
#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "checker/spec/Spec.h"
#include "encoder/mips/Target.h"
#include "tests/bruteforce/EntryRules.h"

namespace bruteforce {

namespace mips = patchcheck::mips;

struct Placement {
  uint64_t function = 0;                    // F (64-bit form: sign-extended on 32-bit ISAs)
  std::map<std::string, uint64_t> symbols;  // every declared symbol but F
};

enum class PlacementMode { Random, LowEdges, HighEdges };

// A placement meeting every symbol's region and alignment, other symbols
// outside F's site, body and the word after, all distinct; a trampoline's
// symbol at least 64 KiB from F, so that its code (far shorter) lies apart
// from the site. Empty string on success, else why none was found.
std::string place(const patchcheck::Spec&, const mips::Target&, PlacementMode, std::mt19937_64&, Placement&);

// Entry registers: random, sp aligned to the ABI's stack alignment; 32-bit
// values on 32-bit ISAs; under n32, sp, ra and gp sign-extended 32-bit.
std::array<uint64_t, 32> entryRegisters(const mips::Target&, std::mt19937_64&);

struct WriterStep {
  enum class Kind { Write, Sync, Flush, Wait };
  Kind kind = Kind::Write;
  unsigned word = 0;     // Write: the region word
  unsigned version = 0;  // Write: the version of that word it creates (>= 1)
};

struct Scenario {
  std::string name;  // "spec: from->to [target]" for reports
  mips::Target target;
  Placement placement;
  unsigned siteUnitCount = 0, regionWords = 0;
  std::vector<std::vector<uint32_t>> versions;  // per region word; [0] before the steps
  std::vector<WriterStep> steps;
  patchcheck::When when = patchcheck::When::Live;
  patchcheck::ModelSpec model;
  patchcheck::BehaviourSpec allowed;
  std::array<uint64_t, 32> entry{};
  std::string brokenEnd;  // non-empty: the steps do not end in `to` (why)
  std::vector<EntryRule> entries;  // the trampolines' entries, placed
};

// The transition at this placement; a string when a word does not assemble
// there (the placement is then skipped).
std::variant<Scenario, std::string> transitionScenario(const patchcheck::Spec&, const mips::Target&,
                                                       const Placement&, const patchcheck::TransitionSpec&);
// A state alone: no steps, allowed = its declared behaviour.
std::variant<Scenario, std::string> stateScenario(const patchcheck::Spec&, const mips::Target&,
                                                  const Placement&, const std::string& state);

}  // namespace bruteforce
