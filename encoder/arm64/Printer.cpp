#include "encoder/arm64/Printer.h"

#include <charconv>

#include "encoder/arm64/Bitmask.h"
#include "encoder/arm64/Decoder.h"
#include "encoder/arm64/Operands.h"
#include "encoder/arm64/Registers.h"
#include "encoder/arm64/SystemNames.h"

namespace patchcheck::arm64 {
namespace {

// Appends without temporaries: the printer is on the disassembler's hot path.
void appendHex(std::string& s, uint64_t v, unsigned minDigits = 1) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  s += "0x";
  for (size_t n = size_t(r.ptr - buf); n < minDigits; ++n) s += '0';
  s.append(buf, r.ptr);
}

void appendDecimal(std::string& s, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, r.ptr);
}

int64_t signExtend(uint64_t v, unsigned bits) {
  uint64_t m = uint64_t(1) << (bits - 1);
  v &= (m << 1) - 1;
  return int64_t((v ^ m) - m);
}

class OperandPrinter {
 public:
  OperandPrinter(const InstrDesc& d, uint32_t w, uint64_t address, std::string& out)
      : d_(d), w_(w), address_(address), s_(out) {}

  void print(Opnd k) {
    Layout l = layoutOf(k);
    auto field = [&](unsigned i) { return l.fields[i].of(w_); };
    if (const RegisterKind* rk = registerKind(k); rk && !isMemoryKind(k)) {
      s_ += gprName(rk->field.of(w_), rk->wide, rk->sp);
      return;
    }
    switch (k) {
      case Opnd::None: return;
      case Opnd::Keyword: s_ += d_.keyword; return;
      case Opnd::Label26: return target(signExtend(field(0), 26) * 4);
      case Opnd::Label19: return target(signExtend(field(0), 19) * 4);
      case Opnd::Label14: return target(signExtend(field(0), 14) * 4);
      case Opnd::AdrLabel: return target(signExtend((field(0) << 2) | field(1), 21));
      case Opnd::AdrpLabel:
        appendHex(s_, (address_ & ~0xfffull) + uint64_t(signExtend((field(0) << 2) | field(1), 21) * 4096));
        return;
      case Opnd::BitW: s_ += '#', appendDecimal(s_, field(0)); return;
      case Opnd::BitX: s_ += '#', appendDecimal(s_, 32 + field(0)); return;
      case Opnd::UdfImm16: s_ += '#', appendDecimal(s_, field(0)); return;
      case Opnd::Imm16: case Opnd::Hint7: case Opnd::Imm4: case Opnd::IsbOpt: s_ += '#', appendHex(s_, field(0)); return;
      case Opnd::Barrier:
        if (auto name = barrierName(field(0))) s_ += *name;
        else s_ += '#', appendHex(s_, field(0), 2);
        return;
      case Opnd::AddImm:
        s_ += '#', appendHex(s_, field(0));
        if (field(1)) s_ += ", lsl #12";
        return;
      case Opnd::ShiftedX: case Opnd::ShiftedW: case Opnd::LogShiftedX: case Opnd::LogShiftedW: {
        bool wide = k == Opnd::ShiftedX || k == Opnd::LogShiftedX;
        s_ += gprName(field(0), wide, false);
        if (field(1) || field(2)) {
          s_ += ", ";
          s_ += shiftName(field(1));
          s_ += " #";
          appendDecimal(s_, field(2));
        }
        return;
      }
      case Opnd::ExtendedX: case Opnd::ExtendedW: return extended(k == Opnd::ExtendedX, field(0), field(1), field(2));
      case Opnd::BitmaskX: case Opnd::MovBitmaskX:
        s_ += '#', appendHex(s_, decodeBitmask(field(0), 64).value_or(0));
        return;
      case Opnd::BitmaskW: case Opnd::MovBitmaskW:
        s_ += '#', appendHex(s_, decodeBitmask(field(0), 32).value_or(0));
        return;
      case Opnd::InvBitmaskX:  // assembler-only rows: the value bic was written with
        s_ += '#', appendHex(s_, ~decodeBitmask(field(0), 64).value_or(0));
        return;
      case Opnd::InvBitmaskW:
        s_ += '#', appendHex(s_, ~decodeBitmask(field(0), 32).value_or(0) & 0xffffffffull);
        return;
      case Opnd::WideX: case Opnd::WideW:
        s_ += '#', appendHex(s_, field(0));
        if (field(1)) s_ += ", lsl #", appendDecimal(s_, 16 * field(1));
        return;
      case Opnd::MovzX: case Opnd::MovzW: case Opnd::MovnX: case Opnd::MovnW: {
        uint64_t v = uint64_t(field(0)) << (16 * field(1));
        if (k == Opnd::MovnX) v = ~v;
        if (k == Opnd::MovnW) v = ~v & 0xffffffffull;
        s_ += '#', appendHex(s_, v);
        return;
      }
      case Opnd::MemBase: base(field(0)), s_ += ']'; return;
      case Opnd::MemU12B: case Opnd::MemU12H: case Opnd::MemU12W: case Opnd::MemU12X:
        return memory(field(0), int64_t(field(1)) << accessScale(k), false);
      case Opnd::MemS9: return memory(field(0), signExtend(field(1), 9), false);
      case Opnd::MemPre9: return memory(field(0), signExtend(field(1), 9), true);
      case Opnd::MemP7W: case Opnd::MemP7X:
        return memory(field(0), signExtend(field(1), 7) << accessScale(k), false);
      case Opnd::MemP7PreW: case Opnd::MemP7PreX:
        return memory(field(0), signExtend(field(1), 7) << accessScale(k), true);
      case Opnd::Post9: s_ += '#', appendDecimal(s_, signExtend(field(0), 9)); return;
      case Opnd::Post7W: case Opnd::Post7X:
        s_ += '#', appendDecimal(s_, signExtend(field(0), 7) << accessScale(k));
        return;
      case Opnd::MemRegB: case Opnd::MemRegH: case Opnd::MemRegW: case Opnd::MemRegX: {
        unsigned option = field(2), scale = accessScale(k);
        bool s = field(3);
        base(field(0));
        s_ += ", ";
        s_ += gprName(field(1), option & 1, false);
        if (option == 3) {
          if (s) s_ += ", lsl #", appendDecimal(s_, scale);
        } else {
          s_ += ", ";
          s_ += extendName(option);
          if (s) s_ += " #", appendDecimal(s_, scale);
        }
        s_ += ']';
        return;
      }
      case Opnd::Cond: s_ += conditionName(field(0)); return;
      case Opnd::InvCond: s_ += conditionName(field(0) ^ 1); return;  // the alias names the inverse
      case Opnd::SysReg: {
        const SystemRegister* r = systemRegister(field(0));
        if (r) {
          s_ += r->name;
        } else {  // not in our list (the row's rule keeps such words out)
          uint32_t e = field(0);
          s_ += "s" + std::to_string(2 + (e >> 14)) + "_" + std::to_string((e >> 11) & 7) + "_c" +
                std::to_string((e >> 7) & 15) + "_c" + std::to_string((e >> 3) & 15) + "_" + std::to_string(e & 7);
        }
        return;
      }
      default: return;
    }
  }

 private:
  const InstrDesc& d_;
  uint32_t w_;
  uint64_t address_;
  std::string& s_;

  void target(int64_t offset) { appendHex(s_, address_ + uint64_t(offset)); }

  void base(unsigned n) {
    s_ += '[';
    s_ += gprName(n, true, true);
  }

  void memory(unsigned n, int64_t offset, bool pre) {
    base(n);
    if (offset || pre) s_ += ", #", appendDecimal(s_, offset);
    s_ += pre ? "]!" : "]";
  }

  // uxtx (uxtw in a 32-bit row) with sp as Rd or Rn prints as lsl, and
  // without it when the amount is 0.
  void extended(bool wideRow, unsigned rm, unsigned option, unsigned amount) {
    s_ += gprName(rm, wideRow && (option & 3) == 3, false);
    bool sp = false;
    for (Opnd o : d_.operands) {
      if ((o == Opnd::XdSp || o == Opnd::WdSp) && rdOf(w_) == 31) sp = true;
      if ((o == Opnd::XnSp || o == Opnd::WnSp) && rnOf(w_) == 31) sp = true;
    }
    if (sp && option == (wideRow ? 3u : 2u)) {
      if (amount) s_ += ", lsl #", appendDecimal(s_, amount);
      return;
    }
    s_ += ", ";
    s_ += extendName(option);
    if (amount) s_ += " #", appendDecimal(s_, amount);
  }
};

}  // namespace

std::string disassemble(uint32_t w, uint64_t address) {
  std::string s;
  s.reserve(40);
  const InstrDesc* d = decode(w);
  if (!d) {
    s = ".inst\t";
    appendHex(s, w, 8);
    return s;
  }
  s += d->mnemonic;
  OperandPrinter printer(*d, w, address, s);
  for (unsigned i = 0; i < d->operandCount(); ++i) {
    s += i ? ", " : "\t";
    printer.print(d->operands[i]);
  }
  return s;
}

}  // namespace patchcheck::arm64
