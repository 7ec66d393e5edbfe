#pragma once
// General-purpose register names as GNU as takes and objdump prints them:
// x0..x30 and w0..w30, lr for x30, xzr/wzr and sp/wsp for number 31.
#include <optional>
#include <string_view>

namespace patchcheck::arm64 {

struct Gpr {
  unsigned number = 0;  // 0..31
  bool wide = true;     // an X name (64-bit) or a W name (32-bit)
  bool sp = false;      // 31 named sp/wsp (else 31 is xzr/wzr)
};

std::optional<Gpr> parseGpr(std::string_view);  // case-insensitive
// The name of register `number` as objdump prints it.
std::string_view gprName(unsigned number, bool wide, bool sp);

}  // namespace patchcheck::arm64
