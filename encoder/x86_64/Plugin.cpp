#include "encoder/x86_64/Plugin.h"

#include <array>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "encoder/x86_64/Assembler.h"
#include "encoder/x86_64/InstructionTable.h"
#include "encoder/x86_64/Kprobes.h"
#include "encoder/x86_64/Length.h"
#include "encoder/x86_64/Patching.h"
#include "encoder/x86_64/Printer.h"
#include "encoder/x86_64/SymbolicBytes.h"

#include <Zydis/Zydis.h>

namespace patchcheck::x86_64 {
namespace {

constexpr std::array<std::string_view, 1> kVariants = {"x86_64"};
constexpr std::array<std::string_view, 1> kAbis = {"sysv"};

class X86Isa final : public patchcheck::IsaPlugin {
 public:
  std::string_view family() const override { return "x86_64"; }
  // herd7's name for it; this plug-in has no litmus dialect, so such tests are refused.
  std::string_view litmusArchitecture() const override { return "X86_64"; }
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

  std::string disassemble(uint64_t value, unsigned bytes, uint64_t address,
                          const patchcheck::Target& t) const override {
    std::array<uint8_t, 8> b{};
    for (unsigned k = 0; k < bytes && k < 8; ++k) b[k] = uint8_t(value >> (8 * k));
    return disassembleBytes(std::span<const uint8_t>(b.data(), bytes < 8 ? bytes : 8), address, t);
  }
  std::string disassembleBytes(std::span<const uint8_t> bytes, uint64_t address,
                               const patchcheck::Target&) const override {
    return x86_64::disassemble(bytes, address);
  }

  std::variant<Program, Diagnostics> assemble(std::string_view source, const std::string& file,
                                              const patchcheck::AssemblyOptions& o) const override {
    if (auto p = problem(o.target)) return Diagnostics{{{file, 0, 0}, *p}};
    AssemblyOptions a;
    a.base = o.base;
    a.symbols = o.symbols;
    a.symbolic = o.symbolic;
    for (const auto& [name, n] : o.near) a.near[name] = {n.anchor, n.within};
    auto r = x86_64::assemble(source, file, a);
    if (auto* e = std::get_if<Diagnostics>(&r)) return std::move(*e);
    Assembly& asm_ = std::get<Assembly>(r);
    Program p;
    p.labels = std::move(asm_.labels);
    for (AssembledUnit& u : asm_.units) {
      // The first 8 bytes, byte k at bits 8k+7..8k; the rest are in the
      // detail and in symbolic()'s term.
      Unit unit{u.address, unsigned(u.bytes.size()), 0, 0, u.where, u.source, nullptr};
      for (size_t k = 0; k < u.bytes.size() && k < 8; ++k) unit.bits |= uint64_t(u.bytes[k]) << (8 * k);
      if (u.field)
        for (unsigned k = u.field->offset; k < u.field->offset + u.field->size && k < 8; ++k)
          unit.symbolicMask |= 0xffull << (8 * k);
      unit.detail = std::make_shared<const Detail>(std::move(u));
      p.units.push_back(std::move(unit));
    }
    return p;
  }
  SymbolicUnit symbolic(const Unit& u, const patchcheck::Target&, z3::context& c,
                        const SymbolTerm& symbol) const override {
    return symbolicUnit(unitOf(u), c, symbol);
  }
  std::optional<Relocation> relocation(const Unit& u) const override { return relocationOf(unitOf(u)); }

  // One row per line: spelling, Zydis mnemonic, sizes, operands, flags.
  std::string libraryVersions() const override {
    // The version of the library linked at run time, not the header's.
    ZyanU64 v = ZydisGetVersion();
    return "Zydis " + std::to_string(ZYDIS_VERSION_MAJOR(v)) + "." + std::to_string(ZYDIS_VERSION_MINOR(v)) + "." +
           std::to_string(ZYDIS_VERSION_PATCH(v));
  }
  std::string tableText() const override {
    std::string out;
    for (const InstrDesc& d : instructionTable()) {
      char row[160];
      snprintf(row, sizeof row, "%s|zydis=%s|sizes=%02x|operands=%u,%u|flags=%04x\n", std::string(d.mnemonic).c_str(),
               ZydisMnemonicGetString(d.zydis), unsigned(d.sizes), unsigned(d.operands[0]), unsigned(d.operands[1]),
               unsigned(d.flags));
      out += row;
    }
    return out;
  }

  // Intel SDM Vol. 3 8.1.3: fetch sees cross-modified bytes in any mix
  // until the executing CPU serialises (docs/model.md "The x86 fetch model").
  std::span<const std::string_view> fetchModels() const override {
    static constexpr std::array<std::string_view, 1> kFetch = {"x86"};
    return kFetch;
  }
  std::string_view defaultFetchModel() const override { return "x86"; }
  // text_poke_bp's int3 and kprobes' (encoder/x86_64/Patching.cpp).
  const IsaPatching& patching() const override { return int3Patching(); }

  // An instruction may start at any byte, and so may a function: GCC's
  // -falign-functions (16 by default at -O2, CONFIG_FUNCTION_ALIGNMENT on
  // 6.2 and later) is a placement choice, not an architectural rule, and
  // -Os kernels do not align functions at all.
  unsigned codeAlignment() const override { return 1; }

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

 private:
  // The assembler's unit behind a neutral one.
  struct Detail final : UnitDetail {
    explicit Detail(AssembledUnit u) : unit(std::move(u)) {}
    AssembledUnit unit;
  };

  static const AssembledUnit& unitOf(const Unit& u) {
    auto* d = dynamic_cast<const Detail*>(u.detail.get());
    if (!d) throw std::logic_error("x86_64: a unit this plug-in did not assemble");
    return d->unit;
  }
};

}  // namespace

const patchcheck::IsaPlugin& plugin() {
  static const X86Isa isa;
  return isa;
}

}  // namespace patchcheck::x86_64
