// Cross-validation of the A64 concrete semantics against QEMU user mode
// (qemu-aarch64), an implementation nobody here wrote. One static ELF
// holds every case, assembled and linked by GNU as and ld: each case loads
// random values into x0..x30, sp and NZCV from a table, runs either a
// random straight-line sequence of unprivileged instructions (as `.inst`
// words from our encoder's table) or one generated branch, and stores
// x0..x30, sp and NZCV next to its scratch buffer; at the end one write
// syscall dumps all of it. Our semantics (model/arm64/Concrete.h) run the
// same words from the same inputs and must agree on every register, every
// flag and every scratch byte.
//
// Not generated, because the architecture leaves them open or QEMU's user
// mode cannot run them: instructions the model reports a possible fault
// for (they are retried), values the model holds unknown (system
// registers other than NZCV, pointer authentication, chkfeat), privileged
// rows, exception-generating rows, eret (UNDEFINED at EL0, where
// qemu-user runs: SIGILL; its semantics, leaving the pass, are
// unit.arm64_semantics') and memory accesses outside the case's scratch
// buffer or its own code.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "encoder/Hex.h"
#include "encoder/IsaRegistry.h"
#include "encoder/arm64/Decoder.h"
#include "encoder/arm64/Operands.h"
#include "encoder/arm64/Printer.h"
#include "encoder/arm64/SystemNames.h"
#include "model/arm64/Concrete.h"
#include "tests/oracle/support/Arm64Instances.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::arm64;
using namespace patchcheck::oracle;

namespace {

// --- memory layout of one case ----------------------------------------------
// Region i at kDataBase + i * kRegion: [0, 128) the scratch buffer the
// sequence may load from and store to; [256, 528) the entry values (slot r
// for xr, 31 = sp, 32 = NZCV); [1024, 1296) the values at the end.
constexpr uint64_t kTextBase = 0x400000, kDataBase = 0x10000000, kRegion = 2048;
constexpr unsigned kScratch = 128, kTable = 256, kDump = 1024, kSlots = 33;

uint64_t regionAddress(unsigned i) { return kDataBase + uint64_t(i) * kRegion; }

struct Case {
  enum class Kind { Straight, Branch } kind = Kind::Straight;
  unsigned region = 0;
  unsigned base = 0;                 // holds the region's address; never written
  unsigned pointer = 0;              // starts inside the scratch buffer; may move
  std::array<uint64_t, 31> x{};
  uint64_t sp = 0;
  unsigned nzcv = 0;                 // N:Z:C:V, bit 3 = N
  std::vector<uint8_t> scratch;
  std::vector<uint32_t> words;       // the code under test
  uint64_t address = 0;              // where words[0] lies
  std::string what;
};

class Dice {
 public:
  explicit Dice(uint64_t seed) : rng_(seed) {}
  uint64_t bits() { return rng_(); }
  unsigned below(unsigned n) { return unsigned(rng_() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }
  uint64_t registerValue() {
    static const uint64_t edges[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
                                     0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, 0xffffffff80000000ull};
    switch (below(10)) {
      case 0: return 0;
      case 1: return uint64_t(int64_t(below(9)) - 4);
      case 2: return edges[below(sizeof edges / sizeof edges[0])];
      case 3: return uint64_t(below(64));
      case 4: return uint64_t(int64_t(int32_t(uint32_t(bits()))));
      default: return bits();
    }
  }

 private:
  std::mt19937_64 rng_;
};

// --- the model's view of a case ------------------------------------------------

MachineState entryState(z3::context& c, const Target& t, const Case& cs) {
  MachineState s(c, t);
  s.concrete = true;
  for (unsigned r = 0; r < 31; ++r) s.regs[r] = c.bv_val(cs.x[r], 64);
  s.regs[reg::sp] = c.bv_val(cs.sp, 64);
  s.regs[reg::n] = c.bool_val(cs.nzcv & 8);
  s.regs[reg::z] = c.bool_val(cs.nzcv & 4);
  s.regs[reg::c] = c.bool_val(cs.nzcv & 2);
  s.regs[reg::v] = c.bool_val(cs.nzcv & 1);
  uint64_t region = regionAddress(cs.region);
  for (unsigned i = 0; i < kScratch; ++i)
    s.memory = z3::store(s.memory, c.bv_val(region + i, 64), c.bv_val(cs.scratch[i], 8));
  return s;
}

std::vector<uint8_t> littleEndian(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> out;
  for (uint32_t w : words)
    for (unsigned i = 0; i < 4; ++i) out.push_back(uint8_t(w >> (8 * i)));
  return out;
}

ConcreteStart startOf(const Target& t, const Case& cs) {
  ConcreteStart s;
  s.target = t;
  s.base = cs.address;
  s.words = cs.words;
  s.x = cs.x;
  s.sp = cs.sp;
  s.n = cs.nzcv & 8, s.z = cs.nzcv & 4, s.c = cs.nzcv & 2, s.v = cs.nzcv & 1;
  s.memory = {{regionAddress(cs.region), cs.scratch}, {cs.address, littleEndian(cs.words)}};
  s.maxSteps = 200;
  return s;
}

// --- random straight-line sequences ---------------------------------------------

bool isPointerAuthenticationHint(unsigned n) {
  return n == 7 || n == 8 || n == 10 || n == 12 || n == 14 || (n >= 24 && n <= 31);
}

unsigned nzcvEncoding() { return systemRegisterNamed("nzcv")->encoding; }

class SequenceMaker {
 public:
  SequenceMaker(const Target& t, Dice& d) : t_(t), dice_(d) {
    for (const InstrDesc& row : instructionTable()) {
      if (row.isBranch()) continue;
      switch (row.op) {
        case Op::Brk: case Op::Svc: case Op::Hvc: case Op::Udf:  // exceptions
        case Op::DcIvac: case Op::IcIallu: case Op::IcIalluis: case Op::MsrDaifSet: case Op::MsrDaifClr:
          continue;
        case Op::Msr: rows_.push_back(&row); continue;  // msr nzcv only (below)
        default: break;
      }
      if (row.flags & kPrivileged) continue;
      if (row.op == Op::Hint && row.operands[0] != Opnd::Hint7 &&
          isPointerAuthenticationHint((row.match >> 5) & 0x7f))
        continue;
      rows_.push_back(&row);
    }
  }

  // Fills cs.words with 10..50 instructions that, run from cs's entry
  // state, raise no fault in our model, leave every register known, never
  // write the base register and touch only the scratch buffer and the
  // sequence's own code.
  void make(z3::context& c, Case& cs, std::set<const InstrDesc*>& used) {
    MachineState s = entryState(c, t_, cs);
    unsigned length = 10 + dice_.below(41);
    for (unsigned attempts = 0; cs.words.size() < length && attempts < 5000; ++attempts) {
      const InstrDesc& row = *rows_[dice_.below(unsigned(rows_.size()))];
      uint64_t pc = cs.address + 4 * cs.words.size();
      auto filled = fill(row, s, cs, pc);
      if (!filled) continue;
      uint32_t w = *filled;
      const InstrDesc* d = decode(w);
      if (!d || d->op != row.op) continue;
      MachineState trial = s;
      trial.store(c.bv_val(pc, 64), c.bv_val(w, 32), 4);  // the code is memory too (ldr literal)
      Cpu cpu(trial, c.bv_val(pc, 64));
      std::vector<Fault> faults = cpu.step(fetchWord(c, w));
      bool bad = false;
      for (const Fault& f : faults) {
        auto v = concreteValue(f.when);
        bad = bad || !v || *v;
      }
      for (unsigned r = 0; r < reg::count && !bad; ++r) bad = !concreteValue(cpu.state.reg(r));
      if (bad || *concreteValue(cpu.pc) != pc + 4) continue;
      if (*concreteValue(cpu.state.reg(cs.base)) != regionAddress(cs.region)) continue;
      s = cpu.state;
      cs.words.push_back(w);
      used.insert(d);
    }
  }

 private:
  Target t_;
  Dice& dice_;
  std::vector<const InstrDesc*> rows_;

  uint64_t value(const MachineState& s, unsigned r) const { return *concreteValue(s.reg(r)); }

  // [a, a + n) lies in the case's scratch buffer.
  static bool inScratch(const Case& cs, uint64_t a, unsigned n) {
    uint64_t lo = regionAddress(cs.region);
    return a >= lo && a + n <= lo + kScratch && a + n >= a;
  }

  // A base register for a memory operand, and its value: the region
  // register (no writeback), the pointer or sp.
  unsigned pickBase(const Case& cs, bool writeback) {
    unsigned choice = dice_.below(writeback ? 2 : 3);
    return choice == 0 ? cs.pointer : choice == 1 ? 31 : cs.base;
  }

  static unsigned accessBytes(const InstrDesc& row) {
    bool wide = row.operands[0] == Opnd::Xt;
    switch (row.op) {
      case Op::Ldrb: case Op::Strb: return 1;
      case Op::Ldrh: case Op::Strh: return 2;
      case Op::Ldrsw: return 4;
      case Op::Ldp: case Op::Stp: return wide ? 16 : 8;
      default: return wide ? 8 : 4;
    }
  }

  // The offset register and its form for a register-offset operand, so
  // that the access stays in the scratch buffer.
  std::optional<uint32_t> registerOffset(const MachineState& s, const Case& cs, uint64_t base, Opnd k,
                                         unsigned bytes) {
    static const unsigned options[] = {2, 3, 6, 7};  // uxtw, lsl, sxtw, sxtx
    unsigned start = dice_.below(32);
    for (unsigned i = 0; i < 32; ++i) {
      unsigned m = (start + i) % 32;
      unsigned option = options[dice_.below(4)], shiftOn = dice_.below(2);
      uint64_t v = m == 31 ? 0 : value(s, m);
      if (option == 2) v = uint32_t(v);
      if (option == 6) v = uint64_t(int64_t(int32_t(uint32_t(v))));
      if (shiftOn) v <<= accessScale(k);
      if (!inScratch(cs, base + v, bytes)) continue;
      return (m << 16) | (option << 13) | (shiftOn << 12);
    }
    return std::nullopt;
  }

  // A signed offset (in units of `scale` bytes, `bits` wide) that puts the
  // access in the scratch buffer.
  std::optional<int64_t> offsetInto(const Case& cs, uint64_t base, unsigned bytes, unsigned scale, unsigned bits,
                                    bool isSigned) {
    int64_t lo = isSigned ? -(int64_t(1) << (bits - 1)) : 0;
    int64_t hi = isSigned ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
    std::vector<int64_t> ok;
    for (int64_t k = lo; k <= hi; ++k)
      if (inScratch(cs, base + uint64_t(k * int64_t(scale)), bytes)) ok.push_back(k);
    if (ok.empty()) return std::nullopt;
    return ok[dice_.below(unsigned(ok.size()))];
  }

  std::optional<uint32_t> fill(const InstrDesc& row, const MachineState& s, const Case& cs, uint64_t pc) {
    uint32_t w = row.match;
    for (Opnd k : row.operands)
      if (!isMemoryKind(k) && !isPostIndex(k)) w |= uint32_t(dice_.bits()) & operandBits(k);
    for (Opnd k : row.operands)  // cinc, cinv, cneg: Rm repeats Rn, or the word is csinc, ...
      if (k == Opnd::XnRm || k == Opnd::WnRm) w = (w & ~(31u << 16)) | (rnOf(w) << 16);
    if (row.op == Op::Hint && row.operands[0] == Opnd::Hint7) {
      unsigned n = (w >> 5) & 0x7f;
      if (isPointerAuthenticationHint(n) || n == 2 || n == 3 || n == 40) return std::nullopt;
    }
    if (row.op == Op::Mrs || row.op == Op::Msr) {  // NZCV, the one system register with known values
      w = (w & ~operandBits(Opnd::SysReg)) | (nzcvEncoding() << 5);
    }
    if (row.op == Op::DcCvau || row.op == Op::DcCivac || row.op == Op::DcCvac || row.op == Op::DcZva ||
        row.op == Op::IcIvau) {
      unsigned r = dice_.chance(50) ? cs.base : cs.pointer;
      if (!inScratch(cs, value(s, r), 1)) return std::nullopt;
      w = (w & ~31u) | r;
    }
    bool literal = false;
    Opnd mem = Opnd::None;
    for (Opnd k : row.operands) {
      if (isMemoryKind(k)) mem = k;
      if (k == Opnd::Label19) literal = true;
    }
    if (literal) {  // a word (or doubleword) of this sequence, up to this instruction
      unsigned bytes = accessBytes(row);
      std::vector<int64_t> ok;
      for (int64_t d = 0; d >= -int64_t(4 * cs.words.size()); d -= 4)
        if (pc + uint64_t(d) >= cs.address && pc + uint64_t(d) + bytes <= pc + 4) ok.push_back(d / 4);
      if (ok.empty()) return std::nullopt;
      w = (w & ~operandBits(Opnd::Label19)) | (uint32_t(ok[dice_.below(unsigned(ok.size()))]) & 0x7ffff) << 5;
    }
    if (row.op == Op::Adr || row.op == Op::Adrp) return w;
    if (mem == Opnd::None) return w;

    bool pre = isPreIndex(mem), post = mem == Opnd::MemBase;
    unsigned bytes = accessBytes(row);
    unsigned rn = pickBase(cs, pre || post);
    uint64_t base = rn == 31 ? value(s, reg::sp) : value(s, rn);
    w = (w & ~(31u << 5)) | (rn << 5);
    auto place = [&](BitField f, int64_t v) { w = (w & ~f.mask()) | f.place(uint64_t(v)); };
    switch (mem) {
      case Opnd::MemU12B: case Opnd::MemU12H: case Opnd::MemU12W: case Opnd::MemU12X: {
        auto k = offsetInto(cs, base, bytes, 1u << accessScale(mem), 12, false);
        if (!k) return std::nullopt;
        place({10, 12}, *k);
        break;
      }
      case Opnd::MemS9: case Opnd::MemPre9: {
        auto k = offsetInto(cs, base, bytes, 1, 9, true);
        if (!k) return std::nullopt;
        place({12, 9}, *k);
        break;
      }
      case Opnd::MemRegB: case Opnd::MemRegH: case Opnd::MemRegW: case Opnd::MemRegX: {
        auto fields = registerOffset(s, cs, base, mem, bytes);
        if (!fields) return std::nullopt;
        w = (w & ~0x001ff000u) | *fields;
        break;
      }
      case Opnd::MemP7W: case Opnd::MemP7X: case Opnd::MemP7PreW: case Opnd::MemP7PreX: {
        auto k = offsetInto(cs, base, bytes, bytes / 2, 7, true);
        if (!k) return std::nullopt;
        place({15, 7}, *k);
        break;
      }
      case Opnd::MemBase: {  // post-index: the access at the base, then a small step
        if (!inScratch(cs, base, bytes)) return std::nullopt;
        bool pair = row.op == Op::Ldp || row.op == Op::Stp;
        int64_t step = int64_t(dice_.below(17)) - 8;
        if (pair) place({15, 7}, step);
        else place({12, 9}, step * int64_t(dice_.below(9)));
        break;
      }
      default: return std::nullopt;
    }
    return w;
  }
};

// --- branches ---------------------------------------------------------------------
// A block of 6 words: the branch, then markers
//   1: add m1, m1, #1   2: add m2, m2, #2   3: add m2, m2, #4
//   4: add m2, m2, #8   5: add m3, m3, #16  (6: the epilogue)
// and a target of word 2..6, so m1..m3 and x30 show whether the branch was
// taken, where it went and what it linked.

class BranchMaker {
 public:
  explicit BranchMaker(Dice& d) : dice_(d) {
    for (const InstrDesc& row : instructionTable()) {
      // eret is UNDEFINED at EL0: qemu-user would stop with SIGILL.
      if (row.op == Op::Eret) continue;
      if (row.isBranch() && !(row.flags & kAsmOnly)) rows_.push_back(&row);
    }
  }

  // cs.address must be set; fills the words and adjusts entry values.
  void make(Case& cs) {
    const InstrDesc& row = *rows_[dice_.below(unsigned(rows_.size()))];
    unsigned regs[4];
    pickDistinct(regs, cs);
    unsigned m1 = regs[0], m2 = regs[1], m3 = regs[2], subject = regs[3];
    unsigned target = 2 + dice_.below(5);
    uint64_t targetAddr = cs.address + 4 * target;
    uint32_t w = row.match;
    for (Opnd k : row.operands) {
      switch (k) {
        case Opnd::Label26: case Opnd::Label19: case Opnd::Label14: {
          BitField f = layoutOf(k).fields[0];
          w |= f.place(target);
          break;
        }
        case Opnd::Xt: case Opnd::Wt: case Opnd::Xn:
          w |= registerKind(k)->field.place(subject);
          break;
        case Opnd::BitW: case Opnd::BitX: w |= uint32_t(dice_.bits()) & operandBits(k); break;
        default: break;
      }
    }
    if (row.op == Op::Ret && row.operands[0] == Opnd::None) subject = 30;
    switch (row.op) {
      case Op::Br: case Op::Blr: case Op::Ret: cs.x[subject] = targetAddr; break;
      case Op::Cbz: case Op::Cbnz:
        if (dice_.chance(50)) cs.x[subject] = dice_.chance(50) ? 0 : 0xffffffff00000000ull;
        break;
      default: break;
    }
    cs.words = {w, add(m1, 1), add(m2, 2), add(m2, 4), add(m2, 8), add(m3, 16)};
    for (unsigned r : {m1, m2, m3}) cs.x[r] = dice_.below(1000);
    cs.what = disassemble(w, cs.address) + " (target word " + std::to_string(target) + ")";
  }

 private:
  Dice& dice_;
  std::vector<const InstrDesc*> rows_;

  static uint32_t add(unsigned r, unsigned imm) { return 0x91000000u | (imm << 10) | (r << 5) | r; }
  void pickDistinct(unsigned* out, const Case& cs) {
    for (unsigned i = 0; i < 4; ++i) {
      bool clash;
      do {
        out[i] = dice_.below(30);  // never x30: links write it
        clash = out[i] == cs.base;
        for (unsigned j = 0; j < i; ++j) clash = clash || out[j] == out[i];
      } while (clash);
    }
  }
};

// --- the harness around each case ----------------------------------------------------

std::string x(unsigned r) { return "x" + std::to_string(r); }

// One instruction per line, so a case's address is its line count.
std::vector<std::string> prologue(const Case& cs) {
  uint64_t a = regionAddress(cs.region);
  unsigned t = cs.base == 0 ? 1 : 0;
  std::vector<std::string> out = {
      "movz " + x(cs.base) + ", #" + std::to_string(a & 0xffff),
      "movk " + x(cs.base) + ", #" + std::to_string(a >> 16) + ", lsl #16",
      "ldr " + x(t) + ", [" + x(cs.base) + ", #" + std::to_string(kTable + 8 * 32) + "]",
      "msr nzcv, " + x(t),
      "ldr " + x(t) + ", [" + x(cs.base) + ", #" + std::to_string(kTable + 8 * 31) + "]",
      "mov sp, " + x(t),
  };
  for (unsigned r = 0; r < 31; ++r)
    if (r != cs.base) out.push_back("ldr " + x(r) + ", [" + x(cs.base) + ", #" + std::to_string(kTable + 8 * r) + "]");
  return out;
}

std::vector<std::string> epilogue(const Case& cs) {
  std::vector<std::string> out;
  unsigned t = cs.base == 0 ? 1 : 0;
  for (unsigned r = 0; r < 31; ++r)
    out.push_back("str " + x(r) + ", [" + x(cs.base) + ", #" + std::to_string(kDump + 8 * r) + "]");
  out.push_back("mov " + x(t) + ", sp");
  out.push_back("str " + x(t) + ", [" + x(cs.base) + ", #" + std::to_string(kDump + 8 * 31) + "]");
  out.push_back("mrs " + x(t) + ", nzcv");
  out.push_back("str " + x(t) + ", [" + x(cs.base) + ", #" + std::to_string(kDump + 8 * 32) + "]");
  return out;
}

void putValue(std::vector<uint8_t>& bytes, size_t at, uint64_t v, unsigned size, Endian e) {
  for (unsigned i = 0; i < size; ++i) bytes[at + i] = uint8_t(v >> (e == Endian::Big ? 8 * (size - 1 - i) : 8 * i));
}

uint64_t getValue(const std::string& bytes, size_t at, unsigned size, Endian e) {
  uint64_t v = 0;
  for (unsigned i = 0; i < size; ++i)
    v |= uint64_t(uint8_t(bytes[at + i])) << (e == Endian::Big ? 8 * (size - 1 - i) : 8 * i);
  return v;
}

struct Machine {
  Target target;
  std::string qemu, endianFlag, emulation;
};

struct Tally {
  unsigned straight = 0, branches = 0, failed = 0, instructions = 0;
};

class Run {
 public:
  Run(const Machine& m, const Arm64Tools& tools, uint64_t seed) : m_(m), tools_(tools), dice_(seed) {}

  std::set<const InstrDesc*> rowsUsed;

  Tally run(z3::context& c, unsigned straight, unsigned branches) {
    SequenceMaker seqs(m_.target, dice_);
    BranchMaker brs(dice_);
    std::vector<Case> cases;
    std::ostringstream text;
    uint64_t lines = 0;
    auto emit = [&](const std::string& line) {
      text << line << "\n";
      ++lines;
    };
    for (unsigned i = 0; i < straight + branches; ++i) {
      Case cs;
      cs.kind = i < straight ? Case::Kind::Straight : Case::Kind::Branch;
      cs.region = i;
      cs.base = dice_.below(cs.kind == Case::Kind::Straight ? 31 : 30);  // a branch may link into x30
      do cs.pointer = dice_.below(31);
      while (cs.pointer == cs.base);
      for (uint64_t& r : cs.x) r = dice_.registerValue();
      cs.x[cs.base] = regionAddress(i);
      cs.x[cs.pointer] = regionAddress(i) + 8 * (1 + dice_.below(14));
      cs.sp = regionAddress(i) + 64;
      cs.nzcv = dice_.below(16);
      cs.scratch.resize(kScratch);
      for (auto& b : cs.scratch) b = uint8_t(dice_.bits());
      std::vector<std::string> pro = prologue(cs);
      cs.address = kTextBase + 4 * (lines + pro.size());
      if (cs.kind == Case::Kind::Straight) {
        seqs.make(c, cs, rowsUsed);
        cs.what = std::to_string(cs.words.size()) + " instructions";
      } else {
        brs.make(cs);
      }
      for (const std::string& l : pro) emit(l);
      for (uint32_t w : cs.words) emit(".inst " + hex(w));
      for (const std::string& l : epilogue(cs)) emit(l);
      cases.push_back(std::move(cs));
    }
    uint64_t dataSize = kRegion * cases.size();
    for (const std::string& l :
         {"movz x1, #" + std::to_string(kDataBase & 0xffff), "movk x1, #" + std::to_string(kDataBase >> 16) + ", lsl #16",
          "movz x2, #" + std::to_string(dataSize & 0xffff), "movk x2, #" + std::to_string(dataSize >> 16) + ", lsl #16",
          std::string("mov x0, #1"), std::string("mov x8, #64"), std::string("svc #0"), std::string("mov x0, #0"),
          std::string("mov x8, #93"), std::string("svc #0")})
      emit(l);

    std::vector<uint8_t> data(dataSize, 0);
    for (const Case& cs : cases) {
      size_t at = size_t(cs.region) * kRegion;
      std::copy(cs.scratch.begin(), cs.scratch.end(), data.begin() + long(at));
      for (unsigned r = 0; r < 31; ++r) putValue(data, at + kTable + 8 * r, cs.x[r], 8, m_.target.endian);
      putValue(data, at + kTable + 8 * 31, cs.sp, 8, m_.target.endian);
      putValue(data, at + kTable + 8 * 32, uint64_t(cs.nzcv) << 28, 8, m_.target.endian);
    }

    std::string out = buildAndRun(text.str(), data);
    Tally tally;
    if (out.size() != dataSize) {
      std::cout << "  " << m_.target.str() << ": QEMU wrote " << out.size() << " bytes, expected " << dataSize << "\n";
      tally.failed = unsigned(cases.size());
      return tally;
    }
    for (const Case& cs : cases) compare(c, cs, out, tally);
    return tally;
  }

 private:
  const Machine& m_;
  const Arm64Tools& tools_;
  Dice dice_;

  std::string buildAndRun(const std::string& text, const std::vector<uint8_t>& data) {
    TempDir dir;
    std::ostringstream src;
    src << ".text\n.globl _start\n_start:\n" << text << ".data\n.incbin \"" << dir.file("data.bin") << "\"\n";
    writeFile(dir.file("prog.s"), src.str());
    writeFile(dir.file("data.bin"), std::string(data.begin(), data.end()));
    auto as = oracle::run({tools_.as, m_.endianFlag, "-o", dir.file("prog.o"), dir.file("prog.s")});
    if (as.status != 0) throw std::runtime_error("aarch64-linux-gnu-as failed: " + as.err.substr(0, 2000));
    writeFile(dir.file("link.ld"), "SECTIONS {\n  . = " + hex(kTextBase) + ";\n  .text : { *(.text) }\n  . = " +
                                       hex(kDataBase) + ";\n  .data : { *(.data) }\n}\n");
    auto ld = oracle::run({tools_.ld, "-static", "-m", m_.emulation, "-e", "_start", "-T", dir.file("link.ld"), "-o",
                           dir.file("prog"), dir.file("prog.o")});
    if (ld.status != 0) throw std::runtime_error("aarch64-linux-gnu-ld failed: " + ld.err);
    auto q = oracle::run({m_.qemu, "-cpu", "cortex-a72", dir.file("prog")});
    if (q.status != 0) {
      // Keep the program for a look with qemu-aarch64 -d in_asm,cpu.
      std::string kept = std::filesystem::temp_directory_path() / "patchcheck-qemu-arm64.elf";
      std::filesystem::copy_file(dir.file("prog"), kept, std::filesystem::copy_options::overwrite_existing);
      std::cout << "  " << m_.qemu << " exited " << q.status << ": " << q.err << "  (program kept as " << kept << ")\n";
    }
    return q.out;
  }

  void compare(z3::context& c, const Case& cs, const std::string& out, Tally& tally) {
    ConcreteRun ours = runConcrete(c, startOf(m_.target, cs));
    tally.instructions += ours.steps;
    (cs.kind == Case::Kind::Straight ? tally.straight : tally.branches)++;
    std::vector<std::string> diffs;
    if (ours.stop != "left the program" || ours.pc != cs.address + 4 * cs.words.size())
      diffs.push_back("model stopped: " + ours.stop + " at " + hex(ours.pc));
    size_t at = size_t(cs.region) * kRegion;
    Endian e = m_.target.endian;
    auto check = [&](const std::string& what, std::optional<uint64_t> mine, uint64_t theirs) {
      if (!mine) diffs.push_back(what + ": model unknown, qemu " + hex(theirs));
      else if (*mine != theirs) diffs.push_back(what + ": model " + hex(*mine) + ", qemu " + hex(theirs));
    };
    for (unsigned r = 0; r < 31; ++r) check(x(r), ours.reg(r), getValue(out, at + kDump + 8 * r, 8, e));
    check("sp", ours.reg(reg::sp), getValue(out, at + kDump + 8 * 31, 8, e));
    uint64_t theirs = getValue(out, at + kDump + 8 * 32, 8, e);
    const char* flag = "nzcv";
    for (unsigned i = 0; i < 4; ++i)
      check(std::string(1, flag[i]), ours.reg(reg::n + i), (theirs >> (31 - i)) & 1);
    auto scratch = ours.bytes(regionAddress(cs.region), kScratch);
    for (unsigned i = 0; i < kScratch; ++i) check("byte " + std::to_string(i), scratch[i], uint8_t(out[at + i]));
    if (diffs.empty()) return;
    ++tally.failed;
    std::cout << "  MISMATCH " << m_.target.str() << " case " << cs.region << " (" << cs.what << ") at "
              << hex(cs.address) << ":\n";
    for (size_t i = 0; i < cs.words.size(); ++i)
      std::cout << "    " << hex(cs.words[i]) << "  " << disassemble(cs.words[i], cs.address + 4 * i) << "\n";
    for (size_t i = 0; i < diffs.size() && i < 8; ++i) std::cout << "    " << diffs[i] << "\n";
  }
};

}  // namespace

namespace patchcheck::oracle::qemu_crossval {

// This plug-in's part of oracle.qemu_crossval (tests/oracle/qemu_crossval.cpp runs every plug-in's).
int arm64Part([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    Arm64Tools tools = requireArm64Tools();
    uint64_t seed = 20261124;
    if (const char* s = std::getenv("PATCHCHECK_SEED")) seed = std::strtoull(s, nullptr, 0);
    unsigned straight = 2000, branches = 400;
    if (argc > 1) straight = unsigned(std::atoi(argv[1]));
    if (argc > 2) branches = unsigned(std::atoi(argv[2]));
    // Little-endian (Linux's arm64) with the full count; big-endian data
    // (aarch64_be: instructions stay little-endian) with half of it.
    Target big = *targetNamed("arm64");
    big.endian = Endian::Big;
    const Machine machines[] = {
        {*targetNamed("arm64"), requireTool("qemu-aarch64", "qemu-user"), "-EL", "aarch64linux"},
        {big, requireTool("qemu-aarch64_be", "qemu-user"), "-EB", "aarch64linuxb"},
    };
    std::cout << "QEMU cross-validation (arm64), seed " << seed << "\n";
    // One Z3 context for the whole run, never deleted: deleting a context
    // that has held this many array terms costs more than the run (Z3
    // 4.8), and the process ends here anyway.
    z3::context& ctx = *new z3::context;
    Tally t;
    std::set<const InstrDesc*> used;
    unsigned index = 0;
    for (const Machine& m : machines) {
      unsigned share = index == 0 ? 1 : 2;
      Run runner(m, tools, seed + 1000003ull * index++);
      Tally one = runner.run(ctx, straight / share, branches / share);
      used.insert(runner.rowsUsed.begin(), runner.rowsUsed.end());
      std::cout << "  " << m.target.str() << " (" << m.qemu << " -cpu cortex-a72): " << one.straight
                << " straight-line sequences, " << one.branches << " branch cases, " << one.instructions
                << " instructions executed, " << one.failed << " mismatches\n";
      t.straight += one.straight;
      t.branches += one.branches;
      t.failed += one.failed;
      t.instructions += one.instructions;
    }
    unsigned rows = 0;
    std::set<std::string> unused;
    for (const InstrDesc& row : instructionTable()) {
      if (row.flags & kAsmOnly) continue;
      ++rows;
      if (!used.count(&row) && !row.isBranch())
        unused.insert(std::string(row.mnemonic) + (row.keyword.empty() ? "" : " " + std::string(row.keyword)));
    }
    std::cout << "table rows in straight-line sequences: " << used.size() << " of " << rows
              << " (branch rows are the branch cases); never in a sequence:";
    for (const std::string& u : unused) std::cout << " [" << u << "]";
    std::cout << "\ntotal: " << t.straight << " straight-line sequences, " << t.branches << " branch cases, "
              << t.instructions << " instructions executed\n";
    unsigned cases = t.straight + t.branches;
    std::cout << (cases >= t.failed ? cases - t.failed : 0) << " passed, " << t.failed << " failed\n";
    return t.failed == 0 && t.straight >= 2000 && t.branches > 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cout << "error: " << e.what() << "\n0 passed, 1 failed\n";
    return 1;
  }
}

}  // namespace patchcheck::oracle::qemu_crossval
