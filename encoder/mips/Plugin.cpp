#include "encoder/mips/Plugin.h"

#include <array>
#include <stdexcept>

#include "encoder/mips/Printer.h"

namespace patchcheck::mips {
namespace {

constexpr std::array<std::string_view, 4> kVariants = {"mips32r2", "mips64r2", "mips32r6", "mips64r6"};
constexpr std::array<std::string_view, 3> kAbis = {"o32", "n32", "n64"};

class MipsIsa final : public patchcheck::IsaPlugin {
 public:
  std::string_view family() const override { return "mips"; }
  std::span<const std::string_view> variants() const override { return kVariants; }
  std::span<const std::string_view> abis() const override { return kAbis; }
  uint8_t defaultAbi(uint8_t variant) const override { return uint8_t(mips::defaultAbi(mips::Isa(variant))); }
  uint8_t defaultVariant() const override { return uint8_t(mips::Isa::Mips64R2); }
  unsigned registerBits(uint8_t variant) const override { return Target{mips::Isa(variant), Endian::Big, Abi::O32}.gprBits(); }
  std::optional<std::string> problem(const patchcheck::Target& t) const override {
    if (t.abi >= kAbis.size()) return "the ABI of " + std::string(t.variantName()) + " is one of o32, n32, n64";
    return targetProblem(targetOf(t));
  }
  std::string disassemble(uint64_t value, unsigned, uint64_t address, const patchcheck::Target& t) const override {
    return mips::disassemble(uint32_t(value), address, targetOf(t));
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
