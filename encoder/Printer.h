#pragma once
// Row + word -> text in GNU syntax, as objdump prints it (ABI register
// names, branch and jump targets as absolute addresses). The text
// reassembles to the same word at the same address.
#include <cstdint>
#include <string>

#include "encoder/Target.h"

namespace patchcheck::mips {

std::string disassemble(uint32_t word, uint64_t address, const Target&);

}  // namespace patchcheck::mips
