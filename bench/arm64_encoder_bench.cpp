// arm64: assembled and disassembled instructions per second on one core
// (bench/Measure.h says how). Issue 12 asks for at least 1M/s per core.
#include <cstdio>
#include <string>
#include <variant>

#include "bench/Measure.h"
#include "encoder/arm64/Assembler.h"
#include "encoder/arm64/Decoder.h"
#include "encoder/arm64/Printer.h"

namespace patchcheck::bench {

void arm64Encoder() {
  // An ftrace_caller-like mix: landing pad, frame, literal loads through
  // the CALL_OPS pointer, a direct-call test, an indirect call, flags,
  // a conditional branch back to a numeric local label, barriers.
  const char* lines[] = {"bti c", "1: mov x9, x30", "stp x29, x30, [sp, #-16]!", "mov x29, sp",
                         "bic x11, x30, #7", "ldr x11, [x11, #-16]", "ldr x17, [x11, #8]", "cbnz x17, 2f",
                         "ldr x4, [x11, #16]", "blr x4", "2: ldp x29, x30, [sp], #16", "add x0, x1, #0x10",
                         "cmp x0, x2", "b.ne 1b", "isb", "ret"};
  std::string program;
  const int copies = 1000;
  for (int i = 0; i < copies; ++i)
    for (const char* l : lines) program += std::string(l) + "\n";
  arm64::AssemblyOptions o;
  o.base = Value::constant(int64_t(0xffff800080100000ull));
  size_t units = 0;
  Rate a = measure([&] {
    auto r = arm64::assemble(program, "bench.s", o);
    units = std::get<arm64::Assembly>(r).units.size();
    return units;
  });
  std::printf("arm64 assemble:    %10.0f instructions/s per core (%.0f/s wall; %zu-line file)%s\n",
              a.perCpuSecond, a.perWallSecond, units, a.perCpuSecond < 1e6 ? "  BELOW 1M/s" : "");

  // The words just assembled: every one has a row.
  auto assembled = std::get<arm64::Assembly>(arm64::assemble(program, "bench.s", o));
  size_t mixChars = 0;
  Rate m = measure([&] {
    for (const arm64::AssembledUnit& u : assembled.units)
      mixChars += arm64::disassemble(uint32_t(u.bits), uint64_t(u.address.addend)).size();
    return assembled.units.size();
  });
  std::printf("arm64 disassemble: %10.0f instructions/s per core (%.0f/s wall; the assembled mix)%s\n",
              m.perCpuSecond, m.perWallSecond, m.perCpuSecond < 1e6 ? "  BELOW 1M/s" : "");

  uint32_t w = 0x9e3779b9;
  size_t chars = 0, valid = 0, seen = 0;
  Rate d = measure([&] {
    const size_t batch = 100000;
    for (size_t i = 0; i < batch; ++i) {
      w = w * 1664525u + 1013904223u;
      chars += arm64::disassemble(w, 0xffff800080100000ull + 4 * i).size();
      valid += arm64::decode(w) != nullptr;
    }
    seen += batch;
    return batch;
  });
  std::printf("arm64 disassemble: %10.0f words/s per core (%.0f/s wall; random words, %.0f%% with a row, "
              "%.1f chars each)%s\n",
              d.perCpuSecond, d.perWallSecond, 100.0 * double(valid) / double(seen), double(chars) / double(seen),
              d.perCpuSecond < 1e6 ? "  BELOW 1M/s" : "");
}

}  // namespace patchcheck::bench
