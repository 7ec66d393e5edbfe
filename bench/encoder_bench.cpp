// Assembled and disassembled instructions per second on one core. Rates are
// per second of this thread's CPU time (the machine is shared, so wall time
// says more about the neighbours than about us); wall time is shown too.
// Each figure is the best of several runs of at least 0.2 s of CPU time.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

#include "encoder/mips/Assembler.h"
#include "encoder/mips/Decoder.h"
#include "encoder/mips/Printer.h"

namespace patchcheck::bench {
namespace {

double cpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

struct Rate {
  double perCpuSecond = 0, perWallSecond = 0;
};

// Runs `work` (returning how many items it did) until 0.2 s of CPU time has
// passed, five times; keeps the best rate.
template <class Work>
Rate measure(Work work) {
  using clock = std::chrono::steady_clock;
  Rate best;
  for (int round = 0; round < 5; ++round) {
    double c0 = cpuSeconds();
    auto w0 = clock::now();
    size_t items = 0;
    while (cpuSeconds() - c0 < 0.2) items += work();
    double cpu = cpuSeconds() - c0;
    double wall = std::chrono::duration<double>(clock::now() - w0).count();
    if (items / cpu > best.perCpuSecond) best = {items / cpu, items / wall};
  }
  return best;
}

}  // namespace

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
