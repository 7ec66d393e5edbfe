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
