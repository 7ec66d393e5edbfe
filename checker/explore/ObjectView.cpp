#include "checker/explore/ObjectView.h"

#include <elf.h>

#include <algorithm>

#include "encoder/Hex.h"

namespace patchcheck {

ObjectView::ObjectView(const ElfObject& elf, const ObjectCode& code)
    : elf_(elf), code_(code), relocations_(elf.sections.size()), functions_(elf.sections.size()) {
  for (const ElfSymbol& s : elf_.symbols)
    if (s.type == STT_FUNC && s.section > 0 && s.section < elf_.sections.size()) functions_[s.section].push_back(&s);
  for (auto& fs : functions_)
    std::sort(fs.begin(), fs.end(), [](const ElfSymbol* a, const ElfSymbol* b) { return a->value < b->value; });
  for (size_t sec = 0; sec < elf_.sections.size(); ++sec) {
    auto& out = relocations_[sec];
    for (const ElfRelocation& r : elf_.relocations[sec]) {
      auto [symbol, type] = code_.relocationInfo(r.info, elf_.elf64, elf_.endian);
      if (symbol >= elf_.symbols.size()) {
        if (!problem_) problem_ = "offset " + hex(r.at) + ": relocation names symbol " + std::to_string(symbol) +
                                  ", past the symbol table's " + std::to_string(elf_.symbols.size());
        continue;
      }
      PlacedRelocation p;
      p.offset = elf_.relocatable() ? r.offset : r.offset - elf_.sections[sec].addr;
      p.fileOffset = r.at;
      p.relocation.type = type;
      p.relocation.addend = r.addend;
      p.relocation.rela = r.rela;
      const ElfSymbol& s = elf_.symbols[symbol];
      p.relocation.symbol = s.type == STT_SECTION && s.section < elf_.sections.size() ? elf_.sections[s.section].name : s.name;
      p.symbolPlace = placeOf(s);
      out.push_back(std::move(p));
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  }
}

const PlacedRelocation* ObjectView::relocationIn(unsigned section, uint64_t offset, unsigned bytes) const {
  const auto& rs = relocations_[section];
  auto it = std::lower_bound(rs.begin(), rs.end(), offset, [](const PlacedRelocation& r, uint64_t o) { return r.offset < o; });
  if (it != rs.end() && it->offset < offset + bytes) return &*it;
  return nullptr;
}

std::optional<Place> ObjectView::placeOfAddress(uint64_t address) const {
  for (const ElfSection& s : elf_.sections)
    if ((s.flags & SHF_ALLOC) && s.size && address >= s.addr && address - s.addr < s.size) return Place{s.index, address - s.addr};
  return std::nullopt;
}

std::optional<Place> ObjectView::placeOf(const ElfSymbol& s) const {
  if (s.section == SHN_UNDEF || s.section >= elf_.sections.size()) return std::nullopt;  // undefined, absolute, common
  if (elf_.relocatable()) return Place{s.section, s.value};
  return Place{s.section, s.value - elf_.sections[s.section].addr};
}

std::optional<std::span<const uint8_t>> ObjectView::bytesAt(const Place& p, unsigned bytes) const {
  if (p.section == 0 || p.section >= elf_.sections.size()) return std::nullopt;
  const ElfSection& s = elf_.sections[p.section];
  if (p.offset > s.bytes.size() || bytes > s.bytes.size() - p.offset) return std::nullopt;
  return std::span<const uint8_t>(s.bytes.data() + p.offset, bytes);
}

const ElfSymbol* ObjectView::functionAt(const Place& p) const {
  if (p.section >= functions_.size()) return nullptr;
  const auto& fs = functions_[p.section];
  auto it = std::upper_bound(fs.begin(), fs.end(), p, [this](const Place& q, const ElfSymbol* s) {
    return q.offset < placeOf(*s)->offset;
  });
  // Symbols may nest or overlap (aliases): look at the few that start last.
  for (int tries = 0; it != fs.begin() && tries < 4; ++tries) {
    const ElfSymbol* s = *--it;
    uint64_t start = placeOf(*s)->offset;
    if (p.offset - start < std::max<uint64_t>(s->size, 1)) return s;
  }
  return nullptr;
}

std::string ObjectView::name(const Place& p) const {
  if (const ElfSymbol* f = functionAt(p)) return f->name + "+" + hex(p.offset - placeOf(*f)->offset);
  if (p.section && p.section < elf_.sections.size()) return elf_.sections[p.section].name + "+" + hex(p.offset);
  return hex(p.offset);
}

uint64_t ObjectView::readSlot(const ElfSection& s, uint64_t offset, unsigned bytes) const {
  uint64_t v = 0;
  for (unsigned k = 0; k < bytes; ++k) {
    unsigned shift = elf_.endian == Endian::Big ? 8 * (bytes - 1 - k) : 8 * k;
    v |= uint64_t(s.bytes[offset + k]) << shift;
  }
  return v;
}

std::vector<TableEntry> ObjectView::tableEntries(const std::string& table) const {
  std::vector<TableEntry> out;
  // An object has one such section per SHF_LINK_ORDER target (.text,
  // .text.unlikely, .exit.text, ...).
  for (const ElfSection& s : elf_.sections)
    if (s.name == table && s.type != SHT_NOBITS) entries(table, s, 0, s.bytes.size(), out);
  return out;
}

std::vector<TableEntry> ObjectView::linkedTable() const {
  std::vector<TableEntry> out;
  // vmlinux keeps both tables between these symbols (include/asm-generic/
  // vmlinux.lds.h, MCOUNT_REC), where ftrace_init walks them.
  const ElfSymbol *start = nullptr, *stop = nullptr;
  for (const ElfSymbol& s : elf_.symbols) {
    if (s.name == "__start_mcount_loc") start = &s;
    if (s.name == "__stop_mcount_loc") stop = &s;
  }
  if (!start || !stop || elf_.relocatable()) return out;
  auto from = placeOf(*start), to = placeOf(*stop);
  if (!from || !to) return out;
  uint64_t end = to->section == from->section ? to->offset : elf_.sections[from->section].size;
  const ElfSection& s = elf_.sections[from->section];
  entries("__mcount_loc", s, from->offset, std::min<uint64_t>(end, s.bytes.size()), out);
  return out;
}

void ObjectView::entries(const std::string& table, const ElfSection& s, uint64_t from, uint64_t to,
                         std::vector<TableEntry>& out) const {
  unsigned slot = elf_.elf64 ? 8 : 4;  // each entry is an unsigned long
  for (uint64_t off = from; off + slot <= to; off += slot) {
    TableEntry e;
    e.table = table;
    e.index = unsigned(out.size());
    e.raw = readSlot(s, off, slot);
    if (elf_.relocatable()) {
      const PlacedRelocation* r = relocationIn(s.index, off, slot);
      if (!r || r->offset != off) {
        e.problem = e.raw == 0 ? "is zero (no relocation): the kernel finds no site there"
                               : "holds " + hex(e.raw) + " without a relocation in an unlinked object";
      } else if (!r->symbolPlace) {
        e.problem = "points at " + r->relocation.symbol + ", which the object does not define";
      } else {
        // RELA: the entry's addend; REL: the slot's contents.
        uint64_t addend = r->relocation.rela ? uint64_t(r->relocation.addend) : e.raw;
        e.place = Place{r->symbolPlace->section, r->symbolPlace->offset + addend};
      }
    } else if (e.raw == 0) {
      e.problem = "is zero: the kernel finds no site there";
    } else if (auto p = placeOfAddress(e.raw)) {
      e.place = p;
    } else {
      e.problem = "points at " + hex(e.raw) + ", outside every section";
    }
    out.push_back(std::move(e));
  }
}

std::vector<TableEntry> ObjectView::mcountCalls() const {
  std::vector<TableEntry> out;
  for (const ElfSection& s : elf_.sections) {
    if (!s.executable()) continue;
    for (const PlacedRelocation& r : relocations_[s.index])
      if (auto at = code_.mcountRecord(r.relocation, r.offset)) {
        TableEntry e;
        e.table = "recordmcount";
        e.index = unsigned(out.size());
        e.place = Place{s.index, *at};
        out.push_back(std::move(e));
      }
  }
  return out;
}

}  // namespace patchcheck
