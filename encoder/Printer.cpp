#include "encoder/Printer.h"

#include <cstdio>

#include "encoder/Decoder.h"
#include "encoder/Fields.h"
#include "encoder/Registers.h"

namespace patchcheck::mips {
namespace {

std::string hex(uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

uint64_t wrap(uint64_t a, const Target& t) { return t.is64() ? a : (a & 0xffffffffull); }

std::string operandText(Opnd k, uint32_t w, uint64_t address, const Target& t) {
  switch (k) {
    case Opnd::Rs: case Opnd::Rt: case Opnd::Rd: case Opnd::RtRs: case Opnd::RsAgain:
      return std::string(gprName(registerOf(k, w), t.abi));
    case Opnd::Zero: return "zero";
    case Opnd::Simm16: case Opnd::LiSimm: return std::to_string(signedImmediateOf(k, w));
    case Opnd::Mem16: case Opnd::Mem9:
      return std::to_string(signedImmediateOf(k, w)) + "(" +
             std::string(gprName(registerOf(k, w), t.abi)) + ")";
    case Opnd::Br16: case Opnd::Br21: case Opnd::Br26:
      return hex(wrap(address + 4 + uint64_t(signedImmediateOf(k, w) * 4), t));
    case Opnd::Jump26:
      return hex(wrap(((address + 4) & ~0x0fffffffull) | (immediateOf(k, w) << 2), t));
    case Opnd::Cp0Reg: return "$" + std::to_string(immediateOf(k, w));
    case Opnd::Sel: return std::to_string(immediateOf(k, w));
    case Opnd::SaHi: return hex(immediateOf(k, w) + 32);
    default: return hex(immediateOf(k, w));
  }
}

}  // namespace

std::string disassemble(uint32_t w, uint64_t address, const Target& t, Spelling spelling) {
  const InstrDesc* d =
      spelling == Spelling::NoAliases ? decodeCanonical(w, t.isa) : decode(w, t.isa);
  if (!d) {
    char buf[32];
    snprintf(buf, sizeof buf, ".word\t0x%08x", w);
    return buf;
  }
  std::string s(d->mnemonic);
  for (unsigned i = 0; i < d->operandCount(); ++i)
    s += (i ? "," : "\t") + operandText(d->operands[i], w, address, t);
  return s;
}

}  // namespace patchcheck::mips
