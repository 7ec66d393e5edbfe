#include "checker/spec/ElfObject.h"

#include <gelf.h>
#include <libelf.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>

namespace patchcheck {

bool ElfSection::executable() const { return flags & SHF_EXECINSTR; }

bool ElfObject::relocatable() const { return type == ET_REL; }

const ElfSection* ElfObject::section(std::string_view name) const {
  for (const ElfSection& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

std::string ElfError::str() const {
  char at[32];
  std::snprintf(at, sizeof at, "0x%llx", (unsigned long long)offset);
  return file + ": error: offset " + at + ": " + message;
}

namespace {

struct ElfCloser {
  void operator()(Elf* e) const { elf_end(e); }
};

class Reader {
 public:
  Reader(std::span<const uint8_t> bytes, const std::string& name) : image_(bytes.begin(), bytes.end()) {
    obj_.path = name;
  }

  std::variant<ElfObject, ElfError> read() {
    if (elf_version(EV_CURRENT) == EV_NONE) return fail(0, "libelf is out of date");
    if (image_.size() < EI_NIDENT || image_[0] != 0x7f || image_[1] != 'E' || image_[2] != 'L' || image_[3] != 'F')
      return fail(0, "not an ELF file (no \\x7fELF magic)");
    std::unique_ptr<Elf, ElfCloser> elf(elf_memory(reinterpret_cast<char*>(image_.data()), image_.size()));
    if (!elf || elf_kind(elf.get()) != ELF_K_ELF) return fail(0, "libelf cannot read it: " + libelfError());
    elf_ = elf.get();
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf_, &eh)) return fail(0, "bad ELF header: " + libelfError());
    obj_.elf64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
    if (eh.e_ident[EI_DATA] != ELFDATA2LSB && eh.e_ident[EI_DATA] != ELFDATA2MSB)
      return fail(EI_DATA, "unknown byte order");
    obj_.endian = eh.e_ident[EI_DATA] == ELFDATA2MSB ? Endian::Big : Endian::Little;
    obj_.machine = eh.e_machine;
    obj_.type = eh.e_type;
    obj_.flags = eh.e_flags;
    size_t count = 0, strndx = 0;
    if (elf_getshdrnum(elf_, &count) != 0) return fail(eh.e_shoff, "bad section count: " + libelfError());
    if (count == 0 && eh.e_shoff != 0)
      return fail(obj_.elf64 ? 0x28 : 0x20, "e_shoff " + std::to_string(eh.e_shoff) +
                                                ": the section header table lies past the end of the file (" +
                                                std::to_string(image_.size()) + " bytes)");
    if (count == 0) return fail(0, "no section headers (a stripped or core file cannot be scanned)");
    if (elf_getshdrstrndx(elf_, &strndx) != 0 || strndx >= count)
      return fail(eh.e_shoff, "bad section name table index");
    obj_.sections.resize(count);
    obj_.relocations.resize(count);
    // Where each section header lies (errors point at it): the size of the
    // header libelf reads, whatever e_shentsize claims.
    uint64_t entry = obj_.elf64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
    for (size_t i = 0; i < count; ++i) {
      uint64_t header = eh.e_shoff + i * entry;
      Elf_Scn* scn = elf_getscn(elf_, i);
      GElf_Shdr sh;
      if (!scn || !gelf_getshdr(scn, &sh)) return fail(header, "bad section header " + std::to_string(i));
      ElfSection& s = obj_.sections[i];
      s.index = unsigned(i);
      s.type = sh.sh_type, s.flags = sh.sh_flags, s.addr = sh.sh_addr, s.offset = sh.sh_offset;
      s.size = sh.sh_size, s.align = sh.sh_addralign, s.entsize = sh.sh_entsize;
      s.link = sh.sh_link, s.info = sh.sh_info;
      if (i == 0) continue;
      const char* name = elf_strptr(elf_, strndx, sh.sh_name);
      if (!name) return fail(header, "section " + std::to_string(i) + "'s name lies outside the name table");
      s.name = name;
      if (s.type != SHT_NOBITS && (s.offset > image_.size() || s.size > image_.size() - s.offset))
        return fail(header, "section " + s.name + " lies past the end of the file (" + std::to_string(image_.size()) +
                                " bytes)");
      if (s.type != SHT_NOBITS) s.bytes.assign(image_.begin() + s.offset, image_.begin() + s.offset + s.size);
    }
    for (size_t i = 1; i < count; ++i) {
      const ElfSection& s = obj_.sections[i];
      if (s.type == SHT_SYMTAB)
        if (auto e = readSymbols(s)) return *e;
    }
    for (size_t i = 1; i < count; ++i) {
      const ElfSection& s = obj_.sections[i];
      if (s.type == SHT_REL || s.type == SHT_RELA)
        if (auto e = readRelocations(s, eh.e_shoff + i * entry)) return *e;
    }
    return std::move(obj_);
  }

 private:
  std::vector<uint8_t> image_;  // libelf reads (and may convert) a private copy
  Elf* elf_ = nullptr;
  ElfObject obj_;

  static std::string libelfError() {
    const char* m = elf_errmsg(-1);
    return m ? m : "unknown libelf error";
  }
  // An offset past the file (a header table e_shoff puts there) is shown
  // as the offset of e_shoff itself, the field that points outside.
  ElfError fail(uint64_t offset, std::string message) const {
    if (offset > image_.size()) {
      message = "the section header table (e_shoff) lies past the end of the file: " + message;
      offset = obj_.elf64 ? 0x28 : 0x20;
    }
    return {obj_.path, offset, std::move(message)};
  }

  // The section's contents in host order (symbols, relocations).
  Elf_Data* data(const ElfSection& s) {
    Elf_Scn* scn = elf_getscn(elf_, s.index);
    return scn ? elf_getdata(scn, nullptr) : nullptr;
  }

  std::optional<ElfError> readSymbols(const ElfSection& s) {
    if (!obj_.symbols.empty()) return std::nullopt;  // one .symtab
    if (s.link == 0 || s.link >= obj_.sections.size() || obj_.sections[s.link].type != SHT_STRTAB)
      return fail(s.offset, "symbol table " + s.name + " names no string table");
    Elf_Data* d = data(s);
    if (!d) return fail(s.offset, "symbol table " + s.name + " cannot be read: " + libelfError());
    size_t n = s.entsize ? s.size / s.entsize : 0;
    if (s.entsize == 0 || n * s.entsize != s.size) return fail(s.offset, "symbol table " + s.name + " has a bad entry size");
    obj_.symbols.reserve(n);
    for (size_t k = 0; k < n; ++k) {
      GElf_Sym sym;
      if (!gelf_getsym(d, int(k), &sym)) return fail(s.offset + k * s.entsize, "symbol " + std::to_string(k) + " cannot be read");
      const char* name = elf_strptr(elf_, s.link, sym.st_name);
      if (!name) return fail(s.offset + k * s.entsize, "symbol " + std::to_string(k) + "'s name lies outside its string table");
      ElfSymbol e;
      e.name = name, e.value = sym.st_value, e.size = sym.st_size, e.section = sym.st_shndx;
      e.type = GELF_ST_TYPE(sym.st_info), e.bind = GELF_ST_BIND(sym.st_info);
      obj_.symbols.push_back(std::move(e));
    }
    return std::nullopt;
  }

  std::optional<ElfError> readRelocations(const ElfSection& s, uint64_t header) {
    bool rela = s.type == SHT_RELA;
    // sh_info names the section they apply to; SHF_INFO_LINK may be unset
    // in linked images' dynamic relocations, which the scan does not read.
    if (s.info == 0 || s.info >= obj_.sections.size()) {
      if (obj_.type != ET_REL) return std::nullopt;
      return fail(header, "relocation section " + s.name + " applies to no section (sh_info " + std::to_string(s.info) + ")");
    }
    Elf_Data* d = data(s);
    if (!d) return fail(s.offset, "relocation section " + s.name + " cannot be read: " + libelfError());
    size_t n = s.entsize ? s.size / s.entsize : 0;
    if (s.entsize == 0 || n * s.entsize != s.size)
      return fail(header, "relocation section " + s.name + " has a bad entry size");
    auto& out = obj_.relocations[s.info];
    out.reserve(out.size() + n);
    for (size_t k = 0; k < n; ++k) {
      ElfRelocation r;
      r.rela = rela;
      r.at = s.offset + k * s.entsize;
      if (rela) {
        GElf_Rela e;
        if (!gelf_getrela(d, int(k), &e)) return fail(r.at, "relocation " + std::to_string(k) + " of " + s.name + " cannot be read");
        r.offset = e.r_offset, r.info = e.r_info, r.addend = e.r_addend;
      } else {
        GElf_Rel e;
        if (!gelf_getrel(d, int(k), &e)) return fail(r.at, "relocation " + std::to_string(k) + " of " + s.name + " cannot be read");
        r.offset = e.r_offset, r.info = e.r_info;
      }
      out.push_back(r);
    }
    return std::nullopt;
  }
};

}  // namespace

std::variant<ElfObject, ElfError> parseElf(std::span<const uint8_t> bytes, const std::string& name) {
  return Reader(bytes, name).read();
}

std::variant<ElfObject, ElfError> readElf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ElfError{path, 0, "cannot read file"};
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  return parseElf(bytes, path);
}

}  // namespace patchcheck
