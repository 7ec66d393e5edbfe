#include "encoder/riscv/Registers.h"

#include <array>

namespace patchcheck::riscv {
namespace {

constexpr std::array<std::string_view, 32> kNames = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",  "a1",  "a2", "a3", "a4", "a5",
    "a6",   "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

constexpr std::array<std::string_view, 32> kFloatNames = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6",  "ft7",  "fs0", "fs1", "fa0", "fa1", "fa2",  "fa3",  "fa4", "fa5",
    "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

// "<letter>N" with N 0..31 written without a leading zero, as GNU as takes x and f registers.
std::optional<unsigned> numbered(std::string_view s, char letter) {
  if (s.size() < 2 || s.size() > 3 || s[0] != letter) return std::nullopt;
  unsigned n = 0;
  for (char c : s.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + unsigned(c - '0');
  }
  if ((s.size() == 3 && s[1] == '0') || n > 31) return std::nullopt;
  return n;
}

}  // namespace

std::optional<unsigned> parseFpr(std::string_view s) {
  for (unsigned r = 0; r < kFloatNames.size(); ++r)
    if (s == kFloatNames[r]) return r;
  return numbered(s, 'f');
}

std::string_view fprName(unsigned reg) { return reg < kFloatNames.size() ? kFloatNames[reg] : "?"; }

std::optional<unsigned> parseGpr(std::string_view s) {
  if (s == "fp") return reg::fp;
  for (unsigned r = 0; r < kNames.size(); ++r)
    if (s == kNames[r]) return r;
  // "x05" is no register name in GNU as.
  return numbered(s, 'x');
}

std::string_view gprName(unsigned reg) { return reg < kNames.size() ? kNames[reg] : "?"; }

}  // namespace patchcheck::riscv
