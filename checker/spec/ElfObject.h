#pragma once
// An ELF file as the scan reads it (docs/scan.md): its sections, symbols
// and relocations, read with elfutils' libelf (as objtool does), for
// relocatable objects (.o, .ko) and linked images (vmlinux), ELF32 and
// ELF64, either byte order. Nothing of an ISA is known here: a
// relocation keeps its raw r_info, which the ISA plug-in splits
// (encoder/ObjectCode.h; MIPS64 packs three types in it). A file libelf
// refuses, or whose tables point outside it, is an ElfError naming the
// byte offset of the first bad structure.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "encoder/Target.h"

namespace patchcheck {

struct ElfSection {
  unsigned index = 0;
  std::string name;
  uint32_t type = 0;  // SHT_*
  uint64_t flags = 0, addr = 0, offset = 0, size = 0, align = 0, entsize = 0;
  uint32_t link = 0, info = 0;
  std::vector<uint8_t> bytes;  // the file's bytes (empty for SHT_NOBITS)

  bool executable() const;  // SHF_EXECINSTR
};

struct ElfSymbol {
  std::string name;
  uint64_t value = 0, size = 0;
  unsigned section = 0;  // st_shndx (0: undefined)
  uint8_t type = 0, bind = 0;  // STT_*, STB_*
};

struct ElfRelocation {
  uint64_t offset = 0;  // r_offset: within the section (.o) or an address (linked)
  uint64_t info = 0;    // raw r_info
  int64_t addend = 0;   // RELA's r_addend; 0 for REL (the addend is in the field)
  bool rela = false;
  uint64_t at = 0;      // where the entry lies in the file, for errors
};

struct ElfObject {
  std::string path;
  bool elf64 = false;
  Endian endian = Endian::Little;
  uint16_t machine = 0;  // e_machine
  uint16_t type = 0;     // ET_REL, ET_EXEC, ET_DYN
  uint32_t flags = 0;    // e_flags
  std::vector<ElfSection> sections;  // by index; [0] is the null section
  std::vector<ElfSymbol> symbols;    // .symtab by index; [0] is the null symbol
  // Relocations of each section, by the index of the section they apply to.
  std::vector<std::vector<ElfRelocation>> relocations;

  bool relocatable() const;  // ET_REL: sites are section offsets, fields are relocations
  const ElfSection* section(std::string_view name) const;
  const std::vector<ElfRelocation>& relocationsOf(unsigned section) const { return relocations[section]; }
};

struct ElfError {
  std::string file;
  uint64_t offset = 0;
  std::string message;
  std::string str() const;  // "file: error: offset 0x40: message"
};

std::variant<ElfObject, ElfError> readElf(const std::string& path);
// The same for bytes in memory (the fuzz target); `name` names them in errors.
std::variant<ElfObject, ElfError> parseElf(std::span<const uint8_t> bytes, const std::string& name);

}  // namespace patchcheck
