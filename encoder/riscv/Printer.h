#pragma once
// Instruction bits -> text in GNU syntax as objdump -d prints it (binutils
// 2.40, aliases on): ABI register names, decimal immediates and offsets,
// hex shift amounts and upper immediates, CSR names. Branch and jump
// targets are printed as absolute addresses with 0x (objdump adds
// " <symbol>" and no 0x); the text reassembles to the same bits at the
// same address.
#include <cstdint>
#include <string>

namespace patchcheck::riscv {

enum class Spelling : uint8_t { Aliases, NoAliases };

// `bits`: the instruction (a 16-bit one in the low half); `xlen` 32 or 64;
// `rvc`: the C extension is on; `fd`: F and D are (objdump then also
// prints the fcsr CSRs' F aliases, frcsr, fsrm, ...). An encoding no row
// accepts prints as objdump's `.2byte 0x...` or `.4byte 0x...`.
std::string disassemble(uint32_t bits, uint64_t address, unsigned xlen, bool rvc, Spelling = Spelling::Aliases,
                        bool fd = false);

}  // namespace patchcheck::riscv
