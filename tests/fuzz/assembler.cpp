// The assembler's line parser on arbitrary text: the first byte picks the
// target and options (a symbolic symbol, UNPREDICTABLE encodings allowed,
// lui reach), the rest is the source. Properties: a rejection points at a
// line of the input; an accepted source gives one word per statement, each
// at its own address, and the same source assembles to the same words again.
#include <cstddef>
#include <cstdint>

#include "encoder/mips/Assembler.h"
#include "tests/fuzz/FuzzProperty.h"

using namespace patchcheck;
using namespace patchcheck::mips;

namespace {

constexpr Isa kIsas[] = {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6};

AssemblyOptions optionsOf(uint8_t b) {
  AssemblyOptions o;
  o.target.isa = kIsas[b & 3];
  o.target.endian = (b & 4) ? Endian::Little : Endian::Big;
  o.target.abi = !o.target.is64() ? Abi::O32 : (b & 8) ? Abi::N32 : Abi::N64;
  o.allowUnpredictable = b & 16;
  o.requireLuiReach = b & 32;
  o.symbols = {{"ftrace_caller", 0xffffffff80100000ull}, {"G", 0xffffffff80200040ull}};
  if (b & 64) {
    o.symbolic = {"F", "T"};
    o.base = Value{"F", 0};
  } else {
    o.base = Value::constant(int64_t(0xffffffff80001000ull));
  }
  return o;
}

bool sameWords(const Assembly& a, const Assembly& b) {
  if (a.words.size() != b.words.size()) return false;
  for (size_t i = 0; i < a.words.size(); ++i)
    if (a.words[i].bits != b.words[i].bits || a.words[i].symbolicMask != b.words[i].symbolicMask ||
        a.words[i].desc != b.words[i].desc)
      return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  AssemblyOptions o = optionsOf(data[0]);
  std::string_view source(reinterpret_cast<const char*>(data + 1), size - 1);
  auto first = assemble(source, "fuzz.s", o);
  if (auto* e = std::get_if<Diagnostics>(&first)) {
    fuzz::requireLocated(*e, "fuzz.s", source);
    return 0;
  }
  const Assembly& a = std::get<Assembly>(first);
  unsigned lines = fuzz::lineCount(source);
  for (size_t i = 0; i < a.words.size(); ++i) {
    const AssembledWord& w = a.words[i];
    fuzz::require(w.where.line >= 1 && w.where.line <= lines, "an assembled word points at its line",
                  w.where.file + ":" + std::to_string(w.where.line));
    fuzz::require((w.bits & w.symbolicMask) == 0, "symbolic bits are not also concrete bits", w.source);
    if (i > 0) fuzz::require(w.where.line >= a.words[i - 1].where.line, "words come in source order", w.source);
  }
  auto again = assemble(source, "fuzz.s", o);
  auto* b = std::get_if<Assembly>(&again);
  fuzz::require(b && sameWords(a, *b), "the same source assembles to the same words");
  return 0;
}
