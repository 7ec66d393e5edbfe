#pragma once
// A function symbol of a build's object as code to prove (a trampoline
// named OBJ:SYMBOL, docs/trampolines.md "From a build"): the bytes
// st_value and st_size give in its section, and the relocations inside
// them, split by the ISA plug-in (encoder/ObjectCode.h). A relocatable
// object (.o, .ko) only: a linked image's fields are already its own
// addresses. A bad file names the file and the offset of the bad
// structure; a symbol the object lacks names where the spec (or the
// command line) asked for it.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "encoder/Diagnostic.h"
#include "encoder/ObjectCode.h"

namespace patchcheck {

struct ObjectSymbolCode {
  std::string object, symbol;
  uint16_t machine = 0;
  bool elf64 = false;
  Endian endian = Endian::Little;
  uint64_t fileOffset = 0;     // where the bytes lie in the file
  std::vector<uint8_t> bytes;  // st_size bytes at st_value
  struct Reloc {
    uint64_t offset = 0;       // from the symbol's first byte
    ObjectRelocation relocation;  // `at` unset; a symbol of the same section inside the code is named by its offset
    uint64_t fileOffset = 0;   // of the relocation entry
    bool inside = false;       // its symbol lies in this code: relocation.addend counts from the code's start
  };
  std::vector<Reloc> relocations;  // by offset
  const ObjectCode* code = nullptr;  // the plug-in's scan part for the machine

  // The relocations as text, one per line ("0x1c R_MIPS_HI16 _stext+0x0"):
  // hashed beside the bytes, as they decide the code as much as the bytes.
  std::string relocationText() const;
};

std::variant<ObjectSymbolCode, Diagnostic> readObjectSymbol(const std::string& object, const std::string& symbol,
                                                            const SourceLocation& reference);

}  // namespace patchcheck
