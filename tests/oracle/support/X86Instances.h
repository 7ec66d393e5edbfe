#pragma once
// Random instances of every row of the x86-64 table, for the differential
// tests against GNU as / objdump and llvm-mc: random registers of every
// width, operand sizes with and without suffixes, immediates at the
// boundaries of their fields, memory operands with base, index, scale and
// displacement (%rsp, %rbp, %r12 and %r13 bases, index-only, absolute,
// %rip-relative to numbers and labels, %gs:), branches to labels near and
// far (every line i is the label L<i>), numeric local labels, external symbols, and
// .p2align among them. Each line of a batch is one instance.
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "encoder/x86_64/InstructionTable.h"
#include "tests/oracle/support/Tools.h"

namespace patchcheck::oracle {

struct X86Instance {
  std::string text;                        // one statement, with its label
  const x86_64::InstrDesc* row = nullptr;  // nullptr: an alignment
};

struct X86Batch {
  uint64_t base = 0;  // address of line 0 (where the linker puts .text)
  std::vector<X86Instance> lines;
  std::string source() const;  // one line per instance
};

// Symbols outside the batch that instances call, jump to and load from,
// with the addresses ld --defsym and our assembler give them.
const std::map<std::string, uint64_t>& x86ExternalSymbols(uint64_t base);

// `count` instances, every row of the table at least `perRow` times.
// `alignments`: mix .p2align lines in (llvm-mc pads differently).
X86Batch makeX86Batch(uint64_t base, size_t count, unsigned perRow, bool alignments, std::mt19937_64&);

// The statements of a file (one a line, `#` comments and blank lines left
// out), each made the line L<i> of a batch.
X86Batch readX86Batch(const std::string& path, uint64_t base);

// GNU as, ld, objcopy, objdump for x86-64 (throws naming the Debian
// package when one is missing).
struct X86Tools {
  std::string as, ld, objcopy, objdump, nm;
};
X86Tools requireX86Tools();

// Links `object` at `base` (with the external symbols) into dir/out.elf
// and returns its .text; throws when ld or objcopy fails.
std::string linkedText(const X86Tools&, const std::string& object, uint64_t base, const TempDir& dir);

// Where each line L<i> of a batch of `lines` lies in the linked `elf` (its
// symbol table, through nm); the last entry is left 0 for the caller.
std::vector<uint64_t> lineAddresses(const X86Tools&, const std::string& elf, size_t lines);

// GNU as complaints by 0-based line: "Error: ..." / "Warning: ...".
std::vector<std::string> x86GasComplaints(const std::string& stderrText, size_t lines);

}  // namespace patchcheck::oracle
