#include "encoder/mips/Target.h"

namespace patchcheck::mips {

std::optional<Isa> parseIsa(std::string_view s) {
  if (s == "mips32r2") return Isa::Mips32R2;
  if (s == "mips64r2") return Isa::Mips64R2;
  if (s == "mips32r6") return Isa::Mips32R6;
  if (s == "mips64r6") return Isa::Mips64R6;
  return std::nullopt;
}

std::optional<Abi> parseAbi(std::string_view s) {
  if (s == "o32" || s == "32") return Abi::O32;
  if (s == "n32") return Abi::N32;
  if (s == "n64" || s == "64") return Abi::N64;
  return std::nullopt;
}

std::string_view name(Isa i) {
  switch (i) {
    case Isa::Mips32R2: return "mips32r2";
    case Isa::Mips64R2: return "mips64r2";
    case Isa::Mips32R6: return "mips32r6";
    case Isa::Mips64R6: return "mips64r6";
  }
  return "?";
}

std::string_view name(Abi a) {
  switch (a) {
    case Abi::O32: return "o32";
    case Abi::N32: return "n32";
    case Abi::N64: return "n64";
  }
  return "?";
}

Abi defaultAbi(Isa i) {
  return (i == Isa::Mips64R2 || i == Isa::Mips64R6) ? Abi::N64 : Abi::O32;
}

std::optional<std::string> targetProblem(const Target& t) {
  if (!t.is64() && t.abi != Abi::O32)
    return "ABI " + std::string(name(t.abi)) + " needs a 64-bit ISA, not " +
           std::string(name(t.isa));
  return std::nullopt;
}

std::string Target::str() const {
  return std::string(name(isa)) + "/" + std::string(name(abi)) + "/" +
         std::string(name(endian));
}

}  // namespace patchcheck::mips
