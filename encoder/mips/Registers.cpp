#include "encoder/mips/Registers.h"

#include <array>
#include <cstdint>
#include <string>

namespace patchcheck::mips {
namespace {

constexpr std::array<std::string_view, 32> kO32 = {
    "zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "t0", "t1", "t2",
    "t3",   "t4", "t5", "t6", "t7", "s0", "s1", "s2", "s3", "s4", "s5",
    "s6",   "s7", "t8", "t9", "k0", "k1", "gp", "sp", "s8", "ra"};

constexpr std::array<std::string_view, 32> kN64 = {
    "zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "a4", "a5", "a6",
    "a7",   "t0", "t1", "t2", "t3", "s0", "s1", "s2", "s3", "s4", "s5",
    "s6",   "s7", "t8", "t9", "k0", "k1", "gp", "sp", "s8", "ra"};

const std::array<std::string_view, 32>& names(Abi abi) {
  return abi == Abi::O32 ? kO32 : kN64;
}

// Every name but "zero" has two letters: compare them as one number.
constexpr uint16_t key(std::string_view n) {
  return n.size() == 2 ? uint16_t((unsigned(uint8_t(n[0])) << 8) | uint8_t(n[1])) : 0;
}
constexpr std::array<uint16_t, 32> keys(const std::array<std::string_view, 32>& t) {
  std::array<uint16_t, 32> k{};
  for (unsigned i = 0; i < 32; ++i) k[i] = key(t[i]);
  return k;
}
constexpr auto kO32Keys = keys(kO32);
constexpr auto kN64Keys = keys(kN64);

}  // namespace

std::optional<unsigned> parseGpr(std::string_view s, Abi abi) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!s.empty() && s.front() == '$') {
    s.remove_prefix(1);
    // $0..$31; no leading zero ($01 is no register to GNU as either).
    if (s.size() == 1 && digit(s[0])) return unsigned(s[0] - '0');
    if (s.size() == 2 && digit(s[0]) && digit(s[1])) {
      unsigned n = unsigned(s[0] - '0') * 10 + unsigned(s[1] - '0');
      if (s[0] == '0' || n >= 32) return std::nullopt;
      return n;
    }
  }
  if (s.size() == 2) {
    const auto& k = abi == Abi::O32 ? kO32Keys : kN64Keys;
    uint16_t want = key(s);
    for (unsigned i = 1; i < 32; ++i)
      if (k[i] == want) return i;
  }
  if (s == "zero") return reg::zero;
  if (s == "fp") return reg::s8;
  // ta0..ta3 (IRIX names, kept by GNU as): a4..a7 under n32/n64, t4..t7 under o32.
  if (s.size() == 3 && s.substr(0, 2) == "ta" && s[2] >= '0' && s[2] <= '3')
    return (abi == Abi::O32 ? 12 : 8) + unsigned(s[2] - '0');
  return std::nullopt;
}

std::string_view gprName(unsigned reg, Abi abi) { return names(abi)[reg & 31]; }

}  // namespace patchcheck::mips
