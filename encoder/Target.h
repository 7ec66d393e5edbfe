#pragma once
// The machine a spec runs on: an ISA plug-in (encoder/Isa.h), one of its
// variants, a byte order and an ABI. The core names no ISA: it holds a
// Target and asks the plug-in.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace patchcheck {

enum class Endian : uint8_t { Big, Little };
std::string_view name(Endian);
std::optional<Endian> parseEndian(std::string_view);  // big/be/eb, little/le/el

class IsaPlugin;

struct Target {
  const IsaPlugin* isa = nullptr;  // the plug-in (encoder/IsaRegistry.h)
  uint8_t variant = 0;       // the plug-in's variant ("mips64r2")
  uint8_t abi = 0;           // the plug-in's ABI ("n64")
  Endian endian = Endian::Big;

  std::string_view variantName() const;
  std::string_view abiName() const;
  std::string str() const;  // "mips64r2/n64/big"
  // Width of a general-purpose register. Addresses are 64-bit terms
  // everywhere; a target with narrower registers holds them sign-extended
  // (32-bit MIPS: KSEG0 0x80000000 is 0xffffffff80000000).
  unsigned registerBits() const;
  bool wide() const { return registerBits() == 64; }
  // Why this variant and ABI cannot be used together, or nothing.
  std::optional<std::string> problem() const;

  bool operator==(const Target&) const = default;
};

}  // namespace patchcheck
