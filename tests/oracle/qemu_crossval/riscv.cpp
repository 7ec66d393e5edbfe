// Cross-validation of the RISC-V concrete semantics against QEMU user mode
// (qemu-riscv64, qemu-riscv32), an implementation nobody here wrote. One
// static ELF per register width holds every case, assembled and linked by
// GNU as and ld: each case loads random values into x1..x31 from a table,
// runs either a random straight-line sequence of unprivileged instructions
// (as `.2byte`/`.4byte` data from our encoder's table, compressed ones
// included) or one generated branch, and stores x1..x31 next to its
// scratch buffer; at the end one write syscall dumps all of it. Our
// semantics (model/riscv/Concrete.h) run the same bytes from the same
// inputs and must agree on every register and every scratch byte.
//
// Not generated, because the architecture leaves them open or QEMU's user
// mode cannot run them: instructions the model reports a possible fault
// for (they are retried), values the model holds unknown (every CSR: their
// values are the implementation's), privileged rows (sret, mret, wfi,
// sfence.vma), exception-generating rows (ecall, ebreak, unimp), memory
// accesses outside the case's scratch buffer, and an SC whose outcome the
// architecture leaves open where QEMU fixes it: after a store since its
// LR, or of another width than its LR (QEMU compares the value its LR
// read; the model, as the manual, keeps the reservation).
//
// On the variants with F and D (run with FS on, as QEMU's user mode runs):
// f0..f31 are loaded from a table of special values (signed zeros,
// infinities, quiet and signaling NaNs, subnormals, the largest and
// smallest normals, NaN-boxed singles of the same, unboxed words) and
// stored after the case with fcsr, and compared too. The F/D rows the
// model computes exactly run; those whose results it holds unknown (the
// arithmetic and fcvt) are never generated, by the rule above.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "encoder/Hex.h"
#include "encoder/IsaRegistry.h"
#include "encoder/riscv/Decoder.h"
#include "encoder/riscv/InstructionTable.h"
#include "model/riscv/Concrete.h"
#include "model/riscv/ControlFlow.h"
#include "model/riscv/RegisterFile.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::riscv;
using namespace patchcheck::oracle;

namespace {

// --- memory layout of one case ----------------------------------------------
// Region i at kDataBase + i * kRegion: [0, 128) the scratch buffer the
// sequence may load from and store to; [256, 512) the entry values (slot r
// for xr, 8 bytes each); [1024, 1280) the values at the end. With F and D:
// [512, 768) the f registers' entry values, [1280, 1536) their values at
// the end, 1536 fcsr at the end.
constexpr uint64_t kTextBase = 0x10000, kDataBase = 0x1000000, kRegion = 2048;
constexpr unsigned kScratch = 128, kTable = 256, kDump = 1024, kFTable = 512, kFDump = 1280, kFcsrDump = 1536;

uint64_t regionAddress(unsigned i) { return kDataBase + uint64_t(i) * kRegion; }

struct Case {
  enum class Kind { Straight, Branch } kind = Kind::Straight;
  unsigned region = 0;
  unsigned base = 0;             // holds the region's address; never written
  unsigned pointer = 0;          // x8..x15, starts inside the scratch buffer; may move
  std::array<uint64_t, 32> x{};
  std::array<uint64_t, 32> f{};  // with F and D
  std::vector<uint8_t> scratch;
  std::vector<uint8_t> code;     // the code under test
  std::vector<uint32_t> insns;   // the same, one instruction each (for reports)
  uint64_t address = 0;          // where code[0] lies
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
  // An f register's bits: IEEE special values as doubles, as NaN-boxed
  // singles, or a word that is not a boxed single.
  uint64_t floatValue() {
    static const uint64_t doubles[] = {0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                                       0x7ff8000000000000ull, 0x7ff0000000000001ull, 0xfff8000000000001ull, 1,
                                       0x000fffffffffffffull, 0x0010000000000000ull, 0x7fefffffffffffffull,
                                       0x3ff0000000000000ull, 0xbff0000000000000ull, 0x8000000000000001ull};
    static const uint32_t singles[] = {0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001,
                                       1, 0x007fffff, 0x00800000, 0x7f7fffff, 0x3f800000, 0xbf800000, 0x80000001};
    switch (below(5)) {
      case 0: return doubles[below(sizeof doubles / sizeof doubles[0])];
      case 1: return 0xffffffff00000000ull | singles[below(sizeof singles / sizeof singles[0])];
      case 2: return 0xffffffff00000000ull | uint32_t(bits());
      case 3: return bits() >> below(2);
      default: return bits();
    }
  }

 private:
  std::mt19937_64 rng_;
};

unsigned lengthOfBits(uint32_t w) { return lengthOf(uint16_t(w)) == 2 ? 2 : 4; }

void append(std::vector<uint8_t>& out, uint32_t w) {
  for (unsigned i = 0; i < lengthOfBits(w); ++i) out.push_back(uint8_t(w >> (8 * i)));
}

// A register value as the target holds it (RV32: the low word, sign-extended
// in our 64-bit slots so that both sides read the same number back).
uint64_t asRegister(uint64_t v, unsigned xlen) { return xlen == 64 ? v : uint64_t(int64_t(int32_t(uint32_t(v)))); }

MachineState entryState(z3::context& c, const Target& t, const Case& cs) {
  MachineState s(c, t);
  s.concrete = true;
  unsigned w = s.width();
  for (unsigned r = 1; r < 32; ++r) s.regs[r] = c.bv_val(w == 64 ? cs.x[r] : uint32_t(cs.x[r]), w);
  s.regs[regfile::reservation] = c.bool_val(false);
  if (featuresOf(t).fd) {  // QEMU's user mode: FS on, fcsr cleared by the harness
    for (unsigned r = 0; r < 32; ++r) s.regs[regfile::f(r)] = c.bv_val(cs.f[r], 64);
    s.regs[regfile::fflags] = c.bv_val(0, 5);
    s.regs[regfile::frm] = c.bv_val(0, 3);
    s.regs[regfile::fsOn] = c.bool_val(true);
  }
  uint64_t region = regionAddress(cs.region);
  for (unsigned i = 0; i < kScratch; ++i)
    s.memory = z3::store(s.memory, c.bv_val(region + i, 64), c.bv_val(cs.scratch[i], 8));
  return s;
}

ConcreteStart startOf(const Target& t, const Case& cs) {
  ConcreteStart s;
  s.target = t;
  s.base = cs.address;
  s.code = cs.code;
  s.x = cs.x;
  s.f = cs.f;
  s.fsOn = featuresOf(t).fd;
  s.memory = {{regionAddress(cs.region), cs.scratch}, {cs.address, cs.code}};
  s.maxSteps = 200;
  return s;
}

bool inScratch(const Case& cs, uint64_t a, unsigned n) {
  uint64_t lo = regionAddress(cs.region);
  return a >= lo && a + n <= lo + kScratch && a + n >= a;
}

unsigned accessBytes(Op op) {
  switch (op) {
    case Op::Lb: case Op::Lbu: case Op::Sb: return 1;
    case Op::Lh: case Op::Lhu: case Op::Sh: return 2;
    case Op::Ld: case Op::Sd: case Op::Fld: case Op::Fsd: return 8;
    default: return op >= Op::LrD && op <= Op::AmomaxuD ? 8 : 4;
  }
}

bool isMemoryKind(Opnd k) {
  switch (k) {
    case Opnd::MemI: case Opnd::MemS: case Opnd::AmoAddr: case Opnd::CMemLwsp: case Opnd::CMemLdsp:
    case Opnd::CMemSwsp: case Opnd::CMemSdsp: case Opnd::CMemW: case Opnd::CMemD:
      return true;
    default: return false;
  }
}

// --- random straight-line sequences ---------------------------------------------

class SequenceMaker {
 public:
  SequenceMaker(const Target& t, Dice& d) : t_(t), ft_(featuresOf(t)), dice_(d) {
    for (const Row& row : instructionTable()) {
      if ((row.flags & (kAlias | kTransfer)) || !row.availableOn(ft_.xlen, ft_.compressed, ft_.fd)) continue;
      switch (row.op) {
        case Op::Ecall: case Op::Ebreak: case Op::Unimp: case Op::Sret: case Op::Mret: case Op::Wfi:
        case Op::SfenceVma: case Op::Csrrw: case Op::Csrrs: case Op::Csrrc: case Op::Csrrwi: case Op::Csrrsi:
        case Op::Csrrci:
          continue;
        default: rows_.push_back(&row);
      }
    }
  }

  // Fills cs with 10..50 instructions that, run from cs's entry state,
  // raise no fault in our model, leave every register known, never write
  // the base register and touch only the scratch buffer.
  void make(z3::context& c, Case& cs, std::set<const Row*>& used) {
    MachineState s = entryState(c, t_, cs);
    unsigned length = 10 + dice_.below(41);
    unsigned lrBytes = 0;  // the width of the LR since which nothing was stored (0: none)
    for (unsigned attempts = 0; cs.insns.size() < length && attempts < 5000; ++attempts) {
      const Row& row = *rows_[dice_.below(unsigned(rows_.size()))];
      uint64_t pc = cs.address + cs.code.size();
      auto filled = fill(row, s, cs);
      if (!filled) continue;
      uint32_t w = *filled;
      Decoded d = decode(w, ft_.xlen, ft_.compressed, ft_.fd);
      if (d.row != &row) continue;
      bool sc = row.op == Op::ScW || row.op == Op::ScD;
      bool held = *concreteValue(s.reg(regfile::reservation)) != 0;
      if (sc && held && lrBytes != accessBytes(row.op)) continue;
      MachineState trial = s;
      size_t loadsBefore = trial.loaded.size(), storesBefore = trial.stored.size();
      Cpu cpu(trial, c.bv_val(pc, 64));
      std::vector<Fault> faults = cpu.step(fetchInstruction(c, w));
      bool bad = false;
      for (const Fault& f : faults) {
        auto v = concreteValue(f.when);
        bad = bad || !v || *v;
      }
      for (unsigned r = 0; r < cpu.state.regs.size() && !bad; ++r) bad = !concreteValue(cpu.state.reg(r));
      for (size_t i = loadsBefore; i < cpu.state.loaded.size() && !bad; ++i) {
        auto a = concreteValue(cpu.state.loaded[i]);
        bad = !a || !inScratch(cs, *a, 1);
      }
      for (size_t i = storesBefore; i < cpu.state.stored.size() && !bad; ++i) {
        auto a = concreteValue(cpu.state.stored[i]);
        bad = !a || !inScratch(cs, *a, 1);
      }
      if (bad || *concreteValue(cpu.pc) != pc + d.length) continue;
      if (*concreteValue(cpu.state.reg(cs.base)) != asRegister(regionAddress(cs.region), ft_.xlen)) continue;
      if (row.op == Op::LrW || row.op == Op::LrD) lrBytes = accessBytes(row.op);
      else if (cpu.state.stored.size() > storesBefore) lrBytes = 0;
      s = cpu.state;
      append(cs.code, w);
      cs.insns.push_back(w);
      used.insert(&row);
    }
  }

 private:
  Target t_;
  Features ft_;
  Dice& dice_;
  std::vector<const Row*> rows_;

  uint64_t value(const MachineState& s, unsigned r) const {
    return r == 0 ? 0 : asRegister(*concreteValue(s.reg(r)), ft_.xlen);
  }

  // The values an immediate kind can hold, in bytes: its range and scale.
  static std::vector<int64_t> immediates(Opnd k) {
    const ImmLayout& l = layoutOf(k);
    int64_t lo = l.isSigned ? -(int64_t(1) << (l.bits - 1)) : 0;
    int64_t hi = l.isSigned ? (int64_t(1) << (l.bits - 1)) - 1 : (int64_t(1) << l.bits) - 1;
    std::vector<int64_t> out;
    for (int64_t v = lo; v <= hi; v += int64_t(1) << l.scale) out.push_back(v);
    return out;
  }

  // A base register for a memory operand and an offset of kind `k` that
  // put an access of `bytes` in the scratch buffer.
  std::optional<uint32_t> memory(Opnd k, const MachineState& s, const Case& cs, unsigned bytes) {
    std::vector<unsigned> bases;
    switch (k) {
      case Opnd::CMemLwsp: case Opnd::CMemLdsp: case Opnd::CMemSwsp: case Opnd::CMemSdsp: bases = {2}; break;
      case Opnd::CMemW: case Opnd::CMemD:
        for (unsigned r : {cs.base, cs.pointer, 2u})
          if (r >= 8 && r <= 15) bases.push_back(r);
        break;
      default: bases = {cs.base, cs.pointer, 2}; break;
    }
    if (bases.empty()) return std::nullopt;
    unsigned b = bases[dice_.below(unsigned(bases.size()))];
    uint64_t a = value(s, b);
    uint32_t w = 0;
    switch (k) {
      case Opnd::AmoAddr:
        if (!inScratch(cs, a, bytes)) return std::nullopt;
        return b << 15;
      case Opnd::MemI: case Opnd::MemS: w = b << 15; break;
      case Opnd::CMemW: case Opnd::CMemD: w = (b - 8) << 7; break;
      default: break;  // sp-relative: sp is implied
    }
    std::vector<int64_t> ok;
    for (int64_t v : immediates(k))
      if (inScratch(cs, a + uint64_t(v), bytes)) ok.push_back(v);
    if (ok.empty()) return std::nullopt;
    return w | placeImm(k, uint64_t(ok[dice_.below(unsigned(ok.size()))]));
  }

  std::optional<uint32_t> fill(const Row& row, const MachineState& s, const Case& cs) {
    uint32_t w = row.match;
    for (Opnd k : row.operands)
      if (k != Opnd::None && !isMemoryKind(k)) w |= uint32_t(dice_.bits()) & operandBits(k) & ~row.mask;
    for (Opnd k : row.operands) {
      if (!isMemoryKind(k)) continue;
      auto m = memory(k, s, cs, accessBytes(row.op));
      if (!m) return std::nullopt;
      w = (w & ~operandBits(k)) | *m;
    }
    return w;
  }
};

// --- branches ---------------------------------------------------------------------
// A block: the transfer, then five 4-byte markers
//   1: addi m1, m1, 1   2: addi m2, m2, 2   3: addi m2, m2, 4   4: addi m2, m2, 8   5: addi m3, m3, 16
// and a target at a marker or at the block's end, so the registers say
// which way the branch went and where it landed.

class BranchMaker {
 public:
  BranchMaker(const Target& t, Dice& d) : ft_(featuresOf(t)), dice_(d) {
    for (const Row& row : instructionTable())
      if ((row.flags & kTransfer) && !(row.flags & kAlias) && row.availableOn(ft_.xlen, ft_.compressed))
        rows_.push_back(&row);
  }

  void make(Case& cs, std::set<const Row*>& used) {
    const Row& row = *rows_[dice_.below(unsigned(rows_.size()))];
    used.insert(&row);
    unsigned len = row.length();
    unsigned regs[5];
    pickDistinct(regs, cs, row);
    unsigned m1 = regs[0], m2 = regs[1], m3 = regs[2], subject = regs[3], other = regs[4];
    int64_t offset = int64_t(len + 4 * (1 + dice_.below(5)));  // a marker after the first, or the end
    uint64_t target = cs.address + uint64_t(offset);
    uint32_t w = row.match;
    unsigned rdField = 0;
    for (Opnd k : row.operands) {
      switch (k) {
        case Opnd::BrB: case Opnd::BrJ: case Opnd::CBr: case Opnd::CJmp: w |= placeImm(k, uint64_t(offset)); break;
        case Opnd::Rs1: case Opnd::CRs1Hi: w |= k == Opnd::Rs1 ? subject << 15 : subject << 7; break;
        case Opnd::CRs1P9: w |= (subject - 8) << 7; break;
        case Opnd::Rs2: w |= other << 20; break;
        case Opnd::Rd: rdField = link(cs, regs); w |= rdField << 7; break;
        case Opnd::MemI: {  // jalr rd, imm(rs1): rs1 + imm is the target, bit 0 set or not
          int64_t imm = int64_t(dice_.below(64)) - 32;
          w |= subject << 15 | placeImm(k, uint64_t(imm));
          cs.x[subject] = target - uint64_t(imm) + (dice_.chance(50) ? 1 : 0);
          break;
        }
        default: break;
      }
    }
    if (row.op == Op::Jalr && row.operands[0] == Opnd::CRs1Hi)  // c.jr, c.jalr: target in rs1
      cs.x[subject] = target + (dice_.chance(50) ? 1 : 0);
    if (row.op != Op::Jal && row.op != Op::Jalr && dice_.chance(40)) cs.x[other] = cs.x[subject];
    if ((row.op == Op::Beq || row.op == Op::Bne) && row.length() == 2 && dice_.chance(50)) cs.x[subject] = 0;
    for (unsigned r : {m1, m2, m3}) cs.x[r] = dice_.below(1000);
    cs.insns = {w, addi(m1, 1), addi(m2, 2), addi(m2, 4), addi(m2, 8), addi(m3, 16)};
    for (uint32_t i : cs.insns) append(cs.code, i);
    cs.what = std::string(row.mnemonic) + " to +" + std::to_string(offset);
  }

 private:
  Features ft_;
  Dice& dice_;
  std::vector<const Row*> rows_;

  static uint32_t addi(unsigned r, unsigned imm) { return 0x13u | (r << 7) | (r << 15) | (imm << 20); }
  // A link register: any but the base and the markers (x0 too: a plain jump).
  unsigned link(const Case& cs, const unsigned* regs) {
    for (;;) {
      unsigned r = dice_.below(32);
      if (r != cs.base && r != regs[0] && r != regs[1] && r != regs[2]) return r;
    }
  }
  void pickDistinct(unsigned* out, const Case& cs, const Row& row) {
    bool prime = false;
    for (Opnd k : row.operands) prime = prime || k == Opnd::CRs1P9;
    for (unsigned i = 0; i < 5; ++i) {
      bool clash;
      do {
        out[i] = i == 3 && prime ? 8 + dice_.below(8) : 1 + dice_.below(31);
        clash = out[i] == cs.base || out[i] == 2;  // sp stays where the harness put it
        for (unsigned j = 0; j < i; ++j) clash = clash || out[j] == out[i];
      } while (clash);
    }
  }
};

// --- the harness around each case ----------------------------------------------------

std::string x(unsigned r) { return "x" + std::to_string(r); }

// Every harness line is one 4-byte instruction (.option norvc), so a
// case's address is known from the lines before it.
std::vector<std::string> loadAddress(unsigned r, uint64_t a) {
  int64_t lo = int64_t(a & 0xfff);
  if (lo >= 0x800) lo -= 0x1000;
  uint64_t hi = (a - uint64_t(lo)) >> 12;
  return {"lui " + x(r) + ", " + std::to_string(hi), "addi " + x(r) + ", " + x(r) + ", " + std::to_string(lo)};
}

struct Machine {
  Target target;
  std::string qemu, march, mabi, emulation;
};

struct Tally {
  unsigned straight = 0, branches = 0, failed = 0, instructions = 0, floats = 0;  // floats: F/D instructions in them
};

class Run {
 public:
  Run(const Machine& m, const std::string& as, const std::string& ld, uint64_t seed)
      : m_(m), as_(as), ld_(ld), xlen_(m.target.registerBits()), fd_(featuresOf(m.target).fd), dice_(seed) {}

  std::set<const Row*> rowsUsed;

  Tally run(z3::context& c, unsigned straight, unsigned branches) {
    SequenceMaker seqs(m_.target, dice_);
    BranchMaker brs(m_.target, dice_);
    std::vector<Case> cases;
    std::ostringstream text;
    uint64_t at = kTextBase;
    auto emit = [&](const std::string& line) {
      text << line << "\n";
      at += 4;
    };
    const std::string load = xlen_ == 64 ? "ld " : "lw ", store = xlen_ == 64 ? "sd " : "sw ";
    for (unsigned i = 0; i < straight + branches; ++i) {
      Case cs;
      cs.kind = i < straight ? Case::Kind::Straight : Case::Kind::Branch;
      cs.region = i;
      // Not sp; not ra in a branch case (c.jal and c.jalr link into it).
      do cs.base = 1 + dice_.below(31);
      while (cs.base == 2 || (cs.kind == Case::Kind::Branch && cs.base == 1));
      do cs.pointer = 8 + dice_.below(8);
      while (cs.pointer == cs.base);
      for (uint64_t& r : cs.x) r = asRegister(dice_.registerValue(), xlen_);
      cs.x[0] = 0;
      cs.x[cs.base] = regionAddress(i);
      cs.x[cs.pointer] = regionAddress(i) + 8 * (1 + dice_.below(14));
      cs.x[2] = regionAddress(i) + 64;  // sp: sp-relative compressed accesses reach the scratch buffer
      cs.scratch.resize(kScratch);
      for (auto& b : cs.scratch) b = uint8_t(dice_.bits());
      if (fd_)
        for (uint64_t& r : cs.f) r = dice_.floatValue();
      std::vector<std::string> pro = loadAddress(cs.base, regionAddress(i));
      if (fd_) {
        for (unsigned r = 0; r < 32; ++r)
          pro.push_back("fld f" + std::to_string(r) + ", " + std::to_string(kFTable + 8 * r) + "(" + x(cs.base) + ")");
        pro.push_back("csrw fcsr, x0");
      }
      for (unsigned r = 1; r < 32; ++r)
        if (r != cs.base) pro.push_back(load + x(r) + ", " + std::to_string(kTable + 8 * r) + "(" + x(cs.base) + ")");
      cs.address = at + 4 * pro.size();
      if (cs.kind == Case::Kind::Straight) {
        seqs.make(c, cs, rowsUsed);
        cs.what = std::to_string(cs.insns.size()) + " instructions";
      } else {
        brs.make(cs, rowsUsed);
      }
      for (const std::string& l : pro) emit(l);
      for (uint32_t w : cs.insns) {
        text << (lengthOfBits(w) == 2 ? ".2byte " : ".4byte ") << hex(w) << "\n";
        at += lengthOfBits(w);
      }
      for (unsigned r = 1; r < 32; ++r)
        emit(store + x(r) + ", " + std::to_string(kDump + 8 * r) + "(" + x(cs.base) + ")");
      if (fd_) {
        for (unsigned r = 0; r < 32; ++r)
          emit("fsd f" + std::to_string(r) + ", " + std::to_string(kFDump + 8 * r) + "(" + x(cs.base) + ")");
        unsigned t = cs.base == 5 ? 6 : 5;  // every x register is stored already
        emit("csrr " + x(t) + ", fcsr");
        emit("sw " + x(t) + ", " + std::to_string(kFcsrDump) + "(" + x(cs.base) + ")");
      }
      cases.push_back(std::move(cs));
    }
    uint64_t dataSize = kRegion * cases.size();
    for (const std::string& l : loadAddress(11, kDataBase)) emit(l);
    for (const std::string& l : loadAddress(12, dataSize)) emit(l);
    for (const std::string& l : {std::string("addi x10, x0, 1"), std::string("addi x17, x0, 64"),
                                 std::string("ecall"), std::string("addi x10, x0, 0"), std::string("addi x17, x0, 93"),
                                 std::string("ecall")})
      emit(l);

    std::vector<uint8_t> data(dataSize, 0);
    for (const Case& cs : cases) {
      size_t base = size_t(cs.region) * kRegion;
      std::copy(cs.scratch.begin(), cs.scratch.end(), data.begin() + long(base));
      for (unsigned r = 0; r < 32; ++r)
        for (unsigned k = 0; k < 8; ++k) {
          data[base + kTable + 8 * r + k] = uint8_t(cs.x[r] >> (8 * k));
          data[base + kFTable + 8 * r + k] = uint8_t(cs.f[r] >> (8 * k));
        }
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
  std::string as_, ld_;
  unsigned xlen_;
  bool fd_;
  Dice dice_;

  std::string buildAndRun(const std::string& text, const std::vector<uint8_t>& data) {
    TempDir dir;
    std::ostringstream src;
    src << ".option norvc\n.option norelax\n.text\n.globl _start\n_start:\n"
        << text << ".data\n.incbin \"" << dir.file("data.bin") << "\"\n";
    writeFile(dir.file("prog.s"), src.str());
    writeFile(dir.file("data.bin"), std::string(data.begin(), data.end()));
    auto as = oracle::run({as_, "-march=" + m_.march, "-mabi=" + m_.mabi, "-o", dir.file("prog.o"), dir.file("prog.s")});
    if (as.status != 0) throw std::runtime_error("riscv64-linux-gnu-as failed: " + as.err.substr(0, 2000));
    writeFile(dir.file("link.ld"), "SECTIONS {\n  . = " + hex(kTextBase) + ";\n  .text : { *(.text) }\n  . = " +
                                       hex(kDataBase) + ";\n  .data : { *(.data) }\n}\n");
    auto ld = oracle::run({ld_, "-static", "-m", m_.emulation, "-e", "_start", "-T", dir.file("link.ld"), "-o",
                           dir.file("prog"), dir.file("prog.o")});
    if (ld.status != 0) throw std::runtime_error("riscv64-linux-gnu-ld failed: " + ld.err);
    auto q = oracle::run({m_.qemu, dir.file("prog")});
    if (q.status != 0) {
      std::string kept = std::filesystem::temp_directory_path() / "patchcheck-qemu-riscv.elf";
      std::filesystem::copy_file(dir.file("prog"), kept, std::filesystem::copy_options::overwrite_existing);
      std::cout << "  " << m_.qemu << " exited " << q.status << ": " << q.err << "  (program kept as " << kept << ")\n";
    }
    return q.out;
  }

  std::string show(uint32_t w, uint64_t address) const {
    return m_.target.isa->disassemble(w & (lengthOfBits(w) == 2 ? 0xffff : ~0u), lengthOfBits(w), address, m_.target);
  }

  void compare(z3::context& c, const Case& cs, const std::string& out, Tally& tally) {
    ConcreteRun ours = runConcrete(c, startOf(m_.target, cs));
    tally.instructions += ours.steps;
    for (uint32_t w : cs.insns) {
      Decoded d = decode(w, xlen_, true, fd_);
      if (d.row && isFloatOp(d.op)) ++tally.floats;
    }
    (cs.kind == Case::Kind::Straight ? tally.straight : tally.branches)++;
    std::vector<std::string> diffs;
    if (ours.stop != "left the program" || ours.pc != cs.address + cs.code.size())
      diffs.push_back("model stopped: " + ours.stop + " at " + hex(ours.pc));
    size_t at = size_t(cs.region) * kRegion;
    auto check = [&](const std::string& what, std::optional<uint64_t> mine, uint64_t theirs) {
      if (!mine) diffs.push_back(what + ": model unknown, qemu " + hex(theirs));
      else if (*mine != theirs) diffs.push_back(what + ": model " + hex(*mine) + ", qemu " + hex(theirs));
    };
    for (unsigned r = 1; r < 32; ++r) {
      uint64_t theirs = 0;
      for (unsigned k = 0; k < xlen_ / 8; ++k) theirs |= uint64_t(uint8_t(out[at + kDump + 8 * r + k])) << (8 * k);
      auto mine = ours.reg(r);
      if (mine && xlen_ == 32) mine = uint32_t(*mine);
      check(x(r), mine, theirs);
    }
    auto word = [&](unsigned offset, unsigned bytes) {
      uint64_t v = 0;
      for (unsigned k = 0; k < bytes; ++k) v |= uint64_t(uint8_t(out[at + offset + k])) << (8 * k);
      return v;
    };
    if (fd_) {
      for (unsigned r = 0; r < 32; ++r) check("f" + std::to_string(r), ours.floatReg(r), word(kFDump + 8 * r, 8));
      auto flags = ours.floatReg(32), rm = ours.floatReg(33);
      check("fcsr", flags && rm ? std::optional<uint64_t>(*rm << 5 | *flags) : std::nullopt, word(kFcsrDump, 4));
    }
    auto scratch = ours.bytes(regionAddress(cs.region), kScratch);
    for (unsigned i = 0; i < kScratch; ++i) check("byte " + std::to_string(i), scratch[i], uint8_t(out[at + i]));
    if (diffs.empty()) return;
    ++tally.failed;
    std::cout << "  MISMATCH " << m_.target.str() << " case " << cs.region << " (" << cs.what << ") at "
              << hex(cs.address) << ":\n";
    uint64_t a = cs.address;
    for (uint32_t w : cs.insns) {
      std::cout << "    " << hex(w) << "  " << show(w, a) << "\n";
      a += lengthOfBits(w);
    }
    for (size_t i = 0; i < diffs.size() && i < 8; ++i) std::cout << "    " << diffs[i] << "\n";
    if (fd_) {
      std::cout << "    f at entry:";
      for (unsigned r = 0; r < 32; ++r) std::cout << " f" << r << "=" << hex(cs.f[r]);
      std::cout << "\n";
    }
  }
};

// The riscv targets to run: the first variant with C of each register
// width, then the first with C, F and D of each.
std::vector<Target> targetsToRun() {
  std::vector<Target> out;
  for (const IsaPlugin* p : isas()) {
    if (p->family() != "riscv") continue;
    for (bool fd : {false, true})
      for (unsigned bits : {64u, 32u})
        for (std::string_view v : p->variants()) {
          auto t = targetNamed(v);
          if (t && t->registerBits() == bits && featuresOf(*t).compressed && featuresOf(*t).fd == fd) {
            out.push_back(*t);
            break;
          }
        }
  }
  return out;
}

}  // namespace

namespace patchcheck::oracle::qemu_crossval {

// This plug-in's part of oracle.qemu_crossval (tests/oracle/qemu_crossval.cpp runs every plug-in's).
int riscvPart([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    std::string as = requireTool("riscv64-linux-gnu-as", "binutils-riscv64-linux-gnu");
    std::string ld = requireTool("riscv64-linux-gnu-ld", "binutils-riscv64-linux-gnu");
    uint64_t seed = 20261127;
    if (const char* s = std::getenv("PATCHCHECK_SEED")) seed = std::strtoull(s, nullptr, 0);
    unsigned straight = 2000, branches = 400;
    if (argc > 1) straight = unsigned(std::atoi(argv[1]));
    if (argc > 2) branches = unsigned(std::atoi(argv[2]));
    std::vector<Machine> machines;
    for (const Target& t : targetsToRun()) {
      bool wide = t.registerBits() == 64;
      machines.push_back({t, requireTool(wide ? "qemu-riscv64" : "qemu-riscv32", "qemu-user"),
                          wide ? "rv64gc" : "rv32gc", wide ? "lp64" : "ilp32", wide ? "elf64lriscv" : "elf32lriscv"});
    }
    if (machines.empty()) throw std::runtime_error("no riscv variant with the C extension to run");
    std::cout << "QEMU cross-validation (riscv), seed " << seed << "\n";
    // One Z3 context for the whole run, never deleted (as arm64's part).
    z3::context& ctx = *new z3::context;
    Tally t;
    std::set<const Row*> used;
    unsigned index = 0;
    for (const Machine& m : machines) {
      // RV64 (Linux's) with the full count; RV32 with half of it.
      unsigned share = index == 0 ? 1 : 2;
      Run runner(m, as, ld, seed + 1000003ull * index++);
      Tally one = runner.run(ctx, straight / share, branches / share);
      used.insert(runner.rowsUsed.begin(), runner.rowsUsed.end());
      std::cout << "  " << m.target.str() << " (" << m.qemu << "): " << one.straight << " straight-line sequences, "
                << one.branches << " branch cases, " << one.instructions << " instructions executed (" << one.floats
                << " F/D), " << one.failed << " mismatches\n";
      t.straight += one.straight;
      t.branches += one.branches;
      t.failed += one.failed;
      t.instructions += one.instructions;
      t.floats += one.floats;
    }
    unsigned rows = 0;
    std::set<std::string> unused;
    for (const Row& row : instructionTable()) {
      if (row.flags & kAlias) continue;
      ++rows;
      if (!used.count(&row)) unused.insert(std::string(row.mnemonic));
    }
    std::cout << "canonical table rows run: " << used.size() << " of " << rows << "; never run:";
    for (const std::string& u : unused) std::cout << " [" << u << "]";
    std::cout << "\ntotal: " << t.straight << " straight-line sequences, " << t.branches << " branch cases, "
              << t.instructions << " instructions executed (" << t.floats << " F/D)\n";
    unsigned cases = t.straight + t.branches;
    std::cout << (cases >= t.failed ? cases - t.failed : 0) << " passed, " << t.failed << " failed\n";
    return t.failed == 0 && t.straight >= straight && t.branches > 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cout << "error: " << e.what() << "\n0 passed, 1 failed\n";
    return 1;
  }
}

}  // namespace patchcheck::oracle::qemu_crossval
