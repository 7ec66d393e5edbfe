#pragma once
// The facts that place a symbol: its address lies in [lo, hi] and is a
// multiple of `align`. Besides those two, one more fact names the address
// as base + k * align, with k only as wide as the range needs. It allows
// exactly the same addresses, but it tells the solver that the high bits
// are fixed, so the placement questions every path asks (branch reach,
// symbols apart) become ~27-bit arithmetic instead of 64-bit: unsat
// answers that took 100-600 ms take 1-20 ms (docs/design.md, "Speed").
#include <z3++.h>

#include <cstdint>
#include <string>
#include <vector>

namespace patchcheck {

struct PlacementFacts {
  z3::expr range;                  // lo <= sym <= hi
  std::vector<z3::expr> aligned;   // sym % align == 0 (none when align <= 1)
  std::vector<z3::expr> narrowed;  // sym == base + k * align, k <= span
};

PlacementFacts placementFacts(const z3::expr& symbol, const std::string& name, uint64_t lo, uint64_t hi,
                              uint64_t align);

}  // namespace patchcheck
