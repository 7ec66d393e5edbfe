#include "checker/spec/ObjectSymbol.h"

#include <elf.h>

#include <algorithm>

#include "checker/spec/ElfObject.h"
#include "encoder/Hex.h"

namespace patchcheck {

std::string ObjectSymbolCode::relocationText() const {
  std::string out;
  for (const Reloc& r : relocations)
    out += hex(r.offset) + " " + code->relocationName(r.relocation.type) + " " +
           symbolPlus(r.inside ? "." : r.relocation.symbol, r.relocation.addend) + (r.relocation.rela ? "" : " rel") + "\n";
  return out;
}

std::variant<ObjectSymbolCode, Diagnostic> readObjectSymbol(const std::string& object, const std::string& symbol,
                                                            const SourceLocation& reference) {
  auto read = readElf(object);
  if (auto* e = std::get_if<ElfError>(&read)) return Diagnostic{{e->file, 0, 0}, "offset " + hex(e->offset) + ": " + e->message};
  const ElfObject& elf = std::get<ElfObject>(read);
  auto fail = [&](uint64_t offset, const std::string& m) { return Diagnostic{{object, 0, 0}, "offset " + hex(offset) + ": " + m}; };
  ObjectSymbolCode out;
  out.object = object, out.symbol = symbol, out.machine = elf.machine, out.elf64 = elf.elf64, out.endian = elf.endian;
  out.code = objectCodeForMachine(elf.machine);
  if (!out.code) return fail(0x12, "ELF machine " + std::to_string(elf.machine) + " has no ISA plug-in");
  if (!elf.relocatable())
    return fail(0x10, "a linked image (e_type " + std::to_string(elf.type) +
                          "): trampolines are read from relocatable objects (.o, .ko), whose fields are relocations");
  const ElfSection* symtab = nullptr;
  for (const ElfSection& s : elf.sections)
    if (s.type == SHT_SYMTAB) symtab = &s;
  size_t index = 0;
  for (size_t k = 1; k < elf.symbols.size() && !index; ++k)
    if (elf.symbols[k].name == symbol && elf.symbols[k].type != STT_SECTION) index = k;
  if (!index || !symtab) return Diagnostic{reference, object + " has no symbol '" + symbol + "' in its symbol table"};
  const ElfSymbol& sym = elf.symbols[index];
  uint64_t entry = symtab->offset + index * symtab->entsize;
  if (sym.section == SHN_UNDEF || sym.section >= elf.sections.size())
    return fail(entry, "symbol '" + symbol + "' is not defined in a section of this object");
  const ElfSection& sec = elf.sections[sym.section];
  if (!sec.executable() || sec.type == SHT_NOBITS)
    return fail(entry, "symbol '" + symbol + "' lies in " + sec.name + ", which is not text");
  if (sym.size == 0)
    return fail(entry, "symbol '" + symbol + "' has size 0 (st_size): write `.size " + symbol +
                           ", . - " + symbol + "` after its code");
  if (sym.value > sec.bytes.size() || sym.size > sec.bytes.size() - sym.value)
    return fail(entry, "symbol '" + symbol + "' runs past the end of " + sec.name);
  out.fileOffset = sec.offset + sym.value;
  out.bytes.assign(sec.bytes.begin() + sym.value, sec.bytes.begin() + sym.value + sym.size);
  for (const ElfRelocation& r : elf.relocationsOf(sym.section)) {
    if (r.offset < sym.value || r.offset >= sym.value + sym.size) continue;
    auto [target, type] = out.code->relocationInfo(r.info, elf.elf64, elf.endian);
    if (target >= elf.symbols.size())
      return fail(r.at, "relocation names symbol " + std::to_string(target) + ", past the symbol table's " +
                            std::to_string(elf.symbols.size()));
    const ElfSymbol& t = elf.symbols[target];
    ObjectSymbolCode::Reloc p;
    p.offset = r.offset - sym.value, p.fileOffset = r.at;
    p.relocation.type = type, p.relocation.addend = r.addend, p.relocation.rela = r.rela;
    p.relocation.symbol = t.type == STT_SECTION && t.section < elf.sections.size() ? elf.sections[t.section].name : t.name;
    // A place in the same code (a local label the assembler left to the
    // linker, a section symbol plus an offset) counts from the code's
    // start, which the proof places; REL keeps the addend in the field,
    // which is not rewritten, so only RELA can be moved so.
    if (t.section == sym.section && t.value >= sym.value && t.value <= sym.value + sym.size) {
      if (!r.rela) return fail(r.at, "a REL relocation against a place inside '" + symbol + "' itself");
      p.inside = true;
      p.relocation.addend += int64_t(t.value - sym.value);
    }
    out.relocations.push_back(std::move(p));
  }
  std::stable_sort(out.relocations.begin(), out.relocations.end(),
                   [](const auto& a, const auto& b) { return a.offset < b.offset; });
  return out;
}

}  // namespace patchcheck
