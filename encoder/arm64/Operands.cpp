#include "encoder/arm64/Operands.h"

namespace patchcheck::arm64 {
namespace {

constexpr BitField kRd{0, 5}, kRn{5, 5}, kRm{16, 5}, kRt2{10, 5};

constexpr Layout one(BitField a) { return Layout{{a}, 1}; }
constexpr Layout two(BitField a, BitField b) { return Layout{{a, b}, 2}; }
constexpr Layout three(BitField a, BitField b, BitField c) { return Layout{{a, b, c}, 3}; }
constexpr Layout four(BitField a, BitField b, BitField c, BitField d) { return Layout{{a, b, c, d}, 4}; }

constexpr RegisterKind kRegisters[] = {
    {kRd, true, false}, {kRd, false, false}, {kRd, true, true}, {kRd, false, true},    // Xd Wd XdSp WdSp
    {kRn, true, false}, {kRn, false, false}, {kRn, true, true}, {kRn, false, true},    // Xn Wn XnSp WnSp
    {kRm, true, false}, {kRm, false, false},                                           // Xm Wm
    {kRd, true, false}, {kRd, false, false}, {kRt2, true, false}, {kRt2, false, false},  // Xt Wt Xt2 Wt2
};
constexpr RegisterKind kBase{kRn, true, true};
// cinc and its kin: the register is printed from Rn (Rm holds a copy).
constexpr RegisterKind kSameX{kRn, true, false}, kSameW{kRn, false, false};

}  // namespace

Layout layoutOf(Opnd k) {
  switch (k) {
    case Opnd::None: case Opnd::Keyword: return {};
    case Opnd::Xd: case Opnd::Wd: case Opnd::XdSp: case Opnd::WdSp: case Opnd::Xt: case Opnd::Wt:
      return one(kRd);
    case Opnd::Xn: case Opnd::Wn: case Opnd::XnSp: case Opnd::WnSp: case Opnd::MemBase: return one(kRn);
    case Opnd::Xm: case Opnd::Wm: return one(kRm);
    case Opnd::Xt2: case Opnd::Wt2: return one(kRt2);
    case Opnd::Label26: return one({0, 26});
    case Opnd::Label19: return one({5, 19});
    case Opnd::Label14: return one({5, 14});
    // immhi, then immlo: the offset is immhi:immlo
    case Opnd::AdrLabel: case Opnd::AdrpLabel: return two({5, 19}, {29, 2});
    case Opnd::BitW: case Opnd::BitX: return one({19, 5});
    case Opnd::Imm16: return one({5, 16});
    case Opnd::UdfImm16: return one({0, 16});
    case Opnd::Hint7: return one({5, 7});
    case Opnd::Barrier: case Opnd::IsbOpt: case Opnd::Imm4: return one({8, 4});
    case Opnd::AddImm: return two({10, 12}, {22, 1});
    case Opnd::ShiftedX: case Opnd::LogShiftedX: return three(kRm, {22, 2}, {10, 6});
    case Opnd::ShiftedW: case Opnd::LogShiftedW: return three(kRm, {22, 2}, {10, 5});
    case Opnd::ExtendedX: case Opnd::ExtendedW: return three(kRm, {13, 3}, {10, 3});
    case Opnd::BitmaskX: case Opnd::MovBitmaskX: case Opnd::InvBitmaskX: return one({10, 13});
    case Opnd::BitmaskW: case Opnd::MovBitmaskW: case Opnd::InvBitmaskW: return one({10, 12});
    case Opnd::WideX: case Opnd::MovzX: case Opnd::MovnX: return two({5, 16}, {21, 2});
    case Opnd::WideW: case Opnd::MovzW: case Opnd::MovnW: return two({5, 16}, {21, 1});
    case Opnd::MemU12B: case Opnd::MemU12H: case Opnd::MemU12W: case Opnd::MemU12X:
      return two(kRn, {10, 12});
    case Opnd::MemS9: case Opnd::MemPre9: return two(kRn, {12, 9});
    case Opnd::Post9: return one({12, 9});
    // Rn, Rm, option, S
    case Opnd::MemRegB: case Opnd::MemRegH: case Opnd::MemRegW: case Opnd::MemRegX:
      return four(kRn, kRm, {13, 3}, {12, 1});
    case Opnd::MemP7W: case Opnd::MemP7X: case Opnd::MemP7PreW: case Opnd::MemP7PreX:
      return two(kRn, {15, 7});
    case Opnd::Post7W: case Opnd::Post7X: return one({15, 7});
    case Opnd::SysReg: return one({5, 15});
    case Opnd::Cond: case Opnd::InvCond: return one({12, 4});
    case Opnd::XnRm: case Opnd::WnRm: return two(kRn, kRm);
  }
  return {};
}

const RegisterKind* registerKind(Opnd k) {
  if (k >= Opnd::Xd && k <= Opnd::Wt2) return &kRegisters[unsigned(k) - unsigned(Opnd::Xd)];
  if (isMemoryKind(k)) return &kBase;
  if (k == Opnd::XnRm) return &kSameX;
  if (k == Opnd::WnRm) return &kSameW;
  return nullptr;
}

unsigned accessScale(Opnd k) {
  switch (k) {
    case Opnd::MemU12B: case Opnd::MemRegB: return 0;
    case Opnd::MemU12H: case Opnd::MemRegH: return 1;
    case Opnd::MemU12W: case Opnd::MemRegW: case Opnd::MemP7W: case Opnd::MemP7PreW: case Opnd::Post7W:
      return 2;
    case Opnd::MemU12X: case Opnd::MemRegX: case Opnd::MemP7X: case Opnd::MemP7PreX: case Opnd::Post7X:
      return 3;
    default: return 0;  // unscaled
  }
}

bool isMemoryKind(Opnd k) {
  switch (k) {
    case Opnd::MemU12B: case Opnd::MemU12H: case Opnd::MemU12W: case Opnd::MemU12X: case Opnd::MemS9:
    case Opnd::MemPre9: case Opnd::MemBase: case Opnd::MemRegB: case Opnd::MemRegH: case Opnd::MemRegW:
    case Opnd::MemRegX: case Opnd::MemP7W: case Opnd::MemP7X: case Opnd::MemP7PreW: case Opnd::MemP7PreX:
      return true;
    default: return false;
  }
}

bool isLabelKind(Opnd k) {
  return k == Opnd::Label26 || k == Opnd::Label19 || k == Opnd::Label14 || k == Opnd::AdrLabel ||
         k == Opnd::AdrpLabel;
}

bool isPreIndex(Opnd k) { return k == Opnd::MemPre9 || k == Opnd::MemP7PreW || k == Opnd::MemP7PreX; }
bool isPostIndex(Opnd k) { return k == Opnd::Post9 || k == Opnd::Post7W || k == Opnd::Post7X; }

}  // namespace patchcheck::arm64
