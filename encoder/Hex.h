#pragma once
// Numbers in messages and printed terms: "0x" and lowercase hex digits, no
// padding. One spelling for every layer, so an address in an error reads
// the same as in a counterexample.
#include <cstdint>
#include <string>

namespace patchcheck {

std::string hex(uint64_t);

}  // namespace patchcheck
