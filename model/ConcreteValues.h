#pragma once
// Reading a concrete run's results: in concrete mode every term the
// semantics builds from numerals simplifies back to a numeral, so values
// are read off the state. Shared by the plug-ins' concrete runners
// (model/<isa>/Concrete.h), which replay counterexamples and meet QEMU.
#include <z3++.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "model/MachineState.h"

namespace patchcheck {

// The term as a number (a boolean as 0 or 1), or nothing when it does not
// simplify to a numeral (it depends on a symbol or on a value the
// architecture leaves open).
std::optional<uint64_t> concreteValue(const z3::expr&);

// n bytes of memory from `address` in one walk over the store history
// (nullopt where a byte is unknown).
std::vector<std::optional<uint8_t>> concreteBytes(const MachineState&, uint64_t address, size_t n);

}  // namespace patchcheck
