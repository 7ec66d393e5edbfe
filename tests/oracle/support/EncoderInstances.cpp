#include "tests/oracle/support/EncoderInstances.h"

#include <algorithm>
#include <optional>

#include "encoder/mips/Fields.h"
#include "encoder/Hex.h"
#include "encoder/mips/Registers.h"

namespace patchcheck::oracle {

using namespace mips;
using mips::Isa;     // not patchcheck::Isa (encoder/Isa.h)
using mips::Target;  // the MIPS view, not patchcheck::Target

namespace {

// Draws operand values and spells them the way a person would, in every
// form GNU as accepts: $N or $name registers, decimal or hex, expressions.
class Drawer {
 public:
  Drawer(const Target& t, std::mt19937_64& rng, bool irixNames = true)
      : t_(t), rng_(rng), irix_(irixNames) {}

  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

  // Registers lean towards the interesting ones ($0, $31, at).
  unsigned reg() {
    switch (uniform(0, 9)) {
      case 0: return 0;
      case 1: return 31;
      case 2: return 1;
      default: return unsigned(uniform(0, 31));
    }
  }
  unsigned nonZeroReg() {
    unsigned r = reg();
    return r ? r : unsigned(uniform(1, 31));
  }

  std::string regText(unsigned r) {
    if (chance(0.5)) return "$" + std::to_string(r);
    if (r == 30 && chance(0.3)) return "$fp";
    if (irix_ && t_.abi != Abi::O32 && r >= 8 && r <= 11 && chance(0.3))
      return "$ta" + std::to_string(r - 8);
    return "$" + std::string(gprName(r, t_.abi));
  }

  // A value in [lo, hi]; a third of the time a boundary.
  int64_t value(int64_t lo, int64_t hi) {
    switch (uniform(0, 11)) {
      case 0: return lo;
      case 1: return hi;
      case 2: return lo < 0 && hi > 0 ? 0 : lo + (hi > lo);
      case 3: return hi - (hi > lo);
      default: return uniform(lo, hi);
    }
  }

  std::string number(int64_t v) {
    switch (uniform(0, 5)) {
      case 0: case 1: return v < 0 ? "-" + hex(uint64_t(-v)) : hex(uint64_t(v));
      case 2: {  // a constant expression GNU as folds
        int64_t a = uniform(-100, 100);
        return "(" + std::to_string(v - a) + ")+(" + std::to_string(a) + ")";
      }
      default: return std::to_string(v);
    }
  }

 private:
  const Target& t_;
  std::mt19937_64& rng_;
  bool irix_;
};

bool isJalr(const InstrDesc& d) {
  return (d.op == Op::Jalr || d.op == Op::JalrHb) && !(d.flags & kAlias);
}

// A branch target: a label in the file or the edge of the encoding's reach
// (always the latter for a lone instance, lines == 0).
std::string branchTarget(Drawer& dr, Opnd k, size_t line, size_t lines) {
  if (lines == 0 || dr.chance(0.15)) {
    int64_t half = int64_t(1) << (immediateWidth(k) - 1);
    int64_t words = dr.chance(0.5) ? half - 1 : -half;
    if (dr.chance(0.3)) words = dr.uniform(-half, half - 1);
    int64_t bytes = 4 + 4 * words;
    return bytes < 0 ? ".-" + std::to_string(-bytes) : ".+" + std::to_string(bytes);
  }
  if (dr.chance(0.1)) {  // numeric local labels; see Batch::source
    bool ahead = (line / 64 + 1) * 64 < lines;
    return ahead && dr.chance(0.5) ? "1f" : "1b";
  }
  size_t to = size_t(dr.uniform(0, int64_t(lines) - 1));
  if (dr.chance(0.2)) to = line + 1;
  return "L" + std::to_string(to);
}

// A PC-relative address (lapc, lwpc, lwupc, ldpc): a label, or for the
// word-scaled forms the edge of reach as `.+N` (always for a lone instance).
// ldpc's address is counted from the doubleword of the instruction, so it
// takes labels of even lines only (the base is 8-byte aligned).
std::string pcRelativeTarget(Drawer& dr, Opnd k, size_t line, size_t lines) {
  if (k == Opnd::Pc19 && (lines == 0 || dr.chance(0.15))) {
    int64_t half = int64_t(1) << 18;
    int64_t words = dr.chance(0.5) ? half - 1 : -half;
    if (dr.chance(0.3)) words = dr.uniform(-half, half - 1);
    int64_t bytes = 4 * words;
    return bytes < 0 ? ".-" + std::to_string(-bytes) : ".+" + std::to_string(bytes);
  }
  if (lines == 0) return ".";
  size_t to = size_t(dr.uniform(0, int64_t(lines) - 1));
  if (dr.chance(0.2)) to = line;
  if (k == Opnd::Pc18) to &= ~size_t(1);
  return "L" + std::to_string(to);
}

// Relocation operators on a label, where GNU as allows them for the row.
std::optional<std::string> relocated(Drawer& dr, const InstrDesc& d, Opnd k, const Target& t,
                                     size_t lines) {
  if (lines == 0 || !dr.chance(0.05)) return std::nullopt;
  std::string label = "L" + std::to_string(dr.uniform(0, int64_t(lines) - 1));
  bool low = d.op == Op::Addiu || d.op == Op::Daddiu || d.op == Op::Ori || k == Opnd::Mem16;
  if (low && !(d.flags & kAsmOnly)) return "%lo(" + label + ")";
  if (d.op == Op::Lui && !(d.flags & kAsmOnly))
    return (t.abi == Abi::N64 && dr.chance(0.3) ? "%highest(" : "%hi(") + label + ")";
  return std::nullopt;
}

struct Draft {
  std::string text;
  const InstrDesc* row;
};

Draft instance(Drawer& dr, const InstrDesc& d, const Target& t, uint64_t base, size_t line,
               size_t lines) {
  // Registers first, so that the row's rs/rt rule and jalr's rd != rs hold.
  unsigned rs = dr.reg(), rt = dr.reg(), rd = dr.reg();
  switch (d.rule) {
    case FieldRule::None: case FieldRule::RsZero: case FieldRule::RsGeRt:
    case FieldRule::RtNotRa: break;
    case FieldRule::RsNonZero: rs = dr.nonZeroReg(); break;
    case FieldRule::RsZeroRtNonZero: case FieldRule::RsEqRtNonZero: rt = dr.nonZeroReg(); break;
    case FieldRule::RsNeRtBothNonZero:
    case FieldRule::RsNonZeroRsLtRt:
      rs = dr.nonZeroReg();
      do rt = dr.nonZeroReg(); while (rt == rs);
      break;
  }
  // Branch-and-link may not test $31, which its link overwrites.
  if ((d.flags & kLink) && !isJalr(d)) {
    if ((d.flags & kDelaySlot) && d.operands[0] == Opnd::Rs)
      while (rs == 31) rs = dr.reg();
    if (d.operands[0] == Opnd::RtRs)
      while (rt == 31) rt = dr.nonZeroReg();
  }
  if (d.rule == FieldRule::RtNotRa)
    while (rt == 31) rt = dr.reg();
  if (isJalr(d)) {
    if (d.operandCount() == 1) {
      while (rs == 31) rs = dr.reg();
    } else {
      while (rd == rs) rd = dr.reg();
    }
  }
  // ins/ext and their d-forms: the size depends on the position before it.
  int64_t pos = 0;
  for (Opnd k : d.operands)
    if (k == Opnd::Pos || k == Opnd::PosHi) pos = dr.value(immediateRange(k)->lo, immediateRange(k)->hi);
  std::string text(d.mnemonic);
  for (unsigned i = 0; i < d.operandCount(); ++i) {
    Opnd k = d.operands[i];
    std::string s;
    switch (k) {
      case Opnd::Rs: case Opnd::RsAgain: s = dr.regText(rs); break;
      case Opnd::RdRt: s = dr.regText(rd); break;
      case Opnd::HwReg: s = "$" + std::to_string(dr.uniform(0, 31)); break;
      case Opnd::Pos: case Opnd::PosHi: s = dr.number(pos); break;
      case Opnd::SizeExt: case Opnd::SizeExtHi: case Opnd::SizeIns: case Opnd::SizeInsHi: {
        int64_t limit = d.op == Op::Ext || d.op == Op::Ins || d.op == Op::Dins ? 32 : 64;
        int64_t lo = std::max(immediateRange(k)->lo, k == Opnd::SizeInsHi ? 33 - pos : int64_t(1));
        int64_t hi = std::min(immediateRange(k)->hi, limit - pos);
        s = dr.number(dr.value(lo, hi));
        break;
      }
      case Opnd::PcOff19: s = dr.number(4 * dr.value(-262144, 262143)); break;
      case Opnd::Pc19: case Opnd::Pc18: s = pcRelativeTarget(dr, k, line, lines); break;
      case Opnd::Rt: case Opnd::RtRs: s = dr.regText(rt); break;
      case Opnd::Rd: s = dr.regText(rd); break;
      case Opnd::Zero: s = dr.chance(0.5) ? "$0" : "$zero"; break;
      case Opnd::Br16: case Opnd::Br21: case Opnd::Br26: s = branchTarget(dr, k, line, lines); break;
      case Opnd::Jump26:
        if (lines == 0 || dr.chance(0.3)) {
          uint64_t region = (base + 4 * line + 4) & ~0x0fffffffull;
          s = hex(region | (uint64_t(dr.uniform(0, 0x3ffffff)) << 2));
        } else {
          s = "L" + std::to_string(dr.uniform(0, int64_t(lines) - 1));
        }
        break;
      case Opnd::Cp0Reg: s = "$" + std::to_string(dr.uniform(0, 31)); break;
      case Opnd::LiSimm: {
        int64_t v = dr.value(-32768, 32767);
        // GNU folds the 32-bit spelling of a negative value (0xffff8000).
        s = v < 0 && dr.chance(0.3) ? hex(uint32_t(v)) : dr.number(v);
        break;
      }
      case Opnd::LiUimm: s = dr.number(dr.value(32768, 65535)); break;
      case Opnd::LiHi: {
        int64_t hi = dr.value(1, 0xffff);
        s = hi >= 0x8000 && dr.chance(0.3) ? "-" + hex(uint64_t(0x10000 - hi) << 16)
                                           : hex(uint64_t(hi) << 16);
        break;
      }
      case Opnd::Mem16: case Opnd::Mem9: {
        auto r = immediateRange(k);
        std::string off;
        if (auto rel = relocated(dr, d, k, t, lines)) off = *rel;
        else if (dr.chance(0.05)) off = "";
        else off = dr.number(dr.value(r->lo, r->hi));
        s = off + "(" + dr.regText(rs) + ")";
        break;
      }
      default: {
        if (auto rel = relocated(dr, d, k, t, lines)) {
          s = *rel;
          break;
        }
        auto r = immediateRange(k);
        s = dr.number(dr.value(r->lo, r->hi));
      }
    }
    text += (i ? ", " : " ") + s;
  }
  return {text, &d};
}

}  // namespace

std::string Batch::source() const {
  std::string s = ".set noreorder\n.set noat\n";
  // Every 64th line also carries the numeric local label 1 (for 1f/1b).
  for (size_t i = 0; i < lines.size(); ++i)
    s += "L" + std::to_string(i) + ": " + (i % 64 == 0 ? "1: " : "") + lines[i].text + "\n";
  return s;
}

std::string loneInstance(const InstrDesc& d, const Target& t, uint64_t address,
                         std::mt19937_64& rng) {
  Drawer dr(t, rng);
  return instance(dr, d, t, address, 0, 0).text;
}

std::vector<const InstrDesc*> rowsFor(Isa isa) {
  std::vector<const InstrDesc*> out;
  for (const InstrDesc& d : instructionTable())
    if (d.isas & bit(isa)) out.push_back(&d);
  return out;
}

Batch makeBatch(const Target& t, uint64_t base, unsigned perRow, std::mt19937_64& rng,
                bool irixNames) {
  Drawer dr(t, rng, irixNames);
  auto rows = rowsFor(t.isa);
  // Instances in random order, so that branches reach forwards and back.
  std::vector<const InstrDesc*> order;
  for (const InstrDesc* d : rows)
    for (unsigned i = 0; i < perRow; ++i) order.push_back(d);
  std::shuffle(order.begin(), order.end(), rng);
  size_t lines = 0;
  for (const InstrDesc* d : order) lines += d->isControlTransfer() ? 2 : 1;
  Batch b{t, base, {}};
  for (const InstrDesc* d : order) {
    Draft x = instance(dr, *d, t, base, b.lines.size(), lines);
    b.lines.push_back({x.text, x.row});
    if (d->isControlTransfer()) b.lines.push_back({"nop", nullptr});
  }
  return b;
}

std::vector<std::string> gasFlags(const Target& t) {
  std::string abi = t.abi == Abi::O32 ? "32" : t.abi == Abi::N32 ? "n32" : "64";
  return {"-march=" + std::string(name(t.isa)), "-mabi=" + abi,
          t.endian == Endian::Big ? "-EB" : "-EL"};
}

std::string ldEmulation(const Target& t) {
  std::string e = t.endian == Endian::Big ? "b" : "l";
  switch (t.abi) {
    case Abi::O32: return "elf32" + e + "tsmip";
    case Abi::N32: return "elf32" + e + "tsmipn32";
    case Abi::N64: return "elf64" + e + "tsmip";
  }
  return "";
}

uint64_t linkBase(const Target& t) {
  return t.abi == Abi::N64 ? 0xffffffff80000000ull : 0x80000000ull;
}

}  // namespace patchcheck::oracle
