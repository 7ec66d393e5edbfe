// The ELF reader and the scan's view of an object (checker/spec/ElfObject.h,
// checker/explore/ObjectView.h) on the fuzz seeds: objects GCC compiled for
// each ISA with ftrace flags, ELF32 and ELF64, both byte orders, REL and
// RELA, and files cut short or with tables pointing past their end.
#include <catch2/catch.hpp>

#include <elf.h>

#include "checker/explore/ObjectView.h"
#include "checker/spec/ElfObject.h"

using namespace patchcheck;

namespace {

std::string seed(const std::string& name) {
  return std::string(PATCHCHECK_SOURCE_DIR) + "/tests/fuzz/corpus/elf_reader/" + name;
}

ElfObject read(const std::string& name) {
  auto r = readElf(seed(name));
  if (auto* e = std::get_if<ElfError>(&r)) FAIL(e->str());
  return std::get<ElfObject>(std::move(r));
}

}  // namespace

TEST_CASE("ELF64 little-endian RELA: arm64 patchable entries", "[elf_object]") {
  ElfObject o = read("arm64-call-ops.o");
  CHECK(o.elf64);
  CHECK(o.endian == Endian::Little);
  CHECK(o.machine == EM_AARCH64);
  CHECK(o.relocatable());
  ObjectView v(o, *objectCodeForMachine(o.machine));
  REQUIRE_FALSE(v.problem());
  auto entries = v.tableEntries("__patchable_function_entries");
  REQUIRE(entries.size() == 2);  // f and h
  for (const TableEntry& e : entries) {
    REQUIRE(e.place);
    CHECK(o.sections[e.place->section].name == ".text");
  }
  // The entry is the first pre-function NOP, 8 bytes before the function.
  CHECK(v.name(Place{entries[0].place->section, entries[0].place->offset + 8}) == "f+0x0");
}

TEST_CASE("ELF32 big-endian REL: MIPS -pg calls as recordmcount finds them", "[elf_object]") {
  ElfObject o = read("mips32-mcount.o");
  CHECK_FALSE(o.elf64);
  CHECK(o.endian == Endian::Big);
  ObjectView v(o, *objectCodeForMachine(o.machine));
  REQUIRE_FALSE(v.problem());
  auto calls = v.mcountCalls();
  REQUIRE(calls.size() == 2);
  CHECK(v.name(*calls[0].place) == "f+0x4");  // move at, ra; jal _mcount
}

TEST_CASE("MIPS64 r_info in both byte orders: type and symbol where the ABI packs them", "[elf_object]") {
  for (const char* name : {"mips64-long-calls.o", "mips64el-long-calls.o"}) {
    INFO(name);
    ElfObject o = read(name);
    CHECK(o.elf64);
    ObjectView v(o, *objectCodeForMachine(o.machine));
    REQUIRE_FALSE(v.problem());
    const ElfSection* text = o.section(".text");
    REQUIRE(text);
    const auto& rs = v.relocations(text->index);
    REQUIRE_FALSE(rs.empty());
    CHECK(rs[0].relocation.type == 29);  // R_MIPS_HIGHEST
    CHECK(rs[0].relocation.symbol == "_mcount");
    CHECK(v.mcountCalls().size() == 2);  // each function's R_MIPS_HI16 to _mcount
  }
}

TEST_CASE("ELF64 x86-64: __mcount_loc entries at the calls", "[elf_object]") {
  ElfObject o = read("x86-fentry.o");
  ObjectView v(o, *objectCodeForMachine(o.machine));
  auto entries = v.tableEntries("__mcount_loc");
  REQUIRE(entries.size() == 2);
  CHECK(v.name(*entries[0].place) == "f+0x0");
}

TEST_CASE("a malformed ELF file is an error naming the file and an offset", "[elf_object]") {
  for (const char* name : {"x86-truncated.o", "mips32-bad-shoff.o", "arm64-bad-section-offset.o"}) {
    INFO(name);
    auto r = readElf(seed(name));
    auto* e = std::get_if<ElfError>(&r);
    REQUIRE(e);
    CHECK(e->file == seed(name));
    CHECK_FALSE(e->message.empty());
    CHECK(e->str().find(": error: offset 0x") != std::string::npos);
  }
  auto r = parseElf(std::span<const uint8_t>(), "empty.o");
  REQUIRE(std::holds_alternative<ElfError>(r));
  CHECK(std::get<ElfError>(r).str() == "empty.o: error: offset 0x0: not an ELF file (no \\x7fELF magic)");
}

TEST_CASE("ELF64 RISC-V with RVC: patchable entries, relaxation's padding, rec->ip", "[elf_object]") {
  // tests/data/scan/functions.c by riscv64-linux-gnu-gcc 12 with -march=rv64imac
  // -fpatchable-function-entry=8,4 -falign-functions=8 (tests/scan/riscv_objects.sh).
  ElfObject o = read("riscv64-call-ops.o");
  CHECK(o.elf64);
  CHECK(o.machine == 243);  // EM_RISCV
  CHECK((o.flags & 1) == 1);  // EF_RISCV_RVC
  const ObjectCode* code = objectCodeForMachine(o.machine);
  REQUIRE(code);
  CHECK(code->family() == "riscv");
  CHECK(code->relocationName(43) == "R_RISCV_ALIGN");
  CHECK(code->relocationName(51) == "R_RISCV_RELAX");
  ObjectView v(o, *code);
  REQUIRE_FALSE(v.problem());
  auto entries = v.tableEntries("__patchable_function_entries");
  REQUIRE(entries.size() == 3);
  REQUIRE(entries[0].place);
  // The first entry is the literal's slot after the section's 6 bytes of
  // padding; rec->ip is 12 bytes on (ftrace_call_adjust with CALL_OPS).
  CHECK(entries[0].place->offset == 6);
  CodeAt none = [](uint64_t, unsigned) { return std::optional<std::span<const uint8_t>>(); };
  CHECK(code->ftraceCallAdjust(6, 8, none) == std::optional<uint64_t>(18));
  CHECK(code->ftraceCallAdjust(6, 0, none) == std::optional<uint64_t>(10));
  CHECK_FALSE(code->ftraceCallAdjust(6, 4, none));
  // That padding is an R_RISCV_ALIGN of 6 bytes: 8-byte alignment after it.
  const ElfSection* text = o.section(".text");
  REQUIRE(text);
  const auto& rs = v.relocations(text->index);
  REQUIRE_FALSE(rs.empty());
  CHECK(rs[0].offset == 0);
  auto edit = code->linkerEdit(rs[0].relocation, nullptr);
  REQUIRE(edit);
  CHECK(edit->bytes == 6);
  CHECK(edit->aligns == 8);
  // R_RISCV_RELAX after a call's relocation covers the auipc + jalr; after
  // any other, one instruction.
  ObjectRelocation relax{51, "", 0, true, 0}, call{19, "f", 0, true, 0}, hi{26, "g", 0, true, 0};
  CHECK(code->linkerEdit(relax, &call)->bytes == 8);
  CHECK(code->linkerEdit(relax, &hi)->bytes == 4);
  CHECK_FALSE(code->linkerEdit(call, nullptr));
  // A padding no assembler writes aligns nothing.
  ObjectRelocation bogus{43, "", -2, true, 0};
  CHECK(code->linkerEdit(bogus, nullptr)->aligns == 0);
}
