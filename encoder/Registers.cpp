#include "encoder/Registers.h"

#include <array>
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

}  // namespace

std::optional<unsigned> parseGpr(std::string_view s, Abi abi) {
  if (!s.empty() && s.front() == '$') {
    s.remove_prefix(1);
    if (!s.empty() && s.size() <= 2 && s.find_first_not_of("0123456789") ==
                                           std::string_view::npos) {
      unsigned n = unsigned(std::stoul(std::string(s)));
      if (s.size() == 2 && s[0] == '0') return std::nullopt;
      return n < 32 ? std::optional<unsigned>(n) : std::nullopt;
    }
  }
  const auto& table = names(abi);
  for (unsigned i = 0; i < 32; ++i)
    if (table[i] == s) return i;
  if (s == "fp") return reg::s8;
  // ta0..ta3 (IRIX names, kept by GNU as): a4..a7 under n32/n64, t4..t7 under o32.
  if (s.size() == 3 && s.substr(0, 2) == "ta" && s[2] >= '0' && s[2] <= '3')
    return (abi == Abi::O32 ? 12 : 8) + unsigned(s[2] - '0');
  return std::nullopt;
}

std::string_view gprName(unsigned reg, Abi abi) { return names(abi)[reg & 31]; }

}  // namespace patchcheck::mips
