#pragma once
// An ELF object seen the way the scan needs it (docs/scan.md): places as
// (section, offset) whether the file is relocatable (sites are section
// offsets, fields are relocations) or linked (sites are addresses), the
// function containing a place, a section's relocations by offset with
// their symbol and type split by the ISA plug-in, and the table entries of
// __patchable_function_entries and __mcount_loc resolved to places.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/spec/ElfObject.h"
#include "encoder/ObjectCode.h"

namespace patchcheck {

struct Place {
  unsigned section = 0;  // 0: none
  uint64_t offset = 0;   // from the section's start
  bool operator==(const Place&) const = default;
  auto operator<=>(const Place&) const = default;
};

// A relocation with its symbol resolved and its type split.
struct PlacedRelocation {
  uint64_t offset = 0;  // in its section
  ObjectRelocation relocation;
  std::optional<Place> symbolPlace;  // a defined symbol's place (a section symbol: its section's start)
  uint64_t fileOffset = 0;
};

// One entry of a site table.
struct TableEntry {
  std::string table;   // "__patchable_function_entries", "__mcount_loc", "recordmcount"
  unsigned index = 0;  // the entry's number in its table
  uint64_t raw = 0;    // what the slot holds (a linked image's address; an object's in-place addend)
  std::optional<Place> place;   // where it points; nothing when zero or outside every section
  std::string problem;          // why the entry cannot be placed, if so
};

class ObjectView {
 public:
  ObjectView(const ElfObject&, const ObjectCode&);

  const ElfObject& elf() const { return elf_; }
  const ObjectCode& code() const { return code_; }
  // The relocations of a section, sorted by offset; an error names the
  // first whose symbol index lies outside the symbol table.
  const std::vector<PlacedRelocation>& relocations(unsigned section) const { return relocations_[section]; }
  std::optional<std::string> problem() const { return problem_; }
  // The relocation whose r_offset lies in [offset, offset + bytes), if any.
  const PlacedRelocation* relocationIn(unsigned section, uint64_t offset, unsigned bytes) const;

  std::optional<Place> placeOfAddress(uint64_t address) const;  // linked images
  uint64_t addressOf(const Place& p) const { return elf_.sections[p.section].addr + p.offset; }
  // `bytes` bytes of code at a place, if the section has them.
  std::optional<std::span<const uint8_t>> bytesAt(const Place&, unsigned bytes) const;
  // The function symbol whose [value, value + size) holds the place.
  const ElfSymbol* functionAt(const Place&) const;
  std::optional<Place> placeOf(const ElfSymbol&) const;
  // "func+0x1c", or "section+0x1c" when no function holds it.
  std::string name(const Place&) const;

  // The entries of every section named `table` (nothing if the object has none).
  std::vector<TableEntry> tableEntries(const std::string& table) const;
  // A linked image's entries between __start_mcount_loc and __stop_mcount_loc.
  std::vector<TableEntry> linkedTable() const;
  // recordmcount's entries, for an object that has no __mcount_loc yet.
  std::vector<TableEntry> mcountCalls() const;

 private:
  const ElfObject& elf_;
  const ObjectCode& code_;
  std::vector<std::vector<PlacedRelocation>> relocations_;
  std::vector<std::vector<const ElfSymbol*>> functions_;  // by section, sorted by value
  std::optional<std::string> problem_;
  uint64_t readSlot(const ElfSection&, uint64_t offset, unsigned bytes) const;
  void entries(const std::string& table, const ElfSection&, uint64_t from, uint64_t to, std::vector<TableEntry>&) const;
};

}  // namespace patchcheck
