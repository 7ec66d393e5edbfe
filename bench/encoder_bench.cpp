// Assembled and disassembled instructions per second, single core.
#include <chrono>
#include <cstdio>
#include <string>

#include "encoder/Assembler.h"
#include "encoder/Decoder.h"
#include "encoder/Printer.h"

namespace patchcheck::bench {

void encoder() {
  using namespace mips;
  using clock = std::chrono::steady_clock;
  Target t{Isa::Mips64R2, Endian::Big, Abi::N64};
  const char* lines[] = {"daddiu sp, sp, -32", "sd ra, 24(sp)", "lui at, 0x8012",
                         "jalr t1, at", "li t0, 1", "move a0, ra", "beq a0, a1, 1f",
                         "dsll32 v0, v1, 3", "1: nop", "sync"};
  std::string program;
  const int copies = 2000;
  for (int i = 0; i < copies; ++i)
    for (const char* l : lines) program += std::string(l) + "\n";
  AssemblyOptions o;
  o.target = t;
  auto t0 = clock::now();
  auto a = assemble(program, "bench.s", o);
  double asmSeconds = std::chrono::duration<double>(clock::now() - t0).count();
  size_t n = std::get<Assembly>(a).words.size();
  std::printf("assemble:    %10.0f instructions/s (%zu in %.3f s)\n", n / asmSeconds, n, asmSeconds);

  size_t chars = 0, decoded = 0;
  t0 = clock::now();
  uint32_t w = 0x9e3779b9;
  const size_t count = 1000000;
  for (size_t i = 0; i < count; ++i) {
    w = w * 1664525u + 1013904223u;
    chars += disassemble(w, 0x80000000, t).size();
    decoded += decode(w, t.isa) != nullptr;
  }
  double disSeconds = std::chrono::duration<double>(clock::now() - t0).count();
  std::printf("disassemble: %10.0f words/s (%zu random words, %zu valid, %.3f s, %zu chars)\n",
              count / disSeconds, count, decoded, disSeconds, chars);
}

}  // namespace patchcheck::bench
