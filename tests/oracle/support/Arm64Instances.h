#pragma once
// Random instances of every row of the A64 table, for the differential
// tests against GNU as and objdump. An instance starts from random field
// values that the row accepts (and decodes back to the row), printed by
// our printer; pc-relative targets become `.+N` so that GNU as resolves
// them in the section; an assembler-only row is spelled its own way.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "encoder/arm64/InstructionTable.h"
#include "tests/oracle/support/Tools.h"

namespace patchcheck::oracle {

struct Arm64Instance {
  std::string text;                        // one statement
  const arm64::InstrDesc* row = nullptr;   // the row it exercises
  uint32_t word = 0;                       // the fields it was made from (decodable rows)
};

struct Arm64Batch {
  uint64_t base = 0;  // address of line 0 (where the linker puts .text)
  std::vector<Arm64Instance> lines;
  uint64_t address(size_t line) const { return base + 4 * line; }
  std::string source() const;  // one line per instance
};

// `perRow` instances of every row, shuffled.
Arm64Batch makeArm64Batch(uint64_t base, unsigned perRow, std::mt19937_64&);

// The tools: GNU as, ld, objcopy, objdump for aarch64 (throws naming the
// Debian package when one is missing).
struct Arm64Tools {
  std::string as, ld, objcopy, objdump;
};
Arm64Tools requireArm64Tools();

// Links `object` at `base` into dir/out.elf with GNU ld and returns the
// words of its .text (instructions are little-endian); throws when ld or
// objcopy fails.
std::vector<uint32_t> linkedWords(const Arm64Tools&, const std::string& object, uint64_t base, const TempDir& dir);

// GNU as complaints by 0-based line: "Error: ..." / "Warning: ...".
std::vector<std::string> gasComplaints(const std::string& stderrText, size_t lines);

}  // namespace patchcheck::oracle
