// The ELF reader on any bytes (truncated, corrupted objects): it gives an
// ElfObject or an ElfError naming the input and an offset inside it, never
// a crash. A file it reads is then walked as the scan walks it for its
// machine's plug-in: table entries, recordmcount's calls, function names.
#include <cstddef>
#include <cstdint>

#include "checker/explore/ObjectView.h"
#include "checker/spec/ElfObject.h"
#include "tests/fuzz/FuzzProperty.h"

using namespace patchcheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto r = parseElf(std::span<const uint8_t>(data, size), "fuzz.o");
  if (auto* e = std::get_if<ElfError>(&r)) {
    fuzz::require(e->file == "fuzz.o", "an error names the input", e->str());
    fuzz::require(!e->message.empty(), "an error says what is wrong", e->str());
    fuzz::require(e->offset <= size || size == 0, "an error's offset lies in the file", e->str());
    return 0;
  }
  const ElfObject& elf = std::get<ElfObject>(r);
  fuzz::require(!elf.sections.empty(), "a read object has its null section");
  for (const ElfSection& s : elf.sections)
    fuzz::require(s.bytes.size() <= size, "a section's bytes come from the file", s.name);
  if (const ObjectCode* code = objectCodeForMachine(elf.machine)) {
    ObjectView view(elf, *code);
    if (view.problem()) return 0;
    for (const char* t : {"__patchable_function_entries", "__mcount_loc"})
      for (const TableEntry& e : view.tableEntries(t))
        if (e.place) (void)view.name(*e.place);
    for (const TableEntry& e : view.mcountCalls()) (void)view.name(*e.place);
  }
  return 0;
}
