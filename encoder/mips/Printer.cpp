#include "encoder/mips/Printer.h"

#include <charconv>

#include "encoder/mips/Decoder.h"
#include "encoder/mips/Fields.h"
#include "encoder/mips/Registers.h"

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
// The bit-field position a row's word holds (ins/ext and their d-forms).
int64_t positionOf(const InstrDesc& d, uint32_t w) {
  for (Opnd k : d.operands)
    if (k == Opnd::Pos || k == Opnd::PosHi) return int64_t(immediateOf(k, w)) + valueBias(k);
  return 0;
}

void appendOperand(std::string& s, const InstrDesc& d, Opnd k, uint32_t w, uint64_t address,
                   const Target& t) {
  switch (k) {
    case Opnd::Rs: case Opnd::Rt: case Opnd::Rd: case Opnd::RtRs: case Opnd::RsAgain:
      s += gprName(registerOf(k, w), t.abi);
      return;
    case Opnd::RdRt: {
      // The fields should agree (else UNPREDICTABLE). As objdump: one that
      // is zero gives way to the other; two different ones are "rd or rt".
      unsigned d = rdOf(w), r = rtOf(w);
      s += gprName(d == 0 ? r : d, t.abi);
      if (d != r && d != 0 && r != 0) {
        s += " or ";
        s += gprName(r, t.abi);
      }
      return;
    }
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
    case Opnd::Pc19:
      appendHex(s, wrap(address + uint64_t(signedImmediateOf(k, w) * 4), t));
      return;
    case Opnd::Pc18:
      appendHex(s, wrap((address & ~uint64_t(7)) + uint64_t(signedImmediateOf(k, w) * 8), t));
      return;
    case Opnd::PcOff19: appendDecimal(s, signedImmediateOf(k, w) * 4); return;
    case Opnd::SizeIns: case Opnd::SizeInsHi:  // objdump: msb - lsb + 1, as 32 bits
      appendHex(s, uint32_t(int64_t(immediateOf(k, w)) + valueBias(k) - positionOf(d, w)));
      return;
    case Opnd::Bp2: case Opnd::Bp3: case Opnd::HwSel:
      appendDecimal(s, int64_t(immediateOf(k, w)));
      return;
    case Opnd::Cp0Reg: case Opnd::HwReg:
      s += '$';
      appendDecimal(s, int64_t(immediateOf(k, w)));
      return;
    case Opnd::Sel: appendDecimal(s, int64_t(immediateOf(k, w))); return;
    default: appendHex(s, immediateOf(k, w) + uint64_t(valueBias(k))); return;
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
    if (const ExcludedClass* c = excludedClassOf(w, t.isa)) {
      s += "\t# ";
      s += c->name;
      s += " (not modelled)";
    }
    return s;
  }
  s += d->mnemonic;
  for (unsigned i = 0; i < d->operandCount(); ++i) {
    s += i ? ',' : '\t';
    appendOperand(s, *d, d->operands[i], w, address, t);
  }
  return s;
}

}  // namespace patchcheck::mips
