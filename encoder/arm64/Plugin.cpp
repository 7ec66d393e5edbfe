#include "encoder/arm64/Plugin.h"

#include <array>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "encoder/arm64/Assembler.h"
#include "encoder/arm64/Cmodx.h"
#include "encoder/arm64/Decoder.h"
#include "encoder/arm64/Kprobes.h"
#include "encoder/arm64/Litmus.h"
#include "encoder/arm64/Patching.h"
#include "encoder/arm64/Printer.h"
#include "encoder/arm64/SymbolicWord.h"

namespace patchcheck::arm64 {
namespace {

// arm64-bti: the same instructions with BTI enforced on kernel text
// (CONFIG_ARM64_BTI_KERNEL: guarded pages, SCTLR_EL1.BT1 = 1), so an
// indirect branch must land on a compatible landing pad (model/arm64).
constexpr std::array<std::string_view, 2> kVariants = {"arm64", "arm64-bti"};
constexpr std::array<std::string_view, 1> kAbis = {"lp64"};

class Arm64Isa final : public patchcheck::IsaPlugin {
 public:
  std::string_view family() const override { return "arm64"; }
  std::span<const std::string_view> variants() const override { return kVariants; }
  std::span<const std::string_view> abis() const override { return kAbis; }
  uint8_t defaultAbi(uint8_t) const override { return 0; }
  uint8_t defaultVariant() const override { return 0; }
  Endian defaultEndian() const override { return Endian::Little; }
  // A64 instructions are little-endian in memory on every system; a
  // big-endian target's data (.word, .quad) is big-endian.
  Endian instructionByteOrder(const patchcheck::Target&) const override { return Endian::Little; }
  Endian byteOrder(const Unit& u, const patchcheck::Target& t) const override {
    return unitOf(u).isInstruction() ? instructionByteOrder(t) : t.endian;
  }
  unsigned registerBits(uint8_t) const override { return 64; }
  std::optional<std::string> problem(const patchcheck::Target& t) const override {
    if (t.variant >= kVariants.size()) return "the variants of arm64 are arm64 and arm64-bti";
    if (t.abi >= kAbis.size()) return "the ABI of arm64 is lp64";
    return std::nullopt;
  }

  std::string disassemble(uint64_t value, unsigned bytes, uint64_t address, const patchcheck::Target&) const override {
    if (bytes == 8) {  // data, as objdump -D prints an 8-byte unit
      char buf[40];
      snprintf(buf, sizeof buf, ".xword\t0x%016llx", (unsigned long long)value);
      return buf;
    }
    return arm64::disassemble(uint32_t(value), address);
  }

  std::variant<Program, Diagnostics> assemble(std::string_view source, const std::string& file,
                                              const patchcheck::AssemblyOptions& o) const override {
    if (auto p = problem(o.target)) return Diagnostics{{{file, 0, 0}, *p}};
    AssemblyOptions a;
    a.base = o.base;
    a.symbols = o.symbols;
    a.symbolic = o.symbolic;
    a.allowUnpredictable = o.allowUnpredictable;
    auto r = arm64::assemble(source, file, a);
    if (auto* e = std::get_if<Diagnostics>(&r)) return std::move(*e);
    Assembly& asm_ = std::get<Assembly>(r);
    Program p;
    p.labels = std::move(asm_.labels);
    for (AssembledUnit& u : asm_.units) {
      Unit unit{u.address, u.bytes, u.bits, u.symbolicMask, u.where, u.source, nullptr};
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

  // A site is patched one 4-byte instruction at a time (arm64 ftrace, CMODX).
  unsigned patchUnitBytes(const patchcheck::Target&) const override { return 4; }

  // Linux arm64, 48-bit VA with 4 KiB pages (Documentation/arch/arm64/
  // memory.rst, v6.5+): modules in the 2 GiB below the vmalloc area; the
  // kernel image at the start of vmalloc without KASLR; vmalloc, where
  // ftrace direct trampolines and BPF live. The image is 128 MiB here:
  // arm64 ftrace calls ftrace_caller from every traced function of the
  // image with one BL and has no PLT for the core kernel
  // (ftrace_find_callable_addr in arch/arm64/kernel/ftrace.c), so an image
  // whose text spans more than BL's +-128 MiB cannot be traced at all.
  std::vector<AddressRange> defaultRegions(const patchcheck::Target&) const override {
    return {{"kernel-text", 0xffff800080000000ull, 0xffff800087ffffffull},
            {"module-text", 0xffff800000000000ull, 0xffff80007fffffffull},
            {"vmalloc", 0xffff800080000000ull, 0xfffffbffefffffffull}};
  }

  // The Arm ARM's own model (B2.2.5, B2.4.4): docs/model.md "The Arm fetch model".
  std::span<const std::string_view> fetchModels() const override {
    static constexpr std::array<std::string_view, 1> kFetch = {"arm"};
    return kFetch;
  }
  std::string_view defaultFetchModel() const override { return "arm"; }
  std::string_view litmusArchitecture() const override { return "AArch64"; }
  const LitmusDialect* litmus() const override { return &litmusDialect(); }
  // The Arm ARM's list for concurrent modification and execution (CMODX,
  // B2.2.5) and kprobes' `brk #0x4` (encoder/arm64/Patching.cpp).
  const IsaPatching& patching() const override {
    static const auto p = cmodxPatching([](const Unit& u) { return unitOf(u).isInstruction(); });
    return *p;
  }

  std::string tableText() const override {
    std::string out;
    for (const InstrDesc& d : instructionTable()) {
      char row[200];
      snprintf(row, sizeof row, "%s%s%s|op=%u|match=%08x|mask=%08x|operands=%u,%u,%u,%u|flags=%04x|rule=%u\n",
               std::string(d.mnemonic).c_str(), d.keyword.empty() ? "" : " ", std::string(d.keyword).c_str(),
               unsigned(d.op), d.match, d.mask(), unsigned(d.operands[0]), unsigned(d.operands[1]),
               unsigned(d.operands[2]), unsigned(d.operands[3]), unsigned(d.flags), unsigned(d.rule));
      out += row;
    }
    return out;
  }

 private:
  // The assembler's unit behind a neutral one.
  struct Detail final : UnitDetail {
    explicit Detail(AssembledUnit u) : unit(std::move(u)) {}
    AssembledUnit unit;
  };

  static const AssembledUnit& unitOf(const Unit& u) {
    auto* d = dynamic_cast<const Detail*>(u.detail.get());
    if (!d) throw std::logic_error("arm64: a unit this plug-in did not assemble");
    return d->unit;
  }
};

}  // namespace

const patchcheck::IsaPlugin& plugin() {
  static const Arm64Isa isa;
  return isa;
}

}  // namespace patchcheck::arm64
