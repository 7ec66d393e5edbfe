#pragma once
// The nops GNU as 2.40 fills code alignment with in 64-bit mode (its
// alt_patt for the default -mtune): instructions of at most 11 bytes, the
// longest first, the rest in one shorter nop.
#include <cstdint>
#include <vector>

namespace patchcheck::x86_64 {

std::vector<std::vector<uint8_t>> paddingNops(uint64_t bytes);

}  // namespace patchcheck::x86_64
