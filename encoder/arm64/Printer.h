#pragma once
// Words to GNU-syntax text as `aarch64-linux-gnu-objdump -d` prints them:
// the aliases objdump prefers (mov, cmp, ret, nop, bti c, ...), a tab
// after the mnemonic and ", " between operands. Two departures, for text
// that reassembles: targets are `0x` addresses without objdump's
// `<symbol+off>`, and objdump's `// ...` comments are left out.
#include <cstdint>
#include <string>

namespace patchcheck::arm64 {

// `address` is where the word lies (pc-relative targets). A word without a
// row prints as `.inst\t0x........`.
std::string disassemble(uint32_t w, uint64_t address);

}  // namespace patchcheck::arm64
