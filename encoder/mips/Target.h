#pragma once
// Which MIPS variant a word is encoded for: ISA release and width, byte
// order, and ABI (the ABI decides register names and calling convention).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "encoder/Target.h"

namespace patchcheck::mips {

enum class Isa : uint8_t { Mips32R2, Mips64R2, Mips32R6, Mips64R6 };
using Endian = patchcheck::Endian;  // encoder/Target.h
enum class Abi : uint8_t { O32, N32, N64 };

// A set of ISAs, one bit per Isa; the instruction table uses it for
// availability.
using IsaSet = uint8_t;
constexpr IsaSet bit(Isa i) { return IsaSet(1u << unsigned(i)); }
constexpr IsaSet kM32R2 = bit(Isa::Mips32R2), kM64R2 = bit(Isa::Mips64R2),
                 kM32R6 = bit(Isa::Mips32R6), kM64R6 = bit(Isa::Mips64R6);
constexpr IsaSet kAll = kM32R2 | kM64R2 | kM32R6 | kM64R6;
constexpr IsaSet kPreR6 = kM32R2 | kM64R2;
constexpr IsaSet kR6 = kM32R6 | kM64R6;
constexpr IsaSet k64 = kM64R2 | kM64R6;
constexpr IsaSet kPreR6_64 = kM64R2;
constexpr IsaSet kR6_64 = kM64R6;

struct Target {
  Isa isa = Isa::Mips64R2;
  Endian endian = Endian::Big;
  Abi abi = Abi::N64;

  constexpr Target() = default;
  constexpr Target(Isa i, Endian e, Abi a) : isa(i), endian(e), abi(a) {}
  // The MIPS view of a neutral target of the MIPS plug-in (throws for
  // another ISA's), and back. Implicit for the MIPS plug-in's own code and
  // tests; the core holds only patchcheck::Target and never sees this type.
  Target(const patchcheck::Target&);
  operator patchcheck::Target() const;  // the same target, as the core holds it

  bool is64() const { return isa == Isa::Mips64R2 || isa == Isa::Mips64R6; }
  bool isR6() const { return isa == Isa::Mips32R6 || isa == Isa::Mips64R6; }
  unsigned gprBits() const { return is64() ? 64 : 32; }
  bool has(IsaSet s) const { return (s & bit(isa)) != 0; }
  std::string str() const;  // "mips64r2/n64/big"
};

std::optional<Isa> parseIsa(std::string_view);
std::optional<Abi> parseAbi(std::string_view);
std::string_view name(Isa);
std::string_view name(Abi);

// The ABI a bare ISA implies (o32 for 32-bit, n64 for 64-bit).
Abi defaultAbi(Isa);
// Why this combination cannot be used, or nothing when it can.
std::optional<std::string> targetProblem(const Target&);

}  // namespace patchcheck::mips
