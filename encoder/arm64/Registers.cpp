#include "encoder/arm64/Registers.h"

#include <array>
#include <cctype>
#include <string>

namespace patchcheck::arm64 {
namespace {

// "x0".."x30", "xzr", "sp", and the same for w, built once.
struct Names {
  std::array<std::string, 32> x, w;
  Names() {
    for (unsigned i = 0; i < 31; ++i) x[i] = "x" + std::to_string(i), w[i] = "w" + std::to_string(i);
    x[31] = "xzr", w[31] = "wzr";
  }
};

const Names& names() {
  static const Names n;
  return n;
}

}  // namespace

std::optional<Gpr> parseGpr(std::string_view s) {
  std::string t(s);
  for (char& c : t) c = char(std::tolower((unsigned char)c));
  if (t == "sp") return Gpr{31, true, true};
  if (t == "wsp") return Gpr{31, false, true};
  if (t == "xzr") return Gpr{31, true, false};
  if (t == "wzr") return Gpr{31, false, false};
  if (t == "lr") return Gpr{30, true, false};
  if (t.size() < 2 || t.size() > 3 || (t[0] != 'x' && t[0] != 'w')) return std::nullopt;
  unsigned n = 0;
  for (size_t i = 1; i < t.size(); ++i) {
    if (!std::isdigit((unsigned char)t[i])) return std::nullopt;
    n = n * 10 + unsigned(t[i] - '0');
  }
  if (n > 30 || (t.size() == 3 && t[1] == '0')) return std::nullopt;  // x31 and x01 are not names
  return Gpr{n, t[0] == 'x', false};
}

std::string_view gprName(unsigned n, bool wide, bool sp) {
  if (n == 31 && sp) return wide ? "sp" : "wsp";
  return wide ? names().x[n & 31] : names().w[n & 31];
}

}  // namespace patchcheck::arm64
