#pragma once
// Bytes to the text `objdump -d` (binutils 2.40, AT&T) prints for one
// instruction: the mnemonic with its prefixes, a tab, the operands joined
// by ",". Zydis decodes and its AT&T formatter prints the operands, with
// hooks where objdump differs; the mnemonic is the table's (objdump's
// spelling and size-suffix rule). Branch targets are absolute hex without
// 0x, as objdump prints them before its `<symbol>`; objdump's `# address`
// comment after a %rip operand is left out. Bytes Zydis cannot decode
// print as `(bad)`.
#include <cstdint>
#include <span>
#include <string>

namespace patchcheck::x86_64 {

std::string disassemble(std::span<const uint8_t> bytes, uint64_t address);

}  // namespace patchcheck::x86_64
