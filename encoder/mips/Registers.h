#pragma once
// General-purpose register names per ABI, as Linux asm/regdef.h defines them:
// under o32 t0..t7 are $8..$15; under n32/n64 a4..a7 are $8..$11 and t0..t3
// are $12..$15. Numeric $N always means register N.
#include <optional>
#include <string_view>

#include "encoder/mips/Target.h"

namespace patchcheck::mips {

// Accepts "$4", "$a0", "a0" (ABI names with or without '$'), "$fp"/"fp".
std::optional<unsigned> parseGpr(std::string_view, Abi);
// The ABI name without '$' ("a0", "t0", "zero"), as objdump prints it.
std::string_view gprName(unsigned reg, Abi);

namespace reg {
constexpr unsigned zero = 0, at = 1, v0 = 2, v1 = 3, a0 = 4, a1 = 5, a2 = 6,
                   a3 = 7, t8 = 24, t9 = 25, k0 = 26, k1 = 27, gp = 28,
                   sp = 29, s8 = 30, ra = 31;
}

}  // namespace patchcheck::mips
