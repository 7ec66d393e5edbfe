#include "encoder/mips/Plugin.h"

#include <array>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "encoder/mips/Assembler.h"
#include "encoder/mips/Fields.h"
#include "encoder/mips/InstructionTable.h"
#include "encoder/mips/Patching.h"
#include "encoder/mips/Printer.h"
#include "encoder/mips/SymbolicWord.h"

namespace patchcheck::mips {
namespace {

constexpr std::array<std::string_view, 4> kVariants = {"mips32r2", "mips64r2", "mips32r6", "mips64r6"};
constexpr std::array<std::string_view, 3> kAbis = {"o32", "n32", "n64"};
constexpr std::array<std::string_view, 3> kFetchModels = {"sc", "weak", "stale"};

class MipsIsa final : public patchcheck::IsaPlugin {
 public:
  std::string_view family() const override { return "mips"; }
  // herd7's name for it; this plug-in has no litmus dialect, so such tests are refused.
  std::string_view litmusArchitecture() const override { return "MIPS"; }
  std::span<const std::string_view> variants() const override { return kVariants; }
  std::span<const std::string_view> abis() const override { return kAbis; }
  uint8_t defaultAbi(uint8_t variant) const override { return uint8_t(mips::defaultAbi(mips::Isa(variant))); }
  uint8_t defaultVariant() const override { return uint8_t(mips::Isa::Mips64R2); }
  // The architecture leaves instruction fetch's view of stores to the
  // implementation (synci, flush_icache_range): the spec picks how weak it
  // assumes fetch to be (docs/model.md "The writer and what a fetch may see").
  std::span<const std::string_view> fetchModels() const override { return kFetchModels; }
  std::string_view defaultFetchModel() const override { return "weak"; }
  unsigned registerBits(uint8_t variant) const override { return Target{mips::Isa(variant), Endian::Big, Abi::O32}.gprBits(); }
  std::optional<std::string> problem(const patchcheck::Target& t) const override {
    if (t.abi >= kAbis.size()) return "the ABI of " + std::string(t.variantName()) + " is one of o32, n32, n64";
    return targetProblem(targetOf(t));
  }
  std::string disassemble(uint64_t value, unsigned, uint64_t address, const patchcheck::Target& t) const override {
    return mips::disassemble(uint32_t(value), address, targetOf(t));
  }

  std::variant<Program, Diagnostics> assemble(std::string_view source, const std::string& file,
                                              const patchcheck::AssemblyOptions& o) const override {
    AssemblyOptions m;
    m.target = targetOf(o.target);
    m.base = o.base;
    m.symbols = o.symbols;
    m.symbolic = o.symbolic;
    m.allowUnpredictable = o.allowUnpredictable;
    m.requireLuiReach = o.requireKernelReach;
    auto r = mips::assemble(source, file, m);
    if (auto* e = std::get_if<Diagnostics>(&r)) return std::move(*e);
    Assembly& a = std::get<Assembly>(r);
    Program p;
    p.labels = std::move(a.labels);
    for (AssembledWord& w : a.words) {
      Unit u{w.address, 4, w.bits, w.symbolicMask, w.where, w.source, nullptr};
      u.detail = std::make_shared<const Word>(std::move(w));
      p.units.push_back(std::move(u));
    }
    return p;
  }

  SymbolicUnit symbolic(const Unit& u, const patchcheck::Target& t, z3::context& c,
                        const SymbolTerm& symbol) const override {
    SymbolicWord w = symbolicWord(wordOf(u), targetOf(t), c, symbol);
    return SymbolicUnit{w.word, std::move(w.conditions), std::move(w.reasons), w.knownBits, w.knownMask};
  }

  std::optional<Relocation> relocation(const Unit& u) const override {
    const AssembledWord& w = wordOf(u);
    if (w.isConcrete()) return std::nullopt;
    const Operand* op = nullptr;
    if (!w.desc) op = &w.operands[0];  // .word
    else
      for (const Operand& o : w.operands)
        if (o.kind != Opnd::None && (operandBits(o.kind) & w.symbolicMask)) op = &o;
    if (!op) return std::nullopt;
    bool branch = w.desc && (op->kind == Opnd::Br16 || op->kind == Opnd::Br21 || op->kind == Opnd::Br26);
    bool jump = w.desc && op->kind == Opnd::Jump26;
    Relocation r;
    r.value = op->expr.value;
    r.kind = jump ? "jump26" : branch ? "branch" : relocKind(op->expr.reloc);
    // A branch offset counts from its delay slot, wherever the site lies.
    if (branch) r.relativeTo = w.address.plus(4);
    r.formula = jump ? "S >> 2" : branch ? "(S - P) >> 2" : relocFormula(op->expr.reloc);
    r.text = !branch && !jump && op->expr.reloc != Reloc::None
                 ? std::string(relocName(op->expr.reloc)) + "(" + op->expr.value.str() + ")"
                 : op->expr.value.str();
    return r;
  }

  // Linux MIPS (docs/encoder.md): KSEG0 0x80000000-0x9fffffff for the
  // kernel and KSEG2 0xc0000000-0xdfffffff for modules; the 64-bit
  // compatibility segments CKSEG0/CKSEG2 hold the same sign-extended values.
  unsigned patchUnitBytes(const patchcheck::Target&) const override { return 4; }
  std::vector<AddressRange> defaultRegions(const patchcheck::Target&) const override {
    return {{"kernel-text", 0xffffffff80000000ull, 0xffffffff9fffffffull},
            {"module-text", 0xffffffffc0000000ull, 0xffffffffdfffffffull}};
  }

  // kprobes' `break 0, 515` and how the kernel runs a probed word
  // (encoder/mips/Patching.cpp).
  const IsaPatching& patching() const override {
    static const auto p = kprobePatching([](const Unit& u) { return wordOf(u).desc; });
    return *p;
  }

  std::string tableText() const override {
    std::string out;
    for (const InstrDesc& d : instructionTable()) {
      char row[160];
      snprintf(row, sizeof row,
               "%s|op=%u|match=%08x|mask=%08x|isas=%02x|operands=%u,%u,%u,%u|flags=%04x|rule=%u\n",
               std::string(d.mnemonic).c_str(), unsigned(d.op), d.match, d.mask(), unsigned(d.isas),
               unsigned(d.operands[0]), unsigned(d.operands[1]), unsigned(d.operands[2]),
               unsigned(d.operands[3]), unsigned(d.flags), unsigned(d.rule));
      out += row;
    }
    return out;
  }

 private:
  // The assembler's word behind a unit.
  struct Word final : UnitDetail {
    explicit Word(AssembledWord w) : word(std::move(w)) {}
    AssembledWord word;
  };

  static const AssembledWord& wordOf(const Unit& u) {
    auto* w = dynamic_cast<const Word*>(u.detail.get());
    if (!w) throw std::logic_error("mips: a unit this plug-in did not assemble");
    return w->word;
  }

  // %hi and the others round: the lower parts are sign-extended when added.
  static const char* relocFormula(Reloc r) {
    switch (r) {
      case Reloc::None: return "S";
      case Reloc::Hi: return "(S + 0x8000) >> 16";
      case Reloc::Lo: return "S";
      case Reloc::Higher: return "(S + 0x80008000) >> 32";
      case Reloc::Highest: return "(S + 0x800080008000) >> 48";
    }
    return "";
  }
  static const char* relocKind(Reloc r) {
    switch (r) {
      case Reloc::None: return "abs";
      case Reloc::Hi: return "hi";
      case Reloc::Lo: return "lo";
      case Reloc::Higher: return "higher";
      case Reloc::Highest: return "highest";
    }
    return "?";
  }
};

}  // namespace

const patchcheck::IsaPlugin& plugin() {
  static const MipsIsa isa;
  return isa;
}

Target targetOf(const patchcheck::Target& t) {
  if (t.isa != &plugin()) throw std::logic_error("mips::targetOf: " + t.str() + " is not a MIPS target");
  return Target{Isa(t.variant), t.endian, Abi(t.abi)};
}

Target::Target(const patchcheck::Target& t) : Target(targetOf(t)) {}
Target::operator patchcheck::Target() const { return neutral(*this); }

patchcheck::Target neutral(const Target& t) {
  return patchcheck::Target{&plugin(), uint8_t(t.isa), uint8_t(t.abi), t.endian};
}

}  // namespace patchcheck::mips
