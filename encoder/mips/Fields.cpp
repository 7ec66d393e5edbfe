#include "encoder/mips/Fields.h"

namespace patchcheck::mips {

bool isRegisterKind(Opnd k) {
  return k == Opnd::Rs || k == Opnd::Rt || k == Opnd::Rd || k == Opnd::RtRs ||
         k == Opnd::Zero || k == Opnd::RsAgain || k == Opnd::RdRt;
}
bool isBranchKind(Opnd k) { return k == Opnd::Br16 || k == Opnd::Br21 || k == Opnd::Br26; }
bool isMemoryKind(Opnd k) { return k == Opnd::Mem16 || k == Opnd::Mem9; }
bool isPcRelativeKind(Opnd k) { return k == Opnd::Pc19 || k == Opnd::Pc18; }
bool isInsertSizeKind(Opnd k) { return k == Opnd::SizeIns || k == Opnd::SizeInsHi; }

int64_t valueBias(Opnd k) {
  switch (k) {
    case Opnd::SaHi: case Opnd::PosHi: return 32;
    case Opnd::SizeExt: case Opnd::LsaSa: return 1;
    case Opnd::SizeExtHi: return 33;
    case Opnd::SizeIns: return 1;      // minus pos
    case Opnd::SizeInsHi: return 33;   // minus pos
    default: return 0;
  }
}

std::optional<Range> immediateRange(Opnd k) {
  switch (k) {
    case Opnd::Simm16: return Range{-32768, 65535};  // GNU as accepts both views
    case Opnd::Uimm16: return Range{0, 65535};
    case Opnd::LiSimm: return Range{-32768, 32767};
    case Opnd::LiUimm: return Range{0, 65535};
    case Opnd::Mem16: return Range{-32768, 32767};
    case Opnd::Mem9: return Range{-256, 255};
    case Opnd::Sa: return Range{0, 31};
    case Opnd::SaHi: return Range{32, 63};
    case Opnd::Stype:
    case Opnd::Op5:
    case Opnd::Cp0Reg: return Range{0, 31};
    case Opnd::Sel: case Opnd::Bp3: case Opnd::HwSel: return Range{0, 7};
    case Opnd::Pos: return Range{0, 31};
    case Opnd::PosHi: return Range{32, 63};
    case Opnd::SizeExt: case Opnd::SizeIns: return Range{1, 32};
    case Opnd::SizeExtHi: return Range{33, 64};
    case Opnd::SizeInsHi: return Range{1, 64};  // pos + size in 33..64
    case Opnd::LsaSa: return Range{1, 4};
    case Opnd::Bp2: return Range{0, 3};
    case Opnd::HwReg: return Range{0, 31};
    case Opnd::PcOff19: return Range{-1048576, 1048572};
    case Opnd::Code20: return Range{0, 0xfffff};
    case Opnd::Code19: return Range{0, 0x7ffff};
    case Opnd::Code10Hi:
    case Opnd::Code10Lo: return Range{0, 1023};
    default: return std::nullopt;
  }
}

unsigned immediateWidth(Opnd k) {
  switch (k) {
    case Opnd::Sa: case Opnd::SaHi: case Opnd::Stype: case Opnd::Op5:
    case Opnd::Cp0Reg: case Opnd::Pos: case Opnd::PosHi: case Opnd::SizeExt:
    case Opnd::SizeExtHi: case Opnd::SizeIns: case Opnd::SizeInsHi: case Opnd::HwReg: return 5;
    case Opnd::Sel: case Opnd::Bp3: case Opnd::HwSel: return 3;
    case Opnd::LsaSa: case Opnd::Bp2: return 2;
    case Opnd::Pc19: case Opnd::PcOff19: return 19;
    case Opnd::Pc18: return 18;
    case Opnd::Simm16: case Opnd::Uimm16: case Opnd::LiSimm: case Opnd::LiUimm:
    case Opnd::LiHi: case Opnd::Mem16: case Opnd::Br16: return 16;
    case Opnd::Mem9: return 9;
    case Opnd::Br21: return 21;
    case Opnd::Br26: case Opnd::Jump26: return 26;
    case Opnd::Code20: return 20;
    case Opnd::Code19: return 19;
    case Opnd::Code10Hi: case Opnd::Code10Lo: return 10;
    default: return 0;
  }
}

unsigned immediateShift(Opnd k) {
  switch (k) {
    case Opnd::Sa: case Opnd::SaHi: case Opnd::Stype: case Opnd::Code20:
    case Opnd::Code19: case Opnd::Code10Lo: case Opnd::Pos: case Opnd::PosHi:
    case Opnd::LsaSa: case Opnd::Bp2: case Opnd::Bp3: case Opnd::HwSel: return 6;
    case Opnd::Op5: case Opnd::Code10Hi: return 16;
    case Opnd::Cp0Reg: case Opnd::SizeExt: case Opnd::SizeExtHi: case Opnd::SizeIns:
    case Opnd::SizeInsHi: case Opnd::HwReg: return 11;
    case Opnd::Mem9: return 7;
    default: return 0;
  }
}

uint32_t placeRegister(Opnd k, unsigned r) {
  r &= 31;
  switch (k) {
    case Opnd::Rs: case Opnd::Mem16: case Opnd::Mem9: return r << 21;
    case Opnd::Rt: return r << 16;
    case Opnd::Rd: return r << 11;
    case Opnd::RtRs: return (r << 21) | (r << 16);
    case Opnd::RdRt: return (r << 16) | (r << 11);
    default: return 0;
  }
}

uint32_t placeImmediate(Opnd k, uint64_t field) {
  unsigned w = immediateWidth(k);
  if (w == 0) return 0;
  return uint32_t((field & ((1ull << w) - 1)) << immediateShift(k));
}

unsigned registerOf(Opnd k, uint32_t w) {
  switch (k) {
    case Opnd::Rs: case Opnd::RtRs: case Opnd::Mem16: case Opnd::Mem9:
    case Opnd::RsAgain: return rsOf(w);
    case Opnd::Rt: return rtOf(w);
    case Opnd::Rd: case Opnd::RdRt: return rdOf(w);
    default: return 0;
  }
}

uint64_t immediateOf(Opnd k, uint32_t w) {
  unsigned width = immediateWidth(k);
  if (width == 0) return 0;
  return (w >> immediateShift(k)) & ((1ull << width) - 1);
}

int64_t signedImmediateOf(Opnd k, uint32_t w) {
  uint64_t v = immediateOf(k, w);
  unsigned width = immediateWidth(k);
  bool isSigned = k == Opnd::Simm16 || k == Opnd::LiSimm || k == Opnd::Mem16 ||
                  k == Opnd::Mem9 || isBranchKind(k) || isPcRelativeKind(k) ||
                  k == Opnd::PcOff19;
  if (!isSigned || width == 0) return int64_t(v);
  uint64_t sign = 1ull << (width - 1);
  return int64_t((v ^ sign) - sign);
}

}  // namespace patchcheck::mips
