#pragma once
// An x86-64 instruction as fetched, decoded by Zydis from its concrete
// bytes. Bytes whose value depends on the placement may stand only in an
// immediate or a displacement (encoder/x86_64/Length.h refuses the rest);
// those fields are read from the instruction's term, so a symbolic call
// target or rip-relative address stays a term.
#include <Zydis/Zydis.h>
#include <z3++.h>

#include <array>
#include <optional>
#include <string>

#include "model/Instruction.h"

namespace patchcheck::x86_64 {

struct Decoded {
  enum class Status {
    Ok,
    Invalid,             // no instruction: #UD
    PlacementDependent,  // a symbolic byte outside an immediate or displacement
  };
  Status status = Status::Invalid;
  ZydisDecodedInstruction insn{};
  std::array<ZydisDecodedOperand, ZYDIS_MAX_OPERAND_COUNT> operands{};
  z3::expr term;                  // 8 * bytes bits, byte k at bits 8k+7..8k
  std::array<uint8_t, ZYDIS_MAX_INSTRUCTION_LENGTH> bytes{};  // symbolic ones read as 0
  std::array<bool, ZYDIS_MAX_INSTRUCTION_LENGTH> known{};     // which bytes are numerals
  unsigned fetched = 0;           // bytes handed over

  explicit Decoded(const z3::expr& t) : term(t) {}

  unsigned length() const { return insn.length; }
  // `bits` bits from byte `offset` on, as a term (a numeral when the bytes are concrete).
  z3::expr field(unsigned offset, unsigned bits) const;
  // The encoded displacement, sign-extended to 64 bits.
  z3::expr displacement() const;
  // The encoded immediate behind visible operand i, at `bits` bits
  // (extended as the encoding says), or the implicit constant (shl's 1).
  z3::expr immediate(unsigned i, unsigned bits) const;
  // AT&T text for messages: "callq 0x...", "(bad)".
  std::string text(uint64_t address = 0) const;
  // The bytes in hex, "??" for one the placement decides: "e8 ?? ?? ?? ??".
  std::string hex() const;

  bool concrete = true;  // every byte is a numeral
};

// Decodes the instruction. Throws std::logic_error when the core handed
// over fewer or more bytes than the instruction has.
Decoded decode(const Instruction&);

// The bytes of `fetched` as an instruction term (byte k at bits 8k+7..8k).
z3::expr instructionTerm(z3::context&, const uint8_t* bytes, unsigned n);

}  // namespace patchcheck::x86_64
