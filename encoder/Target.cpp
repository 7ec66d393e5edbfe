#include "encoder/Target.h"

#include "encoder/Isa.h"

namespace patchcheck {

std::string_view name(Endian e) { return e == Endian::Big ? "big" : "little"; }

std::optional<Endian> parseEndian(std::string_view s) {
  if (s == "big" || s == "be" || s == "eb") return Endian::Big;
  if (s == "little" || s == "le" || s == "el") return Endian::Little;
  return std::nullopt;
}

std::string_view Target::variantName() const { return isa->variants()[variant]; }
std::string_view Target::abiName() const { return abi < isa->abis().size() ? isa->abis()[abi] : "?"; }
unsigned Target::registerBits() const { return isa->registerBits(variant); }
std::optional<std::string> Target::problem() const { return isa->problem(*this); }

std::string Target::str() const {
  return std::string(variantName()) + "/" + std::string(abiName()) + "/" + std::string(name(endian));
}

}  // namespace patchcheck

namespace patchcheck {

std::string IsaPlugin::disassembleBytes(std::span<const uint8_t> bytes, uint64_t address, const Target& t) const {
  uint64_t value = 0;
  bool big = instructionByteOrder(t) == Endian::Big;
  for (size_t k = 0; k < bytes.size() && k < 8; ++k)
    value |= uint64_t(bytes[k]) << (8 * (big ? bytes.size() - 1 - k : k));
  return disassemble(value, unsigned(bytes.size()), address, t);
}

// An ISA without a patching half of its own: nothing restricts what may
// change under a running CPU, and it has no patch breakpoint.
const IsaPatching& IsaPlugin::patching() const {
  static const IsaPatching none;
  return none;
}

}  // namespace patchcheck
