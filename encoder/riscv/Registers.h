#pragma once
// The 32 integer registers: x0..x31 and the psABI names (RISC-V ELF psABI,
// "Register Convention"): zero ra sp gp tp t0-t2 s0/fp s1 a0-a7 s2-s11
// t3-t6. objdump prints the ABI name; fp is another name of s0.
#include <optional>
#include <string_view>

namespace patchcheck::riscv {

// Accepts "x5", "t0", "fp"; not "$5" (GNU as for RISC-V has no '$').
std::optional<unsigned> parseGpr(std::string_view);
// The ABI name ("t0", "s0"), as objdump prints it.
std::string_view gprName(unsigned reg);
// f registers (F, "Floating-Point Register State"; psABI's names): f0..f31
// or ft0..ft11, fs0..fs11, fa0..fa7. objdump prints the ABI name.
std::optional<unsigned> parseFpr(std::string_view);
std::string_view fprName(unsigned reg);

namespace reg {
constexpr unsigned zero = 0, ra = 1, sp = 2, gp = 3, tp = 4, t0 = 5, t1 = 6, t2 = 7, s0 = 8, fp = 8, s1 = 9,
                   a0 = 10, a1 = 11, a2 = 12, a3 = 13, a4 = 14, a5 = 15, a6 = 16, a7 = 17, t3 = 28, t4 = 29,
                   t5 = 30, t6 = 31;
}

}  // namespace patchcheck::riscv
