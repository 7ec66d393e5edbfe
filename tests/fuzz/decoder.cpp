// Decoder on random bytes: the first byte picks ISA, byte order, ABI and
// address; every following 4 bytes are one word in that byte order. A word
// the decoder accepts prints in GNU syntax (both spellings) and the default
// spelling reassembles to the same word at the same address, as the GNU as
// oracle checks for table instances (tests/oracle/gnu_as_diff/mips.cpp).
#include <cstddef>
#include <cstdint>

#include "encoder/mips/Assembler.h"
#include "encoder/mips/Decoder.h"
#include "encoder/mips/Printer.h"
#include "tests/fuzz/FuzzProperty.h"

using namespace patchcheck;
using namespace patchcheck::mips;

namespace {

constexpr Isa kIsas[] = {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6};

mips::Target targetOf(uint8_t b) {
  mips::Target t;
  t.isa = kIsas[b & 3];
  t.endian = (b & 4) ? Endian::Little : Endian::Big;
  t.abi = !t.is64() ? Abi::O32 : (b & 8) ? Abi::N32 : Abi::N64;
  return t;
}

// Where the words sit: low in the address space, in 32-bit KSEG0, or (on
// 64-bit) in XKPHYS, so branch and jump targets take every form.
uint64_t baseOf(uint8_t b, const mips::Target& t) {
  switch ((b >> 4) & 3) {
    case 0: return 0x1000;
    case 1: return 0xffffffff80001000ull;
    case 2: return t.is64() && t.abi == Abi::N64 ? 0x9800000012340000ull : 0xffffffff8ffffff0ull;
    default: return 0x0ffffff0;  // next to a 256 MB jump region boundary
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  mips::Target t = targetOf(data[0]);
  uint64_t base = baseOf(data[0], t);
  for (size_t i = 1; i + 4 <= size; i += 4) {
    const uint8_t* p = data + i;
    uint32_t w = t.endian == Endian::Big ? uint32_t(p[0]) << 24 | p[1] << 16 | p[2] << 8 | p[3]
                                         : uint32_t(p[3]) << 24 | p[2] << 16 | p[1] << 8 | p[0];
    uint64_t address = base + (i - 1);
    const InstrDesc* d = decode(w, t.isa);
    std::string text = disassemble(w, address, t, Spelling::Aliases);
    std::string canonical = disassemble(w, address, t, Spelling::NoAliases);
    fuzz::require(!text.empty() && !canonical.empty(), "every word prints");
    if (!d) {
      fuzz::require(text.rfind(".word", 0) == 0, "a reserved word prints as .word", text);
      continue;
    }
    fuzz::require(decodeCanonical(w, t.isa) != nullptr, "a decoded word has a canonical row", text);
    // ins/dins/dinsu with msb < lsb (a size below 1) are UNPREDICTABLE words
    // the decoder shows (size printed as a wrapped negative number) but GNU
    // syntax cannot express: no reassembly to ask for.
    unsigned msb = (w >> 11) & 31, lsb = (w >> 6) & 31;
    if ((d->op == Op::Ins || d->op == Op::Dins || d->op == Op::Dinsu) && msb < lsb) continue;
    // Pre-R6 clz/clo/dclz/dclo with rd != rt (UNPREDICTABLE) print as
    // objdump does, "clz a0 or a1,a1": no GNU syntax encodes them.
    bool countLeading = d->op == Op::Clz || d->op == Op::Clo || d->op == Op::Dclz || d->op == Op::Dclo;
    if (countLeading && !t.isR6() && ((w >> 11) & 31) != ((w >> 16) & 31)) continue;
    AssemblyOptions o;
    o.target = t;
    o.base = Value::constant(int64_t(address));
    o.allowUnpredictable = true;  // the decoder shows UNPREDICTABLE words; they still reassemble
    auto a = assemble(text, "decoded.s", o);
    char word[16];
    std::snprintf(word, sizeof word, "%08x", w);
    std::string what = t.str() + " " + word + " '" + text + "'";
    if (auto* e = std::get_if<Diagnostics>(&a)) fuzz::require(false, "a decoded word reassembles", what + ": " + (*e)[0].str());
    auto words = concreteWords(std::get<Assembly>(a));
    auto* v = std::get_if<std::vector<uint32_t>>(&words);
    fuzz::require(v && v->size() == 1, "a decoded word reassembles to one word", what);
    char back[16];
    std::snprintf(back, sizeof back, "%08x", (*v)[0]);
    fuzz::require((*v)[0] == w, "decode, print, assemble gives the same word", what + " -> " + back);
  }
  return 0;
}
