#pragma once
// RISC-V's relocation operators in GNU as syntax (%hi, %lo, %pcrel_hi,
// %pcrel_lo) and how each splits an address (RISC-V ELF psABI,
// "Relocations": HI20/LO12 and PCREL_HI20/PCREL_LO12). The low part is
// sign-extended when it is added, so the high part rounds: hi = (x +
// 0x800) >> 12, lo = x - (hi << 12), in -2048..2047.
#include <cstdint>
#include <string_view>
#include <variant>

#include "encoder/Value.h"
#include "encoder/gnu/Expr.h"

namespace patchcheck::riscv {

enum class Reloc : uint8_t { None, Hi, Lo, PcrelHi, PcrelLo };

struct Expr {
  Reloc reloc = Reloc::None;
  Value value;           // %pcrel_lo: the address of the auipc it pairs with
  bool usesLabel = false;  // names a label or `.` (GNU as knows it only after layout)
  bool isConstant() const { return value.isConstant(); }
};

// The 20-bit high part and the sign-extended 12-bit low part of x.
constexpr uint32_t hi20(uint64_t x) { return uint32_t(((x + 0x800) >> 12) & 0xfffff); }
constexpr int64_t lo12(uint64_t x) { return int64_t(int32_t(uint32_t(x) << 20) >> 20); }
std::string_view relocName(Reloc);

// Parses a whole operand with RISC-V's operators.
std::variant<Expr, gnu::ExprError> parseExpression(std::string_view text, const gnu::NameResolver&);

}  // namespace patchcheck::riscv
