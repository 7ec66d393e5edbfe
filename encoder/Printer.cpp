#include "encoder/Printer.h"

#include <charconv>

#include "encoder/Decoder.h"
#include "encoder/Fields.h"
#include "encoder/Registers.h"

namespace patchcheck::mips {
namespace {

// Appends without temporaries: the printer is on the disassembler's hot path.
void appendHex(std::string& s, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  s += "0x";
  s.append(buf, r.ptr);
}

void appendDecimal(std::string& s, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, r.ptr);
}

uint64_t wrap(uint64_t a, const Target& t) { return t.is64() ? a : (a & 0xffffffffull); }

// One operand as objdump prints it: ABI register names, signed decimal
// immediates and offsets, hex for unsigned fields, targets as addresses.
void appendOperand(std::string& s, Opnd k, uint32_t w, uint64_t address, const Target& t) {
  switch (k) {
    case Opnd::Rs: case Opnd::Rt: case Opnd::Rd: case Opnd::RtRs: case Opnd::RsAgain:
      s += gprName(registerOf(k, w), t.abi);
      return;
    case Opnd::Zero: s += "zero"; return;
    case Opnd::Simm16: case Opnd::LiSimm: appendDecimal(s, signedImmediateOf(k, w)); return;
    case Opnd::Mem16: case Opnd::Mem9:
      appendDecimal(s, signedImmediateOf(k, w));
      s += '(';
      s += gprName(registerOf(k, w), t.abi);
      s += ')';
      return;
    case Opnd::Br16: case Opnd::Br21: case Opnd::Br26:
      appendHex(s, wrap(address + 4 + uint64_t(signedImmediateOf(k, w) * 4), t));
      return;
    case Opnd::Jump26:
      appendHex(s, wrap(((address + 4) & ~0x0fffffffull) | (immediateOf(k, w) << 2), t));
      return;
    case Opnd::Cp0Reg:
      s += '$';
      appendDecimal(s, int64_t(immediateOf(k, w)));
      return;
    case Opnd::Sel: appendDecimal(s, int64_t(immediateOf(k, w))); return;
    case Opnd::SaHi: appendHex(s, immediateOf(k, w) + 32); return;
    default: appendHex(s, immediateOf(k, w)); return;
  }
}

}  // namespace

std::string disassemble(uint32_t w, uint64_t address, const Target& t, Spelling spelling) {
  const InstrDesc* d =
      spelling == Spelling::NoAliases ? decodeCanonical(w, t.isa) : decode(w, t.isa);
  std::string s;
  s.reserve(40);
  if (!d) {
    char buf[8];
    auto r = std::to_chars(buf, buf + sizeof buf, w, 16);
    s = ".word\t0x";
    s.append(8 - size_t(r.ptr - buf), '0');
    s.append(buf, r.ptr);
    return s;
  }
  s += d->mnemonic;
  for (unsigned i = 0; i < d->operandCount(); ++i) {
    s += i ? ',' : '\t';
    appendOperand(s, d->operands[i], w, address, t);
  }
  return s;
}

}  // namespace patchcheck::mips
