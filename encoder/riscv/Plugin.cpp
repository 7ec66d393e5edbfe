#include "encoder/riscv/Plugin.h"

#include <array>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "encoder/riscv/Assembler.h"
#include "encoder/riscv/Decoder.h"
#include "encoder/riscv/InstructionTable.h"
#include "encoder/riscv/Litmus.h"
#include "encoder/riscv/Printer.h"
#include "encoder/riscv/SymbolicUnit.h"

namespace patchcheck::riscv {
namespace {

// The first four are Linux's (Plugin.h); the others add F and D (G is
// IMAFD with Zicsr and Zifencei, Unprivileged ISA "RV32/64G"), as user
// code and hard-float objects are built.
struct VariantInfo {
  unsigned xlen;
  bool rvc, fd;
};
constexpr std::array<std::string_view, 12> kVariants = {"rv64imac",   "rv64ima",   "rv32imac",   "rv32ima",
                                                        "rv64imafdc", "rv64imafd", "rv32imafdc", "rv32imafd",
                                                        "rv64gc",     "rv64g",     "rv32gc",     "rv32g"};
constexpr std::array<VariantInfo, 12> kVariantInfo = {{{64, true, false}, {64, false, false}, {32, true, false},
                                                        {32, false, false}, {64, true, true}, {64, false, true},
                                                        {32, true, true}, {32, false, true}, {64, true, true},
                                                        {64, false, true}, {32, true, true}, {32, false, true}}};
const VariantInfo& infoOf(uint8_t variant) { return kVariantInfo.at(variant); }
constexpr std::array<std::string_view, 2> kAbis = {"lp64", "ilp32"};
// Ziccif (the ratified rule for fetches of modified code, Unprivileged ISA
// "Ziccif") and Ziccid: the fetch models checker/fetch/ defines for RISC-V.
constexpr std::array<std::string_view, 2> kFetchModels = {"ziccif", "ziccid"};

class RiscvIsa final : public patchcheck::IsaPlugin {
 public:
  std::string_view family() const override { return "riscv"; }
  std::string_view litmusArchitecture() const override { return "RISCV"; }
  const LitmusDialect* litmus() const override { return &litmusDialect(); }
  std::span<const std::string_view> variants() const override { return kVariants; }
  std::span<const std::string_view> abis() const override { return kAbis; }
  uint8_t defaultAbi(uint8_t variant) const override { return infoOf(variant).xlen == 64 ? 0 : 1; }
  uint8_t defaultVariant() const override { return 0; }
  Endian defaultEndian() const override { return Endian::Little; }
  Endian instructionByteOrder(const patchcheck::Target&) const override { return Endian::Little; }
  unsigned registerBits(uint8_t variant) const override { return infoOf(variant).xlen; }
  std::optional<std::string> problem(const patchcheck::Target& t) const override {
    if (t.variant >= kVariants.size()) {
      std::string names;
      for (std::string_view v : kVariants) names += (names.empty() ? "" : ", ") + std::string(v);
      return "the variant of riscv is one of " + names;
    }
    if (t.abi >= kAbis.size()) return "the ABI of " + std::string(t.variantName()) + " is lp64 or ilp32";
    if ((t.abi == 0) != (infoOf(t.variant).xlen == 64))
      return "ABI " + std::string(kAbis[t.abi]) + " needs " + (t.abi == 0 ? "RV64" : "RV32") + " (" +
             std::string(t.variantName()) + " takes " + std::string(kAbis[defaultAbi(t.variant)]) + ")";
    if (t.endian != Endian::Little) return "RISC-V is little-endian (Unprivileged ISA 1.5)";
    return std::nullopt;
  }

  std::string disassemble(uint64_t value, unsigned bytes, uint64_t address, const patchcheck::Target& t) const override {
    std::array<uint8_t, 8> b{};
    for (unsigned k = 0; k < bytes && k < 8; ++k) b[k] = uint8_t(value >> (8 * k));
    return disassembleBytes(std::span<const uint8_t>(b.data(), bytes < 8 ? bytes : 8), address, t);
  }
  // Every instruction in the bytes, "; " between two (a 4-byte word may
  // hold two compressed instructions).
  std::string disassembleBytes(std::span<const uint8_t> bytes, uint64_t address,
                               const patchcheck::Target& t) const override {
    std::string out;
    size_t at = 0;
    while (at + 2 <= bytes.size()) {
      uint32_t bits = uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8;
      unsigned n = lengthOf(uint16_t(bits));
      if (n == 4 && at + 4 <= bytes.size()) bits |= uint32_t(bytes[at + 2]) << 16 | uint32_t(bytes[at + 3]) << 24;
      if (!out.empty()) out += "; ";
      if (n == 0 || at + n > bytes.size()) {  // a longer format, or cut short: objdump shows the parcel
        out += ".2byte\t" + hexOf(bits & 0xffff);
        at += 2;
        continue;
      }
      out += riscv::disassemble(bits, address + at, xlenOf(t), rvcOf(t), Spelling::Aliases, fdOf(t));
      at += n;
    }
    return out;
  }
  Length instructionLength(std::span<const uint8_t> bytes, std::span<const bool> symbolic,
                           const patchcheck::Target& t) const override {
    if (bytes.size() < 2) return {Length::NeedMore, 0};
    // The length is in bits 1:0 and 4:2 of the first parcel (1.5); no
    // placement decides those bits in any row here.
    for (unsigned k = 0; k < 1 && k < symbolic.size(); ++k)
      if (symbolic[k]) return {Length::PlacementDependent, 0};
    unsigned n = lengthOf(uint16_t(bytes[0] | bytes[1] << 8));
    if (n == 0 || (n == 2 && !rvcOf(t))) return {Length::Invalid, 0};
    if (bytes.size() < n) return {Length::NeedMore, 0};
    return {Length::Known, n};
  }

  std::variant<Program, Diagnostics> assemble(std::string_view source, const std::string& file,
                                              const patchcheck::AssemblyOptions& o) const override {
    if (auto p = problem(o.target)) return Diagnostics{{{file, 0, 0}, *p}};
    AssemblyOptions a;
    a.xlen = xlenOf(o.target);
    a.rvc = rvcOf(o.target);
    a.fd = fdOf(o.target);
    a.base = o.base;
    a.symbols = o.symbols;
    a.symbolic = o.symbolic;
    a.requireKernelReach = o.requireKernelReach;
    auto r = riscv::assemble(source, file, a);
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

  SymbolicUnit symbolic(const Unit& u, const patchcheck::Target& t, z3::context& c,
                        const SymbolTerm& symbol) const override {
    return symbolicUnit(unitOf(u), xlenOf(t), c, symbol);
  }

  std::optional<Relocation> relocation(const Unit& unit) const override {
    const AssembledUnit& u = unitOf(unit);
    if (u.isConcrete()) return std::nullopt;
    Relocation r;
    if (!u.row) {
      r.kind = u.bytes == 8 ? "abs64" : "abs";
      r.value = u.operands[0].expr.value;
      r.text = r.value.str();
      r.formula = "S";
      return r;
    }
    const Operand* op = nullptr;
    for (const Operand& o : u.operands)
      if (o.kind != Opnd::None && (operandBits(o.kind) & u.symbolicMask)) op = &o;
    if (!op) return std::nullopt;
    const ImmLayout& l = layoutOf(op->kind);
    for (unsigned i = 0; i < l.count; ++i) r.pieces.push_back({l.pieces[i].from, l.pieces[i].width, l.pieces[i].at});
    r.value = op->expr.value;
    r.text = op->expr.reloc == Reloc::None ? r.value.str()
             : op->expr.reloc == Reloc::PcrelLo ? "%pcrel_lo(" + u.pcrelBase->str() + ")"
                                                : std::string(relocName(op->expr.reloc)) + "(" + r.value.str() + ")";
    bool store = op->kind == Opnd::MemS;
    switch (op->expr.reloc) {
      case Reloc::Hi: r.kind = "hi20", r.formula = "(S + 0x800) >> 12"; break;
      case Reloc::Lo: r.kind = store ? "lo12_s" : "lo12_i", r.formula = "S"; break;
      case Reloc::PcrelHi:
        r.kind = u.call ? "call" : "pcrel_hi20", r.formula = "(S - P + 0x800) >> 12", r.relativeTo = u.address;
        break;
      case Reloc::PcrelLo:
        r.kind = store ? "pcrel_lo12_s" : "pcrel_lo12_i", r.formula = "S - P", r.relativeTo = *u.pcrelBase;
        break;
      case Reloc::None:
        r.kind = op->kind == Opnd::BrJ    ? "jal"
                 : op->kind == Opnd::BrB  ? "branch"
                 : op->kind == Opnd::CJmp ? "rvc_jump"
                                          : "rvc_branch";
        r.formula = "S - P", r.relativeTo = u.address;
        break;
    }
    return r;
  }

  std::string tableText() const override {
    std::string out;
    for (const Row& r : instructionTable()) {
      char row[160];
      snprintf(row, sizeof row, "%s|op=%u|match=%08x|mask=%08x|operands=%u,%u,%u,%u,%u|exts=%03x|xlen=%u|flags=%03x\n",
               std::string(r.mnemonic).c_str(), unsigned(r.op), r.match, r.mask, unsigned(r.operands[0]),
               unsigned(r.operands[1]), unsigned(r.operands[2]), unsigned(r.operands[3]), unsigned(r.operands[4]),
               unsigned(r.exts),
               unsigned(r.xlen), unsigned(r.flags));
      out += row;
    }
    return out;
  }

  // Linux writes 4-byte instructions at 4-byte aligned addresses when it
  // patches ftrace and static-key sites (patch_text_nosync; CALL_OPS
  // aligns the function entry to 4). A site is counted in such words.
  unsigned patchUnitBytes(const patchcheck::Target&) const override { return 4; }
  unsigned codeAlignment() const override { return 4; }
  // With C, instructions are 2-byte aligned (Unprivileged ISA 1.5), and a
  // site holding compressed code is counted in bytes.
  unsigned minimumCodeAlignment(const patchcheck::Target& t) const override { return rvcOf(t) ? 2 : 4; }
  bool byteSites(const patchcheck::Target& t) const override { return rvcOf(t); }

  // Documentation/arch/riscv/vm-layout.rst (Sv39): modules and BPF at
  // 0xffffffff00000000-0xffffffff7fffffff, the kernel image at
  // 0xffffffff80000000-0xffffffffffffffff. RV32 (no layout documented):
  // the kernel's lowmem from PAGE_OFFSET 0xc0000000 (its first 512 MiB)
  // and modules in the vmalloc area below it (arch/riscv/include/asm/pgtable.h),
  // held sign-extended.
  std::vector<AddressRange> defaultRegions(const patchcheck::Target& t) const override {
    if (xlenOf(t) == 64)
      return {{"kernel-text", 0xffffffff80000000ull, 0xffffffffffffffffull},
              {"module-text", 0xffffffff00000000ull, 0xffffffff7fffffffull}};
    return {{"kernel-text", 0xffffffffc0000000ull, 0xffffffffdfffffffull},
            {"module-text", 0xffffffffa0000000ull, 0xffffffffbfffffffull}};
  }

  std::span<const std::string_view> fetchModels() const override { return kFetchModels; }
  std::string_view defaultFetchModel() const override { return "ziccif"; }

 private:
  struct Detail final : UnitDetail {
    explicit Detail(AssembledUnit u) : unit(std::move(u)) {}
    AssembledUnit unit;
  };

  static const AssembledUnit& unitOf(const Unit& u) {
    auto* d = dynamic_cast<const Detail*>(u.detail.get());
    if (!d) throw std::logic_error("riscv: a unit this plug-in did not assemble");
    return d->unit;
  }
  static std::string hexOf(uint32_t v) {
    char buf[16];
    snprintf(buf, sizeof buf, "0x%x", unsigned(v));
    return buf;
  }
};

}  // namespace

const patchcheck::IsaPlugin& plugin() {
  static const RiscvIsa isa;
  return isa;
}

unsigned xlenOf(const patchcheck::Target& t) {
  if (t.isa != &plugin()) throw std::logic_error("riscv::xlenOf: " + t.str() + " is not a RISC-V target");
  return infoOf(t.variant).xlen;
}

bool rvcOf(const patchcheck::Target& t) {
  if (t.isa != &plugin()) throw std::logic_error("riscv::rvcOf: " + t.str() + " is not a RISC-V target");
  return infoOf(t.variant).rvc;
}

bool fdOf(const patchcheck::Target& t) {
  if (t.isa != &plugin()) throw std::logic_error("riscv::fdOf: " + t.str() + " is not a RISC-V target");
  return infoOf(t.variant).fd;
}

}  // namespace patchcheck::riscv
