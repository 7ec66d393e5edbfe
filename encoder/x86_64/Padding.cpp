#include "encoder/x86_64/Padding.h"

#include <algorithm>
#include <array>

namespace patchcheck::x86_64 {
namespace {

// The 11-byte nop, `data16 cs nopw 0x0(%rax,%rax,1)`; the n-byte one for
// n <= 8 is Linux's x86_nops[n] (arch/x86/include/asm/nops.h), 9 and 10
// drop the first prefixes of the 11-byte one.
constexpr std::array<uint8_t, 11> kNop11 = {0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0};
const std::vector<uint8_t> kShort[9] = {
    {},
    {0x90},
    {0x66, 0x90},
    {0x0f, 0x1f, 0x00},
    {0x0f, 0x1f, 0x40, 0x00},
    {0x0f, 0x1f, 0x44, 0x00, 0x00},
    {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00},
    {0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00},
    {0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
};

std::vector<uint8_t> nopOf(unsigned n) {
  if (n <= 8) return kShort[n];
  if (n == 9) return {0x66, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0};
  return std::vector<uint8_t>(kNop11.end() - n, kNop11.end());
}

}  // namespace

std::vector<std::vector<uint8_t>> paddingNops(uint64_t bytes) {
  std::vector<std::vector<uint8_t>> out;
  while (bytes) {
    unsigned n = unsigned(std::min<uint64_t>(bytes, 11));
    out.push_back(nopOf(n));
    bytes -= n;
  }
  return out;
}

}  // namespace patchcheck::x86_64
