#include "encoder/x86_64/Plugin.h"

#include <Zydis/Zydis.h>

#include <array>
#include <stdexcept>

#include "encoder/x86_64/Length.h"

namespace patchcheck::x86_64 {
namespace {

constexpr std::array<std::string_view, 1> kVariants = {"x86_64"};
constexpr std::array<std::string_view, 1> kAbis = {"sysv"};

class X86Isa final : public patchcheck::IsaPlugin {
 public:
  std::string_view family() const override { return "x86_64"; }
  std::span<const std::string_view> variants() const override { return kVariants; }
  std::span<const std::string_view> abis() const override { return kAbis; }
  uint8_t defaultAbi(uint8_t) const override { return 0; }
  uint8_t defaultVariant() const override { return 0; }
  Endian defaultEndian() const override { return Endian::Little; }
  unsigned registerBits(uint8_t) const override { return 64; }
  std::optional<std::string> problem(const patchcheck::Target& t) const override {
    if (t.variant >= kVariants.size()) return "the variant of x86-64 is x86_64";
    if (t.abi >= kAbis.size()) return "the ABI of x86_64 is sysv";
    if (t.endian != Endian::Little) return "x86-64 is little-endian";
    return std::nullopt;
  }

  std::string disassemble(uint64_t value, unsigned bytes, uint64_t address, const patchcheck::Target& t) const override {
    std::array<uint8_t, 8> b{};
    for (unsigned k = 0; k < bytes && k < 8; ++k) b[k] = uint8_t(value >> (8 * k));
    return disassembleBytes(std::span<const uint8_t>(b.data(), bytes < 8 ? bytes : 8), address, t);
  }
  std::string disassembleBytes(std::span<const uint8_t> bytes, uint64_t address,
                               const patchcheck::Target&) const override {
    ZydisDecoder decoder;
    ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
    ZydisFormatter formatter;
    ZydisFormatterInit(&formatter, ZYDIS_FORMATTER_STYLE_ATT);
    ZydisDecodedInstruction insn;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, bytes.data(), bytes.size(), &insn, ops))) return "(bad)";
    char buf[256];
    if (!ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&formatter, &insn, ops, insn.operand_count_visible, buf,
                                                      sizeof buf, address, nullptr)))
      return "(bad)";
    return buf;
  }

  std::variant<Program, Diagnostics> assemble(std::string_view, const std::string& file,
                                              const patchcheck::AssemblyOptions&) const override {
    return Diagnostics{{{file, 1, 1}, "x86_64: no assembler in this build"}};
  }
  SymbolicUnit symbolic(const Unit&, const patchcheck::Target&, z3::context&, const SymbolTerm&) const override {
    throw std::logic_error("x86_64: a unit this plug-in did not assemble");
  }
  std::optional<Relocation> relocation(const Unit&) const override { return std::nullopt; }
  std::string tableText() const override { return ""; }

  // Intel SDM Vol. 3 8.1.3: fetch sees cross-modified bytes in any mix
  // until the executing CPU serialises (docs/model.md "The x86 fetch model").
  std::optional<std::string_view> architectedFetch() const override { return "x86"; }
  std::optional<std::string_view> patchBreakpoint() const override { return "int3"; }

  // text_poke writes any byte range; a fetch may see each byte old or new.
  unsigned patchUnitBytes(const patchcheck::Target&) const override { return 1; }
  Length instructionLength(std::span<const uint8_t> bytes, std::span<const bool> symbolic,
                           const patchcheck::Target&) const override {
    return x86_64::instructionLength(bytes, symbolic);
  }

  // Documentation/arch/x86/x86_64/mm.rst (4-level paging): the kernel text
  // mapping (512 MiB at -2 GiB) and the module mapping space above it.
  std::vector<AddressRange> defaultRegions(const patchcheck::Target&) const override {
    return {{"kernel-text", 0xffffffff80000000ull, 0xffffffff9fffffffull},
            {"module-text", 0xffffffffa0000000ull, 0xfffffffffeffffffull}};
  }
};

}  // namespace

const patchcheck::IsaPlugin& plugin() {
  static const X86Isa isa;
  return isa;
}

}  // namespace patchcheck::x86_64
