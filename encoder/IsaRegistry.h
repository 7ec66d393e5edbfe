#pragma once
// Every ISA plug-in, keyed by the variant names a spec gives in [target]
// isa. The list is made by the build from the plug-in folders
// (encoder/<isa>/Plugin.cpp), so adding an ISA edits no file of the core.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "encoder/Isa.h"

namespace patchcheck {

std::span<const IsaPlugin* const> isas();

// The target of an `isa` name ("mips64r2") with that variant's default ABI
// and the plug-in's default byte order; nothing when no plug-in has the variant.
std::optional<Target> targetNamed(std::string_view variant);
// `abi` as one of the target's ISA's ABIs ("n32").
std::optional<uint8_t> abiNamed(const Target&, std::string_view abi);
// Every variant and every ABI name of every plug-in, for help and errors.
std::vector<std::string> variantNames();
std::vector<std::string> abiNames();
// The plug-in whose litmusArchitecture is `word` (a litmus header's
// "AArch64"), whether or not it runs litmus tests.
const IsaPlugin* isaOfLitmusArchitecture(std::string_view word);
// The target of a spec without [target] and of commands given no --isa:
// mips64r2/n64/big, as the spec format says (a build without MIPS: the
// first plug-in's default variant).
Target defaultTarget();

}  // namespace patchcheck
