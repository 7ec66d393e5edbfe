#pragma once
// An instruction as fetched, in the form the core hands it to a plug-in's
// step: the plug-in decodes it. Fields such as opcode and registers are
// concrete for every placement; immediates may depend on symbolic
// addresses and then stay terms.
#include <z3++.h>

#include <cstdint>

namespace patchcheck {

struct Instruction {
  z3::expr term;       // the instruction's value as its plug-in reads it (MIPS: the 32-bit word)
  uint64_t known = 0;  // the bits that are the same for every placement
  unsigned bytes = 4;  // its length
};

}  // namespace patchcheck
