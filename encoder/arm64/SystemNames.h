#pragma once
// The names A64 syntax gives to numbers: condition codes, barrier options,
// shift and extend operators, and the system registers mrs and msr know.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace patchcheck::arm64 {

// Condition codes 0..15 (eq, ne, cs, cc, ... al, nv) as objdump prints
// them; the parser also takes hs (= cs) and lo (= cc).
std::string_view conditionName(unsigned cond);
std::optional<unsigned> parseCondition(std::string_view);

// dsb/dmb options: CRm values with a name (sy, ish, ...); others print #n.
std::optional<std::string_view> barrierName(unsigned crm);
std::optional<unsigned> parseBarrier(std::string_view);

// Shift types of shifted-register operands: lsl, lsr, asr, ror.
std::string_view shiftName(unsigned type);
std::optional<unsigned> parseShift(std::string_view);
// Extend options 0..7: uxtb, uxth, uxtw, uxtx, sxtb, sxth, sxtw, sxtx.
std::string_view extendName(unsigned option);
std::optional<unsigned> parseExtend(std::string_view);

// A system register: its name and o0:op1:CRn:CRm:op2 (bits 19-5 of
// mrs/msr, where o0 = op0 - 2), and which way it may be accessed.
struct SystemRegister {
  std::string_view name;
  uint16_t encoding;
  bool readable, writable;
};
std::span<const SystemRegister> systemRegisters();
const SystemRegister* systemRegister(uint32_t encoding);
const SystemRegister* systemRegisterNamed(std::string_view);  // case-insensitive

}  // namespace patchcheck::arm64
