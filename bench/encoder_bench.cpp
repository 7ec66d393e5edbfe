// MIPS: assembled and disassembled instructions per second on one core
// (bench/Measure.h says how).
#include <cstdio>
#include <string>

#include "bench/Measure.h"
#include "encoder/mips/Assembler.h"
#include "encoder/mips/Decoder.h"
#include "encoder/mips/Printer.h"

namespace patchcheck::bench {

void encoder() {
  using namespace mips;
  using mips::Target;
  using mips::Isa;
  Target t{Isa::Mips64R2, Endian::Big, Abi::N64};
  // A trampoline-like mix: ALU, memory, li, move, jalr, branches to a
  // numeric local label, shifts, barriers.
  const char* lines[] = {"daddiu sp, sp, -32", "sd ra, 24(sp)", "lui at, 0x8012",
                         "jalr t1, at", "li t0, 1", "move a0, ra", "beq a0, a1, 1f",
                         "dsll32 v0, v1, 3", "1: nop", "sync"};
  std::string program;
  const int copies = 2000;
  for (int i = 0; i < copies; ++i)
    for (const char* l : lines) program += std::string(l) + "\n";
  AssemblyOptions o;
  o.target = t;
  size_t words = 0;
  Rate a = measure([&] {
    auto r = assemble(program, "bench.s", o);
    words = std::get<Assembly>(r).words.size();
    return words;
  });
  std::printf("assemble:    %10.0f instructions/s per core (%.0f/s wall; %zu-line file)\n",
              a.perCpuSecond, a.perWallSecond, words);

  uint32_t w = 0x9e3779b9;
  size_t chars = 0, valid = 0, seen = 0;
  Rate d = measure([&] {
    const size_t batch = 100000;
    for (size_t i = 0; i < batch; ++i) {
      w = w * 1664525u + 1013904223u;
      chars += disassemble(w, 0x80000000, t).size();
      valid += decode(w, t.isa) != nullptr;
    }
    seen += batch;
    return batch;
  });
  std::printf("disassemble: %10.0f words/s per core (%.0f/s wall; random words, %.0f%% valid, "
              "%.1f chars each)\n",
              d.perCpuSecond, d.perWallSecond, 100.0 * double(valid) / double(seen),
              double(chars) / double(seen));
}

}  // namespace patchcheck::bench
