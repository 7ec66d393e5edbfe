// The x86-64 decoder on random bytes: the first byte picks the address,
// the rest (up to 15) are one instruction's worth of bytes. Checked:
// - the length as the explorer asks for it, one byte more at a time
//   (PassExplorer::fetchBytes): every shorter prefix of an instruction
//   needs more, and the first answer that is not "need more" is the one
//   all the bytes give. A prefix judged invalid too early would make a
//   torn fetch raise #UD where the CPU decodes a longer instruction;
// - the printer prints every decoded instruction, and once the assembler
//   has taken a text back, printing and assembling its bytes again changes
//   nothing (the first encoding may differ: GNU as picks its own among
//   equivalent ones).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "encoder/x86_64/Assembler.h"
#include "encoder/x86_64/Length.h"
#include "encoder/x86_64/Printer.h"
#include "tests/fuzz/FuzzProperty.h"

using namespace patchcheck;
using namespace patchcheck::x86_64;

namespace {

using Length = IsaPlugin::Length;

Length lengthOf(const uint8_t* p, size_t n) {
  static const bool concrete[16] = {};
  return instructionLength(std::span<const uint8_t>(p, n), std::span<const bool>(concrete, n));
}

std::string hex(const uint8_t* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) s += std::string(i ? " " : "") + digits[p[i] >> 4] + digits[p[i] & 15];
  return s;
}

// Branch targets print as objdump prints them (absolute, no 0x): not
// assembler input.
bool printsTarget(const std::string& text) {
  return text.rfind("j", 0) == 0 || text.rfind("call", 0) == 0 || text.rfind("loop", 0) == 0 ||
         text.rfind("xbegin", 0) == 0 || text.find("(bad)") != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint64_t bases[] = {0x1000, 0xffffffff81000000ull, 0xffffffffa0000ff0ull, 0x7ffffffffff0ull};
  uint64_t address = bases[data[0] & 3];
  const uint8_t* bytes = data + 1;
  size_t n = std::min<size_t>(size - 1, 15);

  Length whole = lengthOf(bytes, n);
  fuzz::require(whole.kind != Length::PlacementDependent, "concrete bytes never depend on the placement", hex(bytes, n));
  Length first{Length::NeedMore, 0};
  size_t k = 1;
  for (; k <= n; ++k) {
    first = lengthOf(bytes, k);
    if (first.kind != Length::NeedMore) break;
  }
  if (first.kind == Length::NeedMore) {
    fuzz::require(whole.kind == Length::NeedMore && n < 15, "15 bytes always decide", hex(bytes, n));
    return 0;
  }
  fuzz::require(first.kind == whole.kind, "byte by byte and all at once agree on validity", hex(bytes, n));
  if (first.kind != Length::Known) return 0;
  fuzz::require(first.bytes == k && whole.bytes == k, "a length is known exactly when its last byte arrives",
                hex(bytes, n) + ": at " + std::to_string(k) + ", lengths " + std::to_string(first.bytes) + " / " +
                    std::to_string(whole.bytes));

  std::string text = disassemble(std::span<const uint8_t>(bytes, k), address);
  fuzz::require(!text.empty(), "every decoded instruction prints", hex(bytes, k));
  if (printsTarget(text)) return 0;
  x86_64::AssemblyOptions opt;
  opt.base = Value::constant(address);
  auto r = x86_64::assemble(text, "fuzz.s", opt);
  if (auto* errors = std::get_if<Diagnostics>(&r)) {
    fuzz::requireLocated(*errors, "fuzz.s", text);
    return 0;  // outside the assembler's subset
  }
  const Assembly& a = std::get<Assembly>(r);
  fuzz::require(a.units.size() == 1 && a.units[0].isConcrete(), "one instruction assembles to one unit", text);
  // The text may name a choice the assembler does not make (objdump prints
  // an explicit 0x0 displacement GNU as leaves out), so the property is a
  // fixed point one round later: bytes -> text -> bytes' -> text' -> bytes'.
  const std::vector<uint8_t>& again = a.units[0].bytes;
  std::string back = disassemble(std::span<const uint8_t>(again.data(), again.size()), address);
  auto r2 = x86_64::assemble(back, "fuzz.s", opt);
  fuzz::require(std::holds_alternative<Assembly>(r2), "the assembler takes back what it printed of its own bytes",
                text + " -> " + hex(again.data(), again.size()) + " -> " + back);
  const Assembly& a2 = std::get<Assembly>(r2);
  fuzz::require(a2.units.size() == 1 && a2.units[0].bytes == again, "assembling the printed text is a fixed point",
                hex(bytes, k) + " -> " + text + " -> " + hex(again.data(), again.size()) + " -> " + back + " -> " +
                    hex(a2.units[0].bytes.data(), a2.units[0].bytes.size()));
  return 0;
}
