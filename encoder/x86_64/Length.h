#pragma once
// How long the x86-64 instruction at the start of some bytes is, as the
// CPU's decoder finds it (Zydis), and whether that depends on bytes the
// placement decides.
#include <span>

#include "encoder/Isa.h"

namespace patchcheck::x86_64 {

IsaPlugin::Length instructionLength(std::span<const uint8_t> bytes, std::span<const bool> symbolic);

}  // namespace patchcheck::x86_64
