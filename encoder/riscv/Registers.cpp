#include "encoder/riscv/Registers.h"

#include <array>

namespace patchcheck::riscv {
namespace {

constexpr std::array<std::string_view, 32> kNames = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",  "a1",  "a2", "a3", "a4", "a5",
    "a6",   "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

}  // namespace

std::optional<unsigned> parseGpr(std::string_view s) {
  if (s == "fp") return reg::fp;
  for (unsigned r = 0; r < kNames.size(); ++r)
    if (s == kNames[r]) return r;
  if (s.size() < 2 || s.size() > 3 || s[0] != 'x') return std::nullopt;
  unsigned n = 0;
  for (char c : s.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + unsigned(c - '0');
  }
  // "x05" is no register name in GNU as.
  if ((s.size() == 3 && s[1] == '0') || n > 31) return std::nullopt;
  return n;
}

std::string_view gprName(unsigned reg) { return reg < kNames.size() ? kNames[reg] : "?"; }

}  // namespace patchcheck::riscv
