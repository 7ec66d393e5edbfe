#pragma once
// Row + word -> text in GNU syntax, as objdump prints it (ABI register
// names, branch and jump targets as absolute addresses). The text
// reassembles to the same word at the same address.
#include <cstdint>
#include <string>

#include "encoder/mips/Target.h"

namespace patchcheck::mips {

// Aliases: the decoder's choice (nop, move, b, ...), as objdump prints by
// default. NoAliases: the canonical row, as `objdump -M no-aliases` prints.
enum class Spelling : uint8_t { Aliases, NoAliases };

std::string disassemble(uint32_t word, uint64_t address, const Target&,
                        Spelling = Spelling::Aliases);

}  // namespace patchcheck::mips
