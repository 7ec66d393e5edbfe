#pragma once
// Where symbols may lie: each target's default regions (its plug-in's,
// IsaPlugin::defaultRegions) merged with a spec's [regions], and how written addresses map
// to the 64-bit values the model uses.
//
// Addresses are 64-bit everywhere in the model; a 32-bit ISA's addresses are
// its 32-bit values sign-extended (KSEG0 0x80000000 is 0xffffffff80000000),
// as a 64-bit CPU running 32-bit code would hold them. A spec may write a
// 32-bit target's address either way.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "checker/spec/Spec.h"

namespace patchcheck {

// `written` as the target holds it: unchanged on 64-bit targets; on 32-bit
// targets the 32-bit value sign-extended, or nothing when `written` is not a
// 32-bit address (neither below 2^32 nor already sign-extended).
std::optional<uint64_t> addressFor(uint64_t written, const Target&);

// kernel-text and module-text for this target, from its plug-in (MIPS:
// KSEG0 and KSEG2, held sign-extended; on 64-bit ISAs CKSEG0 and CKSEG2).
std::vector<RegionSpec> defaultRegions(const Target&);

// The defaults with the spec's [regions] over them (a spec region of the same
// name wins), all as the target holds them (addressFor).
std::vector<RegionSpec> regionsFor(const Spec&, const Target&);

const RegionSpec* findRegion(const std::vector<RegionSpec>&, std::string_view name);

// A concrete symbol's address as the target holds it; nothing for a symbolic
// symbol (or a value that is no address of this target).
std::optional<uint64_t> symbolAddress(const SymbolSpec&, const Target&);

}  // namespace patchcheck
