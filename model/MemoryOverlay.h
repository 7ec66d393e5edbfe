#pragma once
// Bytes another agent changes while this CPU runs: a patch site's data
// units (arm64 CALL_OPS's ops literal before F) while the writer rewrites
// them. A load that touches them reads one of the versions the fetch model
// allows, chosen afresh for each load (MachineState::load), not the entry
// memory; the checker fills it in (checker/explore/PassFetch.cpp).
#include <z3++.h>

#include <string>
#include <vector>

namespace patchcheck {

struct OverlayUnit {
  z3::expr address;  // its first byte, 64-bit
  std::string name;  // "data F-8": names the choice in a counterexample
  // The versions a load may see, each as its bytes in address order (8-bit
  // terms); at least one.
  std::vector<std::vector<z3::expr>> versions;
  std::vector<std::string> versionNames;  // "old", "new", one per version
};

struct MemoryOverlay {
  std::vector<OverlayUnit> units;
};

// One load that read an overlay unit: which version it took (`pick` indexes
// the unit's versions; a value past the last means the last), for the
// counterexample.
struct OverlayRead {
  std::string unit;
  z3::expr touched;  // the load's bytes overlap the unit
  z3::expr pick;
  std::vector<std::string> versionNames;
  // The load or the unit is not naturally aligned, so not single-copy
  // atomic: each byte was chosen on its own (`pick` is then byte 0's unless
  // they agree).
  z3::expr torn;
};

}  // namespace patchcheck
