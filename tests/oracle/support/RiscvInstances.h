#pragma once
// Random instances of every row of the RISC-V table (encoder/riscv/
// InstructionTable.h) and of the pseudo-instructions GNU as expands (li,
// la, lla, call, tail, jump, %hi/%lo and %pcrel_hi/%pcrel_lo pairs), in
// batches for one variant at one base address, with the binutils tools
// that assemble, link and print them. Shared by oracle.gnu_as_diff and
// oracle.llvm_mc_vote.
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "encoder/riscv/InstructionTable.h"
#include "tests/oracle/support/Tools.h"

namespace patchcheck::oracle {

struct RiscvTools {
  std::string as, ld, objdump, objcopy;
};
// binutils-riscv64-linux-gnu's tools, or a runtime_error naming the package.
RiscvTools requireRiscvTools();

struct RiscvVariant {
  std::string name;  // rv64imac, ...
  unsigned xlen;
  bool rvc;
  bool fd = false;   // F and D
  std::string march() const { return name + "_zicsr_zifencei"; }
  std::string mabi() const { return xlen == 64 ? "lp64" : "ilp32"; }
};
const std::vector<RiscvVariant>& riscvVariants();

struct RiscvInstance {
  const riscv::Row* row = nullptr;  // nullptr: a pseudo-instruction or directive line
  std::string text;
};

struct RiscvBatch {
  RiscvVariant variant;
  uint64_t base = 0;
  std::vector<RiscvInstance> lines;
  std::string source() const;  // one line per instance
};

// `perRow` instances of every row the variant has, then the pseudo-
// instruction lines, shuffled; branch targets are `.+N` inside the batch.
RiscvBatch makeRiscvBatch(const RiscvVariant&, uint64_t base, unsigned perRow, std::mt19937_64&);

// The symbols a batch names, at addresses the encodings reach from `base`.
std::map<std::string, uint64_t> riscvSymbols(const RiscvVariant&, uint64_t base);

// GNU ld --no-relax at `base` with the symbols defined: the .text bytes.
std::string riscvLinkedText(const RiscvTools&, const RiscvVariant&, const std::string& object, uint64_t base,
                            const TempDir& dir);

// address -> objdump -d's text of the instruction there, without its
// `<symbol>` and `# comment`, spacing collapsed; and the encodings.
struct DumpedInstruction {
  uint32_t bits = 0;
  unsigned bytes = 0;
  std::string text;
};
std::map<uint64_t, DumpedInstruction> parseRiscvObjdump(const std::string& out);

// Our printer's text made comparable with objdump's: a branch target
// loses its 0x (objdump prints the address bare), spacing collapsed.
std::string comparableText(const std::string& ours);

}  // namespace patchcheck::oracle
