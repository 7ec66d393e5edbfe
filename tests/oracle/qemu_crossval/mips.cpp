// Cross-validation of the concrete semantics against QEMU user mode, an
// implementation nobody here wrote. For every ISA / byte order / ABI
// combination one static ELF is built around our encoder's words (GNU as
// only wraps `.word` lines, GNU ld links): each case loads random register
// values from a table, runs either a random straight-line sequence of
// unprivileged instructions or one generated branch/jump, and stores every
// register (and HI/LO before R6) next to its scratch buffer; at the end one
// write syscall dumps all of it. Our semantics run on the same words from the
// same inputs and must agree on every register and every scratch byte.
//
// Cases the architecture leaves open are not compared: values the model
// holds as unknown (HI/LO after the pre-R6 SPECIAL2 mul) and instructions
// for which the model reports a possible fault (they are not generated).
// Known QEMU deviations from the manuals are listed in
// tests/data/model/qemu-known.txt and reported separately, not hidden.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "encoder/mips/Assembler.h"
#include "encoder/mips/Decoder.h"
#include "encoder/mips/Fields.h"
#include "encoder/Hex.h"
#include "model/mips/Concrete.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::mips;
using namespace patchcheck::oracle;

namespace {

// --- the machines under test -------------------------------------------------

struct Combo {
  mips::Target target;
  std::string qemu, cpu;          // qemu-user binary and -cpu model
  std::string march, mabi, emulation;
  unsigned sysWrite, sysExit;     // Linux syscall numbers of the ABI
  std::string label() const { return target.str(); }
};

std::vector<Combo> combos() {
  auto t = [](Isa i, Endian e, Abi a) { return mips::Target{i, e, a}; };
  const Endian B = Endian::Big, L = Endian::Little;
  return {
      {t(Isa::Mips32R2, B, Abi::O32), "qemu-mips", "24Kf", "mips32r2", "32", "elf32btsmip", 4004, 4001},
      {t(Isa::Mips32R2, L, Abi::O32), "qemu-mipsel", "24Kf", "mips32r2", "32", "elf32ltsmip", 4004, 4001},
      {t(Isa::Mips64R2, B, Abi::N64), "qemu-mips64", "MIPS64R2-generic", "mips64r2", "64", "elf64btsmip", 5001, 5058},
      {t(Isa::Mips64R2, L, Abi::N64), "qemu-mips64el", "MIPS64R2-generic", "mips64r2", "64", "elf64ltsmip", 5001, 5058},
      {t(Isa::Mips64R2, B, Abi::N32), "qemu-mipsn32", "MIPS64R2-generic", "mips64r2", "n32", "elf32btsmipn32", 6001, 6058},
      {t(Isa::Mips32R6, B, Abi::O32), "qemu-mips", "mips32r6-generic", "mips32r6", "32", "elf32btsmip", 4004, 4001},
      {t(Isa::Mips32R6, L, Abi::O32), "qemu-mipsel", "mips32r6-generic", "mips32r6", "32", "elf32ltsmip", 4004, 4001},
      {t(Isa::Mips64R6, B, Abi::N64), "qemu-mips64", "I6400", "mips64r6", "64", "elf64btsmip", 5001, 5058},
      {t(Isa::Mips64R6, L, Abi::N64), "qemu-mips64el", "I6400", "mips64r6", "64", "elf64ltsmip", 5001, 5058},
      {t(Isa::Mips64R6, L, Abi::N32), "qemu-mipsn32el", "I6400", "mips64r6", "n32", "elf32ltsmipn32", 6001, 6058},
  };
}

// --- memory layout of one case ------------------------------------------------
// Region i at kDataBase + i * kRegion: [0, 64) scratch buffer the sequence
// may load from and store to; [256, 528) the entry registers (slot r for
// GPR r, 32 = HI, 33 = LO); [1024, 1296) the registers at the end.
constexpr uint64_t kTextBase = 0x400000, kDataBase = 0x10000000, kRegion = 2048;
constexpr unsigned kScratch = 64, kTable = 256, kDump = 1024, kSlots = 34;

struct Case {
  enum class Kind { Straight, Branch } kind;
  unsigned region;
  unsigned base;                       // register holding the region's address (never written)
  std::array<uint64_t, 32> gpr{};      // entry values (gpr[base] = the region address)
  uint64_t hi = 0, lo = 0;
  std::vector<uint8_t> scratch;        // entry scratch contents
  std::vector<uint32_t> words;         // the code under test
  uint64_t address = 0;                // where words[0] sits in the ELF
  std::string what;                    // a line describing the case, for reports
};

uint64_t regionAddress(unsigned i) { return kDataBase + uint64_t(i) * kRegion; }

// --- random values -------------------------------------------------------------

class Dice {
 public:
  explicit Dice(uint64_t seed) : rng_(seed) {}
  uint64_t bits() { return rng_(); }
  unsigned below(unsigned n) { return unsigned(rng_() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }

  // Register values that exercise sign extension and edge cases.
  uint64_t registerValue(bool is64) {
    static const uint64_t edges[] = {0, 1, 0x7fffffff, 0xffffffff80000000ull, 0xffffffffffffffffull,
                                     0x80000000ull, 0xffffffffull, 0x7fffffffffffffffull,
                                     0x8000000000000000ull, 0x100000000ull};
    uint64_t v;
    switch (below(10)) {
      case 0: v = 0; break;
      case 1: v = uint64_t(int64_t(below(9)) - 4); break;
      case 2: v = edges[below(sizeof edges / sizeof edges[0])]; break;
      case 3: case 4: case 5: v = uint64_t(int64_t(int32_t(uint32_t(bits())))); break;
      default: v = is64 ? bits() : uint64_t(int64_t(int32_t(uint32_t(bits())))); break;
    }
    return is64 ? v : v & 0xffffffffull;
  }
  uint32_t imm16() {
    switch (below(6)) {
      case 0: return below(8);
      case 1: return 0x10000 - 1 - below(8);
      case 2: return 0x7fff - below(2);
      case 3: return 0x8000 + below(2);
      default: return uint32_t(bits()) & 0xffff;
    }
  }

 private:
  std::mt19937_64 rng_;
};

// --- assembling scaffolding with our own assembler -----------------------------

std::vector<uint32_t> assembleOrDie(const std::string& src, const mips::Target& t, uint64_t base) {
  AssemblyOptions o;
  o.target = t;
  o.base = Value::constant(int64_t(base));
  auto a = assemble(src, "<crossval>", o);
  if (auto* e = std::get_if<Diagnostics>(&a)) throw std::runtime_error((*e)[0].str() + "\n" + src);
  auto w = concreteWords(std::get<Assembly>(a));
  if (auto* e = std::get_if<Diagnostics>(&w)) throw std::runtime_error((*e)[0].str());
  return std::get<std::vector<uint32_t>>(w);
}

// Loads/stores the entry table and the dump, around the code under test.
struct Scaffold {
  const mips::Target& t;
  std::string load() const { return t.is64() ? "ld" : "lw"; }
  std::string store() const { return t.is64() ? "sd" : "sw"; }
  std::string r(unsigned n) const { return "$" + std::to_string(n); }

  std::string prologue(const Case& c) const {
    std::ostringstream s;
    uint64_t a = regionAddress(c.region);
    unsigned scratchReg = c.base == 1 ? 2 : 1;
    s << "lui " << r(c.base) << ", " << hex(a >> 16) << "\n";
    s << "ori " << r(c.base) << ", " << r(c.base) << ", " << hex(a & 0xffff) << "\n";
    if (!t.isR6()) {
      s << load() << " " << r(scratchReg) << ", " << kTable + 8 * 32 << "(" << r(c.base) << ")\n";
      s << "mthi " << r(scratchReg) << "\n";
      s << load() << " " << r(scratchReg) << ", " << kTable + 8 * 33 << "(" << r(c.base) << ")\n";
      s << "mtlo " << r(scratchReg) << "\n";
    }
    for (unsigned n = 1; n < 32; ++n)
      if (n != c.base) s << load() << " " << r(n) << ", " << kTable + 8 * n << "(" << r(c.base) << ")\n";
    return s.str();
  }
  std::string epilogue(const Case& c) const {
    std::ostringstream s;
    unsigned scratchReg = c.base == 1 ? 2 : 1;
    for (unsigned n = 1; n < 32; ++n)
      s << store() << " " << r(n) << ", " << kDump + 8 * n << "(" << r(c.base) << ")\n";
    if (!t.isR6()) {
      s << "mfhi " << r(scratchReg) << "\n";
      s << store() << " " << r(scratchReg) << ", " << kDump + 8 * 32 << "(" << r(c.base) << ")\n";
      s << "mflo " << r(scratchReg) << "\n";
      s << store() << " " << r(scratchReg) << ", " << kDump + 8 * 33 << "(" << r(c.base) << ")\n";
    }
    return s.str();
  }
};

// --- random straight-line sequences ---------------------------------------------

bool straightLineOp(Op op) {
  switch (op) {
    case Op::Syscall: case Op::Break: case Op::Sdbbp: case Op::Eret:
    case Op::Deret: case Op::Wait: case Op::Cache: case Op::Mfc0: case Op::Mtc0: case Op::Dmfc0:
    case Op::Dmtc0: case Op::Di: case Op::Ei: case Op::Tlbp: case Op::Tlbr: case Op::Tlbwi:
    case Op::Tlbwr:
    // hardware registers: values the model leaves unknown, and QEMU's
    // user mode may refuse some
    case Op::Rdhwr: case Op::Sigrie:
      return false;
    default:
      return true;
  }
}

unsigned accessBytes(Op op) {
  switch (op) {
    case Op::Lh: case Op::Lhu: case Op::Sh: return 2;
    case Op::Lw: case Op::Lwu: case Op::Sw: case Op::Ll: case Op::Sc: return 4;
    case Op::Ld: case Op::Sd: case Op::Lld: case Op::Scd: return 8;
    default: return 1;
  }
}

bool isStore(Op op) {
  switch (op) {
    case Op::Sb: case Op::Sh: case Op::Sw: case Op::Sd: case Op::Swl: case Op::Swr: case Op::Sdl:
    case Op::Sdr: case Op::Sc: case Op::Scd:
      return true;
    default:
      return false;
  }
}

class SequenceMaker {
 public:
  SequenceMaker(z3::context& c, const mips::Target& t, Dice& d) : c_(c), t_(t), dice_(d) {
    for (const InstrDesc& row : instructionTable())
      if (t.has(row.isas) && !(row.flags & (kAsmOnly | kPrivileged)) && !row.isControlTransfer() &&
          straightLineOp(row.op))
        rows_.push_back(&row);
  }

  // Fills c.words with 10..50 instructions that, run from c's entry state,
  // raise no fault in our model and never write the base register.
  void make(Case& cs, std::set<Op>& used) {
    MachineState s(c_, t_);
    s.concrete = true;
    for (unsigned r = 1; r < 32; ++r) s.regs[r] = c_.bv_val(cs.gpr[r], t_.gprBits());
    s.regs[reg::hi] = c_.bv_val(cs.hi, t_.gprBits());
    s.regs[reg::lo] = c_.bv_val(cs.lo, t_.gprBits());
    uint64_t region = regionAddress(cs.region);
    for (unsigned i = 0; i < kScratch; ++i)
      s.memory = z3::store(s.memory, c_.bv_val(region + i, 64), c_.bv_val(cs.scratch[i], 8));
    // The sequence's own words are memory too: R6 lwpc/lwupc/ldpc read them.
    unsigned length = 10 + dice_.below(41);
    bool linked = false;  // an ll is open at linkedOffset, linkedSize bytes
    unsigned linkedOffset = 0, linkedSize = 0;
    for (unsigned attempts = 0; cs.words.size() < length && attempts < 4000; ++attempts) {
      const InstrDesc& row = *rows_[dice_.below(unsigned(rows_.size()))];
      unsigned offset = 0;
      uint64_t pc = cs.address + 4 * cs.words.size();
      auto filled = fill(row, cs.base, offset, cs.address, pc);
      if (!filled) continue;
      uint32_t w = *filled;
      const InstrDesc* d = decode(w, t_.isa);
      if (!d || (d->op != row.op && !(row.op == Op::Aui && d->op == Op::Lui))) continue;
      // ll/sc pairs: sc only at the ll's address with no store in between
      // (the manuals leave other cases UNPREDICTABLE or implementation-defined).
      if (isStore(d->op)) {
        bool sc = d->op == Op::Sc || d->op == Op::Scd;
        if (linked && (!sc || linkedOffset != offset || linkedSize != accessBytes(d->op))) continue;
      }
      MachineState trial = s;
      trial.store(c_.bv_val(pc, 64), c_.bv_val(w, 32), 4);
      StepEffect e = execute(trial, decodedWord(c_, w, t_.isa), c_.bv_val(pc, 64));
      bool faults = false;
      for (const Fault& f : e.faults) {
        auto v = concreteValue(f.when);
        if (!v || *v) faults = true;
      }
      if (faults) continue;
      auto kept = concreteValue(trial.reg(cs.base));
      if (!kept || *kept != cs.gpr[cs.base]) continue;
      // QEMU wraps PC-relative results to 32 bits under n32 (known deviation
      // pcrel-n32-wrap): only results that are word values are compared.
      if (t_.abi == Abi::N32 && (d->op == Op::Addiupc || d->op == Op::Auipc || d->op == Op::Aluipc)) {
        auto v = concreteValue(trial.reg(rsOf(w)));
        if (!v || *v != uint64_t(int64_t(int32_t(uint32_t(*v))))) continue;
      }
      if (d->op == Op::Ll || d->op == Op::Lld) {
        linked = true;
        linkedOffset = offset;
        linkedSize = accessBytes(d->op);
      }
      if (d->op == Op::Sc || d->op == Op::Scd) linked = false;
      s = trial;
      cs.words.push_back(w);
      used.insert(d->op);
    }
  }

 private:
  z3::context& c_;
  mips::Target t_;
  Dice& dice_;
  std::vector<const InstrDesc*> rows_;

  unsigned anyRegister() { return dice_.chance(5) ? 0 : 1 + dice_.below(31); }

  // The row with random operands; memory operands address the scratch
  // buffer, PC-relative loads an earlier word of the sequence (or this one).
  std::optional<uint32_t> fill(const InstrDesc& row, unsigned base, unsigned& offset, uint64_t start,
                               uint64_t pc) {
    static const unsigned syncTypes[] = {0, 4, 16, 17, 18, 19, 20};
    uint32_t w = row.match;
    for (Opnd k : row.operands) {
      switch (k) {
        case Opnd::Rs: case Opnd::Rt: case Opnd::Rd: case Opnd::RtRs: case Opnd::RdRt:
          w |= placeRegister(k, anyRegister());
          break;
        case Opnd::Pos: case Opnd::PosHi: case Opnd::SizeExt: case Opnd::SizeExtHi:
        case Opnd::SizeIns: case Opnd::SizeInsHi: case Opnd::LsaSa: case Opnd::Bp2: case Opnd::Bp3:
        case Opnd::PcOff19:
          w |= placeImmediate(k, dice_.bits());
          break;
        case Opnd::Pc19: {  // a word in [start, pc]
          int64_t back = int64_t((pc - start) / 4);
          w |= placeImmediate(k, uint64_t(-int64_t(dice_.below(unsigned(back) + 1))));
          break;
        }
        case Opnd::Pc18: {  // a doubleword in [start, pc + 4)
          uint64_t from = pc & ~uint64_t(7);
          std::vector<int64_t> ok;
          for (int64_t d = 0; d >= -8; --d) {
            uint64_t a = from + uint64_t(8 * d);
            if (a >= start && a + 8 <= pc + 4) ok.push_back(d);
          }
          if (ok.empty()) return std::nullopt;
          w |= placeImmediate(k, uint64_t(ok[dice_.below(unsigned(ok.size()))]));
          break;
        }
        case Opnd::Sa: w |= placeImmediate(k, dice_.below(32)); break;
        case Opnd::Stype: w |= placeImmediate(k, syncTypes[dice_.below(7)]); break;
        case Opnd::Op5: w |= placeImmediate(k, dice_.below(32)); break;
        case Opnd::Simm16: case Opnd::Uimm16: w |= placeImmediate(k, dice_.imm16()); break;
        case Opnd::Code10Lo: w |= placeImmediate(k, dice_.below(1024)); break;
        case Opnd::Mem16: case Opnd::Mem9: {
          unsigned size = accessBytes(row.op);
          offset = size * dice_.below((kScratch - 8) / size + 1);
          if (offset > kScratch - size) offset = kScratch - size;
          w |= placeRegister(k, base) | placeImmediate(k, offset);
          break;
        }
        default: break;
      }
    }
    return w;
  }
};

// --- branches and jumps ----------------------------------------------------------
// A block of 6 words: the control transfer, its delay (or forbidden) slot,
// three fall-through markers and the target marker:
//   0: CTI            1: addiu m1, m1, 1
//   2: addiu m2, m2, 2   3: addiu m2, m2, 4   4: addiu m2, m2, 8
//   5: addiu m3, m3, 16  (6: the epilogue)
// The target is word 2..5 (or 6), so m1, m2, m3 and the link register show
// whether the branch was taken, whether its slot ran, and where it went.

class BranchMaker {
 public:
  BranchMaker(z3::context& c, const mips::Target& t, Dice& d) : c_(c), t_(t), dice_(d) {
    for (const InstrDesc& row : instructionTable())
      if (t.has(row.isas) && !(row.flags & kAsmOnly) && row.isControlTransfer()) rows_.push_back(&row);
  }

  // Needs cs.address (the block's address) already set; fills words and
  // adjusts entry registers. False when the model reports a fault for the
  // chosen case (it is then not generated).
  bool make(Case& cs) {
    const InstrDesc& row = *rows_[dice_.below(unsigned(rows_.size()))];
    unsigned regs[4];
    pickDistinct(regs, 4, cs.base);  // m1, m2, m3, the jump register
    unsigned m1 = regs[0], m2 = regs[1], m3 = regs[2], jumpReg = regs[3];
    unsigned target = 2 + dice_.below(5);  // word index 2..6
    uint64_t targetAddr = cs.address + 4 * target;
    uint32_t w = row.match;
    unsigned rsReg = 0, rtReg = 0;
    for (Opnd k : row.operands) {
      switch (k) {
        case Opnd::Rs: case Opnd::Rt: case Opnd::RtRs: {
          unsigned r = conditionRegister(cs.base, regs);
          if (row.op == Op::Jr || row.op == Op::JrHb || row.op == Op::Jalr || row.op == Op::JalrHb ||
              row.op == Op::Jic || row.op == Op::Jialc)
            r = jumpReg;
          w |= placeRegister(k, r);
          if (k == Opnd::Rs || k == Opnd::RtRs) rsReg = r;
          if (k == Opnd::Rt || k == Opnd::RtRs) rtReg = r;
          break;
        }
        case Opnd::Rd: {  // jalr link register: not rs, not a marker, not the base
          unsigned r;
          do r = 1 + dice_.below(31);
          while (r == cs.base || r == m1 || r == m2 || r == m3 || r == jumpReg);
          w |= placeRegister(k, r);
          break;
        }
        case Opnd::Br16: case Opnd::Br21: case Opnd::Br26:
          w |= placeImmediate(k, uint64_t(int64_t(target) - 1));
          break;
        case Opnd::Jump26: w |= placeImmediate(k, targetAddr >> 2); break;
        case Opnd::Simm16:  // jic/jialc offset, a multiple of 4 either side
          w |= placeImmediate(k, dice_.imm16() & 0xfffc);
          break;
        default: break;
      }
    }
    if (row.op == Op::Jr || row.op == Op::JrHb || row.op == Op::Jalr || row.op == Op::JalrHb)
      cs.gpr[jumpReg] = mask(targetAddr);
    if (row.op == Op::Jic || row.op == Op::Jialc)  // target = GPR[rt] + sign_extend(offset)
      cs.gpr[jumpReg] = mask(targetAddr - uint64_t(signedImmediateOf(Opnd::Simm16, w)));
    if (!rowMatches(row, w, t_.isa) || decode(w, t_.isa) != &row) return false;
    // Conditions both ways: equal operands half of the time.
    if (rsReg && rtReg && rsReg != rtReg && dice_.chance(50)) cs.gpr[rtReg] = cs.gpr[rsReg];
    if (row.op == Op::Bovc || row.op == Op::Bnvc) {
      static const uint64_t near[] = {0x7fffffff, 0x7ffffffe, 0xffffffff80000000ull, 1,
                                      0xffffffffffffffffull, 0x40000000, 0x100000000ull};
      if (rsReg) cs.gpr[rsReg] = mask(near[dice_.below(7)]);
      if (rtReg) cs.gpr[rtReg] = mask(near[dice_.below(7)]);
    }
    cs.words = {w, 0, 0, 0, 0, 0};
    cs.words[1] = addiu(m1, 1);
    cs.words[2] = addiu(m2, 2);
    cs.words[3] = addiu(m2, 4);
    cs.words[4] = addiu(m2, 8);
    cs.words[5] = addiu(m3, 16);
    // Markers are small word values so addiu never meets NotWordValue.
    for (unsigned r : {m1, m2, m3}) cs.gpr[r] = dice_.below(1000);
    cs.what = std::string(row.mnemonic) + " to word " + std::to_string(target);
    return true;
  }

 private:
  z3::context& c_;
  mips::Target t_;
  Dice& dice_;
  std::vector<const InstrDesc*> rows_;

  uint64_t mask(uint64_t v) const { return t_.is64() ? v : v & 0xffffffffull; }
  uint32_t addiu(unsigned r, unsigned imm) const { return (0x09u << 26) | (r << 21) | (r << 16) | imm; }
  void pickDistinct(unsigned* out, unsigned n, unsigned base) {
    for (unsigned i = 0; i < n; ++i) {
      bool clash;
      do {
        out[i] = 1 + dice_.below(30);  // never $31: links write it
        clash = out[i] == base;
        for (unsigned j = 0; j < i; ++j) clash = clash || out[j] == out[i];
      } while (clash);
    }
  }
  unsigned conditionRegister(unsigned base, const unsigned* markers) {
    unsigned r;
    do r = 1 + dice_.below(31);
    while (r == markers[0] || r == markers[1] || r == markers[2] || (r == base && !dice_.chance(5)));
    return r;
  }
};

// --- building and running one ELF ------------------------------------------------

struct Tools {
  std::string as, ld;
};

struct Built {
  std::string elf;
  std::vector<Case> cases;
};

void putValue(std::vector<uint8_t>& bytes, size_t at, uint64_t v, unsigned size, Endian e) {
  for (unsigned i = 0; i < size; ++i) {
    unsigned shift = e == Endian::Big ? 8 * (size - 1 - i) : 8 * i;
    bytes[at + i] = uint8_t(v >> shift);
  }
}

uint64_t getValue(const std::string& bytes, size_t at, unsigned size, Endian e) {
  uint64_t v = 0;
  for (unsigned i = 0; i < size; ++i) {
    unsigned shift = e == Endian::Big ? 8 * (size - 1 - i) : 8 * i;
    v |= uint64_t(uint8_t(bytes[at + i])) << shift;
  }
  return v;
}

struct Tally {
  unsigned straight = 0, branches = 0, failed = 0, known = 0;
  unsigned instructions = 0;
};

// One ELF per combination: the straight-line cases, then the branch cases.
class ComboRun {
 public:
  ComboRun(const Combo& combo, const Tools& tools, uint64_t seed, unsigned straight, unsigned branches)
      : combo_(combo), tools_(tools), dice_(seed), straight_(straight), branches_(branches) {}

  std::set<Op> opsUsed;  // operations the straight-line sequences ran

  Tally run(z3::context& c) {
    const mips::Target& t = combo_.target;
    SequenceMaker seqs(c, t, dice_);
    BranchMaker brs(c, t, dice_);
    Scaffold scaffold{t};
    std::vector<Case> cases;
    std::vector<uint32_t> text;
    unsigned slot = t.is64() ? 8 : 4;
    for (unsigned i = 0; i < straight_ + branches_; ++i) {
      Case cs;
      cs.kind = i < straight_ ? Case::Kind::Straight : Case::Kind::Branch;
      cs.region = i;
      // Branch cases keep $31 free for links.
      cs.base = 1 + dice_.below(i < straight_ ? 31 : 30);
      for (unsigned r = 1; r < 32; ++r) cs.gpr[r] = dice_.registerValue(t.is64());
      cs.gpr[cs.base] = regionAddress(i);
      cs.hi = dice_.registerValue(t.is64());
      cs.lo = dice_.registerValue(t.is64());
      cs.scratch.resize(kScratch);
      for (auto& b : cs.scratch) b = uint8_t(dice_.bits());
      uint64_t here = kTextBase + 4 * text.size();
      std::vector<uint32_t> pro = assembleOrDie(scaffold.prologue(cs), t, here);
      cs.address = here + 4 * pro.size();
      if (cs.kind == Case::Kind::Straight) {
        seqs.make(cs, opsUsed);
        cs.what = std::to_string(cs.words.size()) + " instructions";
      } else {
        Case fresh = cs;
        do cs = fresh;
        while (!brs.make(cs) || modelFaults(c, cs));
      }
      std::vector<uint32_t> epi =
          assembleOrDie(scaffold.epilogue(cs), t, cs.address + 4 * cs.words.size());
      text.insert(text.end(), pro.begin(), pro.end());
      text.insert(text.end(), cs.words.begin(), cs.words.end());
      text.insert(text.end(), epi.begin(), epi.end());
      cases.push_back(std::move(cs));
    }
    uint64_t dataSize = kRegion * cases.size();
    std::ostringstream tail;
    tail << "lui $5, " << hex(kDataBase >> 16) << "\nori $5, $5, " << hex(kDataBase & 0xffff) << "\n"
         << "lui $6, " << hex(dataSize >> 16) << "\nori $6, $6, " << hex(dataSize & 0xffff) << "\n"
         << "addiu $4, $0, 1\naddiu $2, $0, " << combo_.sysWrite << "\nsyscall\n"
         << "addiu $4, $0, 0\naddiu $2, $0, " << combo_.sysExit << "\nsyscall\n";
    std::vector<uint32_t> end = assembleOrDie(tail.str(), t, kTextBase + 4 * text.size());
    text.insert(text.end(), end.begin(), end.end());

    std::vector<uint8_t> data(dataSize, 0);
    for (const Case& cs : cases) {
      size_t at = size_t(cs.region) * kRegion;
      std::copy(cs.scratch.begin(), cs.scratch.end(), data.begin() + long(at));
      for (unsigned r = 1; r < 32; ++r) putValue(data, at + kTable + 8 * r, cs.gpr[r], slot, t.endian);
      putValue(data, at + kTable + 8 * 32, cs.hi, slot, t.endian);
      putValue(data, at + kTable + 8 * 33, cs.lo, slot, t.endian);
    }

    std::string out = buildAndRun(text, data);
    Tally tally;
    if (out.size() != dataSize) {
      std::cout << "  " << combo_.label() << ": QEMU wrote " << out.size() << " bytes, expected "
                << dataSize << "\n";
      tally.failed = unsigned(cases.size());
      return tally;
    }
    for (const Case& cs : cases) compare(c, cs, out, tally);
    return tally;
  }

 private:
  const Combo& combo_;
  const Tools& tools_;
  Dice dice_;
  unsigned straight_, branches_;

  std::string buildAndRun(const std::vector<uint32_t>& text, const std::vector<uint8_t>& data) {
    TempDir dir;
    const mips::Target& t = combo_.target;
    std::string endian = t.endian == Endian::Big ? "-EB" : "-EL";
    std::ostringstream src;
    src << ".set noreorder\n.set noat\n.text\n.globl _start\n_start:\n";
    for (uint32_t w : text) src << ".word " << hex(w) << "\n";
    src << ".data\n.incbin \"" << dir.file("data.bin") << "\"\n";
    writeFile(dir.file("prog.s"), src.str());
    writeFile(dir.file("data.bin"), std::string(data.begin(), data.end()));
    auto as = oracle::run({tools_.as, "-march=" + combo_.march, "-mabi=" + combo_.mabi, endian,
                   "-o", dir.file("prog.o"), dir.file("prog.s")});
    if (as.status != 0) throw std::runtime_error("as failed: " + as.err);
    // Our words must sit exactly at kTextBase: a small script puts .text
    // first and the ABI flags after the data.
    writeFile(dir.file("link.ld"),
              "SECTIONS {\n  . = " + hex(kTextBase) + ";\n  .text : { *(.text) }\n  . = " + hex(kDataBase) +
                  ";\n  .data : { *(.data) }\n  .MIPS.abiflags : { *(.MIPS.abiflags) }\n"
                  "  .reginfo : { *(.reginfo) }\n}\n");
    auto ld = oracle::run({tools_.ld, "-static", "-m", combo_.emulation, "-e", "_start", "-T",
                           dir.file("link.ld"), "-o", dir.file("prog"), dir.file("prog.o")});
    if (ld.status != 0) throw std::runtime_error("ld failed: " + ld.err);
    auto q = oracle::run({combo_.qemu, "-cpu", combo_.cpu, dir.file("prog")});
    if (q.status != 0) {
      // Keep the program for a look with qemu -d in_asm.
      std::string kept = std::filesystem::temp_directory_path() / ("patchcheck-qemu-" + combo_.march + ".elf");
      std::filesystem::copy_file(dir.file("prog"), kept, std::filesystem::copy_options::overwrite_existing);
      std::cout << "  " << combo_.label() << ": " << combo_.qemu << " exited " << q.status << ": " << q.err
                << "  (program kept as " << kept << ")\n";
    }
    return q.out;
  }

  // Cases our model calls faulting (bgezal $ra, ...) are not generated.
  bool modelFaults(z3::context& c, const Case& cs) const {
    ConcreteStart start = startOf(cs);
    return !runConcrete(c, start).faults.empty();
  }

  ConcreteStart startOf(const Case& cs) const {
    ConcreteStart start;
    start.target = combo_.target;
    start.base = cs.address;
    start.words = cs.words;
    start.gpr = cs.gpr;
    start.hi = cs.hi;
    start.lo = cs.lo;
    std::vector<uint8_t> code(4 * cs.words.size());
    for (size_t i = 0; i < cs.words.size(); ++i) putValue(code, 4 * i, cs.words[i], 4, combo_.target.endian);
    start.memory = {{regionAddress(cs.region), cs.scratch}, {cs.address, code}};
    start.maxSteps = 200;
    return start;
  }

  void compare(z3::context& c, const Case& cs, const std::string& out, Tally& tally) {
    const mips::Target& t = combo_.target;
    unsigned slot = t.is64() ? 8 : 4;
    ConcreteRun ours = runConcrete(c, startOf(cs));
    tally.instructions += ours.steps;
    (cs.kind == Case::Kind::Straight ? tally.straight : tally.branches)++;
    std::vector<std::string> diffs;
    if (ours.stop != "left the program" || ours.pc != cs.address + 4 * cs.words.size())
      diffs.push_back("model stopped: " + ours.stop + " at " + hex(ours.pc));
    size_t at = size_t(cs.region) * kRegion;
    auto check = [&](const std::string& what, std::optional<uint64_t> mine, uint64_t theirs) {
      if (mine && *mine != theirs) diffs.push_back(what + ": model " + hex(*mine) + ", qemu " + hex(theirs));
    };
    for (unsigned r = 1; r < 32; ++r)
      check("$" + std::to_string(r), ours.reg(r), getValue(out, at + kDump + 8 * r, slot, t.endian));
    if (!t.isR6()) {
      check("hi", ours.hi(), getValue(out, at + kDump + 8 * 32, slot, t.endian));
      check("lo", ours.lo(), getValue(out, at + kDump + 8 * 33, slot, t.endian));
    }
    auto scratch = ours.bytes(regionAddress(cs.region), kScratch);
    for (unsigned i = 0; i < kScratch; ++i)
      check("byte " + std::to_string(i), scratch[i], uint8_t(out[at + i]));
    if (diffs.empty()) return;
    ++tally.failed;
    std::cout << "  MISMATCH " << combo_.label() << " case " << cs.region << " (" << cs.what << ") at "
              << hex(cs.address) << ":\n";
    for (uint32_t w : cs.words) std::cout << "    " << hex(w) << "  " << disassembleWord(w) << "\n";
    for (size_t i = 0; i < diffs.size() && i < 8; ++i) std::cout << "    " << diffs[i] << "\n";
  }

  std::string disassembleWord(uint32_t w) const;
};

}  // namespace

#include "encoder/mips/Printer.h"

std::string ComboRun::disassembleWord(uint32_t w) const { return disassemble(w, 0, combo_.target); }

namespace patchcheck::oracle::qemu_crossval {

// This plug-in's part of oracle.qemu_crossval (tests/oracle/qemu_crossval.cpp runs every plug-in's).
int mipsPart([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    Tools tools{requireTool("mips-linux-gnu-as", "binutils-mips-linux-gnu"),
                requireTool("mips-linux-gnu-ld", "binutils-mips-linux-gnu")};
    for (const Combo& c : combos()) requireTool(c.qemu, "qemu-user");
    uint64_t seed = 20240611;
    if (const char* s = std::getenv("PATCHCHECK_SEED")) seed = std::strtoull(s, nullptr, 0);
    unsigned straight = 205, branches = 80;  // per combination: 2050 sequences in all
    if (argc > 1) straight = unsigned(std::atoi(argv[1]));
    if (argc > 2) branches = unsigned(std::atoi(argv[2]));
    std::cout << "QEMU cross-validation, seed " << seed << "\n";
    Tally total;
    std::set<Op> ops;
    unsigned index = 0;
    for (const Combo& combo : combos()) {
      ComboRun runner(combo, tools, seed + 1000003ull * index++, straight, branches);
      z3::context ctx;  // one per ELF: terms of earlier combinations are not kept alive
      Tally t = runner.run(ctx);
      ops.insert(runner.opsUsed.begin(), runner.opsUsed.end());
      std::cout << "  " << combo.label() << " (" << combo.qemu << " -cpu " << combo.cpu << "): "
                << t.straight << " sequences, " << t.branches << " branch cases, " << t.instructions
                << " instructions, " << t.failed << " mismatches\n";
      total.straight += t.straight;
      total.branches += t.branches;
      total.failed += t.failed;
      total.instructions += t.instructions;
    }
    unsigned cases = total.straight + total.branches;
    std::cout << "operations in straight-line sequences: " << ops.size() << "\n";
    std::cout << "total: " << total.straight << " straight-line sequences, " << total.branches
              << " branch cases, " << total.instructions << " instructions executed\n";
    std::cout << cases - total.failed << " passed, " << total.failed << " failed\n";
    return total.failed == 0 && total.straight >= 2000 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cout << "error: " << e.what() << "\n0 passed, 1 failed\n";
    return 1;
  }
}

}  // namespace patchcheck::oracle::qemu_crossval
