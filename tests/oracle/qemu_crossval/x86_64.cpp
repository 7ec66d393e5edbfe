// Cross-validation of the x86-64 concrete semantics against QEMU user mode
// (qemu-x86_64), an implementation nobody here wrote. The programs are AT&T
// text assembled by GNU as and linked by GNU ld into one static ELF with no
// libc: each case loads random values into the sixteen registers and RFLAGS
// from a table, runs its snippet (a random straight-line sequence over the
// subset, or one generated branch case) and stores every register, RFLAGS
// and its 512-byte buffer (scratch and stack); at the end one write syscall
// dumps all of it. Our semantics (model/x86_64/Concrete.h) run the bytes GNU
// as made (objcopy -O binary) from the same inputs and must agree on every
// register, every defined flag, DF, the system flags and every buffer byte.
//
// Undefined flags: the generator keeps its own table of what each
// instruction leaves undefined (the SDM's Flags Affected: AF after
// AND/OR/XOR/TEST and after a shift by a nonzero count; OF after a shift by
// more than 1; CF after SHL/SHR by the operand's width or more). A flag
// undefined at the end is not compared with QEMU, but the model must hold it
// unknown, and every other flag known. No instruction is generated that
// reads an undefined flag (adc/sbb, cmovcc/setcc/jcc, pushfq).
//
// Not generated: instructions that fault (the unit tests cover int3 and
// #UD), privileged ones (cli/sti/hlt fault at CPL 3), popf of an image
// whose system bits differ (only pushfq; xorq of arithmetic bits and DF;
// popfq), memory accesses outside the case's buffer, its read-only block
// and its own code, and writes to rsp other than push, pop, call, ret and
// leave.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "encoder/Hex.h"
#include "encoder/IsaRegistry.h"
#include "model/x86_64/Concrete.h"
#include "model/x86_64/InstructionTable.h"
#include "model/x86_64/Registers.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::x86_64;
using namespace patchcheck::oracle;

namespace {

// --- memory layout of one case ----------------------------------------------
// Region i at kDataBase + i * kRegion: [0, 256) the scratch buffer, [256, 512)
// the stack (rsp starts at kStackTop); [512, 648) the entry values (slot r
// for register r, 16 = RFLAGS); [768, 904) the values at the end. Every
// address fits in 31 bits, so absolute operands need no movabs.
constexpr uint64_t kTextBase = 0x400000, kDataBase = 0x10000000, kRegion = 1024;
constexpr unsigned kBuffer = 512, kStackLow = 256, kStackTop = 416, kTable = 512, kDump = 768;
constexpr unsigned kRoBytes = 32;  // the case's read-only block (rip-relative loads)

uint64_t regionAddress(unsigned i) { return kDataBase + uint64_t(i) * kRegion; }

// The six arithmetic flags as the generator tracks them.
enum : unsigned { fCF = 1, fPF = 2, fAF = 4, fZF = 8, fSF = 16, fOF = 32, fAll = 63 };
constexpr uint64_t kFlagBit[6] = {rflags::CF, rflags::PF, rflags::AF, rflags::ZF, rflags::SF, rflags::OF};

// The flags condition cc (its encoding) reads.
unsigned flagsRead(unsigned cc) {
  static const unsigned by[8] = {fOF, fCF, fZF, fCF | fZF, fSF, fPF, fSF | fOF, fZF | fSF | fOF};
  return by[cc >> 1];
}
const char* const kCc[16] = {"o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns", "p", "np", "l", "ge", "le", "g"};

class Dice {
 public:
  explicit Dice(uint64_t seed) : rng_(seed) {}
  uint64_t bits() { return rng_(); }
  unsigned below(unsigned n) { return unsigned(rng_() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(unsigned(v.size()))]; }
  uint64_t registerValue() {
    static const uint64_t edges[] = {0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
                                     0xffffffff, 0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull};
    switch (below(10)) {
      case 0: return 0;
      case 1: return uint64_t(int64_t(below(9)) - 4);
      case 2: return edges[below(sizeof edges / sizeof edges[0])];
      case 3: return uint64_t(below(64));
      case 4: return uint64_t(int64_t(int32_t(uint32_t(bits()))));
      default: return bits();
    }
  }
  // An immediate of `bits` bits (64: a value movabs takes), as a signed number.
  int64_t immediate(unsigned bits) {
    uint64_t v = registerValue();
    if (chance(30)) v = uint64_t(int64_t(below(256)) - 128);
    if (bits == 64) return int64_t(v);
    uint64_t mask = (uint64_t(1) << bits) - 1;
    v &= mask;
    uint64_t signBit = uint64_t(1) << (bits - 1);
    return (v & signBit) ? int64_t(v | ~mask) : int64_t(v);
  }

 private:
  std::mt19937_64 rng_;
};

std::string regName(unsigned n, unsigned size, bool high = false) {
  static const char* const r64[] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"};
  static const char* const r32[] = {"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"};
  static const char* const r16[] = {"ax", "cx", "dx", "bx", "sp", "bp", "si", "di"};
  static const char* const r8[] = {"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil"};
  static const char* const h8[] = {"ah", "ch", "dh", "bh"};
  if (high) return std::string("%") + h8[n];
  if (n < 8) {
    switch (size) {
      case 64: return std::string("%") + r64[n];
      case 32: return std::string("%") + r32[n];
      case 16: return std::string("%") + r16[n];
      default: return std::string("%") + r8[n];
    }
  }
  std::string base = "%r" + std::to_string(n);
  return size == 64 ? base : size == 32 ? base + "d" : size == 16 ? base + "w" : base + "b";
}

char suffix(unsigned size) { return size == 8 ? 'b' : size == 16 ? 'w' : size == 32 ? 'l' : 'q'; }

// One operand of a generated instruction.
struct Opnd {
  enum class Kind { Reg, Mem, Imm } kind = Kind::Reg;
  unsigned num = 0, size = 0;  // register number; the size in bits
  bool high = false;           // ah, ch, dh, bh
  bool rex = false;            // the encoding needs a REX prefix for it
  std::string text;
};

Opnd reg(unsigned n, unsigned size, bool high = false) {
  return Opnd{Opnd::Kind::Reg, n, size, high, !high && (n >= 8 || (size == 8 && n >= 4)), regName(n, size, high)};
}
Opnd imm(int64_t v) { return Opnd{Opnd::Kind::Imm, 0, 0, false, false, "$" + std::to_string(v)}; }

// ah..bh cannot be encoded next to anything that needs REX (or REX.W).
bool encodable(std::initializer_list<const Opnd*> ops, bool wide = false) {
  bool high = false, rex = wide;
  for (const Opnd* o : ops) high = high || o->high, rex = rex || o->rex;
  return !(high && rex);
}

struct Case {
  enum class Kind { Straight, Branch } kind = Kind::Straight;
  unsigned index = 0;
  unsigned base = 0, indexReg = 0;   // hold the region's address and a small index; never written
  std::array<uint64_t, 16> r{};
  uint64_t flags = 0;                // CF..OF and DF in RFLAGS's layout
  std::vector<uint8_t> buffer;       // [0, kBuffer) at entry
  std::vector<std::string> lines;    // the snippet
  std::vector<std::string> ro;       // its read-only block, as directives
  unsigned undefined = 0;            // flags undefined at the end (the generator's table)
  unsigned instructions = 0;
  std::string what;
  uint64_t start = 0, end = 0, roAddress = 0;  // from the linked program
  std::string name(const std::string& label) const { return "c" + std::to_string(index) + "_" + label; }
};

// --- random straight-line sequences ----------------------------------------------

class SequenceMaker {
 public:
  SequenceMaker(Dice& d, Case& cs) : dice_(d), cs_(cs) {}

  void make(unsigned length) {
    for (unsigned attempts = 0; cs_.instructions < length && attempts < 20 * length; ++attempts)
      if (one()) ++cs_.instructions;
    cs_.undefined = undefined_;
  }

  // Tracked while generating: where rsp is (bytes from kStackTop) and
  // which flags the instructions so far left undefined.
  int sp_ = 0;
  unsigned undefined_ = 0;

  bool writable(unsigned n) const { return n != reg::rsp && n != cs_.base && n != cs_.indexReg; }
  unsigned anyRegister() { return dice_.below(16); }
  std::optional<unsigned> writableRegister() {
    for (unsigned tries = 0; tries < 64; ++tries)
      if (unsigned n = dice_.below(16); writable(n)) return n;
    return std::nullopt;
  }
  // A register operand of `size` bits (high bytes allowed unless `noHigh`).
  std::optional<Opnd> registerOperand(unsigned size, bool write, bool noHigh = false) {
    if (size == 8 && !noHigh && dice_.chance(25)) {
      unsigned n = dice_.below(4);
      if (write && !writable(n)) return std::nullopt;
      return reg(n, 8, true);
    }
    std::optional<unsigned> n = write ? writableRegister() : std::optional<unsigned>(anyRegister());
    if (!n) return std::nullopt;
    return reg(*n, size);
  }

  // A memory operand of `size` bits inside the buffer (or, for a load, the
  // read-only block), in one of the addressing forms.
  Opnd memory(unsigned size, bool load, bool rspBased = true) {
    unsigned bytes = size / 8;
    unsigned form = dice_.below(load ? 6 : 5);
    if (form == 2 && !rspBased) form = 0;
    Opnd m{Opnd::Kind::Mem, 0, size, false, false, ""};
    auto baseName = [&](unsigned n, unsigned w) { return regName(n, w); };
    switch (form) {
      case 0: {
        unsigned o = dice_.below(kBuffer - bytes + 1);
        m.text = std::to_string(o) + "(" + baseName(cs_.base, 64) + ")";
        m.rex = cs_.base >= 8;
        break;
      }
      case 1: {
        unsigned o = dice_.below(kBuffer - bytes + 1);
        unsigned scale = 1u << dice_.below(4);
        int64_t disp = int64_t(o) - int64_t(cs_.r[cs_.indexReg] * scale);
        m.text = std::to_string(disp) + "(" + baseName(cs_.base, 64) + "," + baseName(cs_.indexReg, 64) + "," +
                 std::to_string(scale) + ")";
        m.rex = cs_.base >= 8 || cs_.indexReg >= 8;
        break;
      }
      case 2: {  // rsp-relative, inside the stack
        unsigned o = kStackLow + dice_.below(kBuffer - kStackLow - bytes + 1);
        int64_t disp = int64_t(o) - (int64_t(kStackTop) + sp_);
        m.text = std::to_string(disp) + "(%rsp)";
        break;
      }
      case 3: {  // absolute (SIB, no base)
        m.text = hex(regionAddress(cs_.index) + dice_.below(kBuffer - bytes + 1));
        break;
      }
      case 4: {  // 32-bit addressing (0x67)
        unsigned o = dice_.below(kBuffer - bytes + 1);
        m.text = std::to_string(o) + "(" + baseName(cs_.base, 32) + ")";
        m.rex = cs_.base >= 8;
        break;
      }
      default: {  // rip-relative, in the read-only block
        m.text = cs_.name("ro") + "+" + std::to_string(dice_.below(kRoBytes - bytes + 1)) + "(%rip)";
        break;
      }
    }
    return m;
  }

  void emit(const std::string& line) { cs_.lines.push_back(line); }
  static std::string join(const std::string& mnemonic, std::initializer_list<const Opnd*> ops) {
    std::string s = mnemonic;
    bool first = true;
    for (const Opnd* o : ops) {
      s += first ? " " : ", ";
      s += o->text;
      first = false;
    }
    return s;
  }
  unsigned anySize() { return 8u << dice_.below(4); }
  // An immediate for an operation of `size` bits: 64-bit operations take a
  // sign-extended 32-bit one.
  Opnd immediateFor(unsigned size) {
    if (dice_.chance(40)) return imm(dice_.immediate(8));
    return imm(dice_.immediate(size == 64 ? 32 : size));
  }

  bool one() {
    switch (dice_.below(20)) {
      case 0: case 1: case 2: case 3: return binary();
      case 4: return unary();
      case 5: case 6: return shift();
      case 7: case 8: return move();
      case 9: return extend();
      case 10: return lea();
      case 11: return conditional();
      case 12: return exchange();
      case 13: return push();
      case 14: return pop();
      case 15: return flagsRoundTrip();
      case 16: return nop();
      case 17: return frame();
      case 18: return misc();
      default: return binary();
    }
  }

  // add adc sub sbb and or xor cmp test in every operand form.
  bool binary() {
    static const std::vector<std::string> ops = {"add", "adc", "sub", "sbb", "and", "or", "xor", "cmp", "test"};
    const std::string& op = dice_.pick(ops);
    bool carryIn = op == "adc" || op == "sbb";
    if (carryIn && (undefined_ & fCF)) return false;
    bool writes = op != "cmp" && op != "test";
    unsigned size = anySize();
    unsigned form = dice_.below(5);  // reg,reg imm,reg mem,reg reg,mem imm,mem
    if (op == "test" && form == 2) form = 3;  // test has no mem,reg form of its own
    std::string line;
    std::string s(1, suffix(size));
    if (form <= 2) {
      auto dst = registerOperand(size, writes);
      if (!dst) return false;
      if (form == 0) {
        auto src = registerOperand(size, false);
        if (!src || !encodable({&*src, &*dst}, size == 64)) return false;
        line = join(op + s, {&*src, &*dst});
      } else if (form == 1) {
        Opnd i = immediateFor(size);
        if (!encodable({&*dst}, size == 64)) return false;
        line = join(op + s, {&i, &*dst});
      } else {
        Opnd m = memory(size, true);
        if (!encodable({&m, &*dst}, size == 64)) return false;
        line = join(op + s, {&m, &*dst});
      }
    } else {
      Opnd m = memory(size, !writes);
      std::string lock = writes && dice_.chance(20) ? "lock " : "";
      if (form == 3) {
        auto src = registerOperand(size, false);
        if (!src || !encodable({&*src, &m}, size == 64)) return false;
        line = lock + join(op + s, {&*src, &m});
      } else {
        Opnd i = immediateFor(size);
        line = lock + join(op + s, {&i, &m});
      }
    }
    emit(line);
    bool logical = op == "and" || op == "or" || op == "xor" || op == "test";
    undefined_ = logical ? unsigned(fAF) : 0u;
    return true;
  }

  bool unary() {
    static const std::vector<std::string> ops = {"inc", "dec", "neg", "not"};
    const std::string& op = dice_.pick(ops);
    unsigned size = anySize();
    std::string s(1, suffix(size));
    std::string lock = dice_.chance(20) ? "lock " : "";
    if (dice_.chance(50)) {
      auto r = registerOperand(size, true);
      if (!r || !encodable({&*r}, size == 64)) return false;
      emit(join(op + s, {&*r}));
    } else {
      Opnd m = memory(size, false);
      emit(lock + join(op + s, {&m}));
    }
    if (op == "neg") undefined_ = 0;
    else if (op != "not") undefined_ &= fCF;  // inc/dec define all but CF, which keeps its state
    return true;
  }

  bool shift() {
    static const std::vector<std::string> ops = {"shl", "shr", "sar", "sal"};
    const std::string& op = dice_.pick(ops);
    unsigned size = anySize();
    std::string s(1, suffix(size));
    Opnd target;
    if (dice_.chance(60)) {
      auto r = registerOperand(size, true);
      if (!r) return false;
      target = *r;
    } else {
      target = memory(size, false);
    }
    unsigned way = dice_.below(3);  // $1, $imm8, %cl
    unsigned count = 1;
    if (way == 2 && !writable(reg::rcx)) way = 1;
    if (way == 2 && target.kind == Opnd::Kind::Reg && target.num == reg::rcx) way = 1;
    if (way != 0) count = dice_.chance(70) ? dice_.below(size + 2) : dice_.below(256);
    Opnd cl = reg(reg::rcx, 8);
    if (!encodable({&target}, size == 64)) return false;
    if (way == 2) {
      Opnd k = imm(int64_t(count));
      emit(join("movb", {&k, &cl}));
      ++cs_.instructions;
      emit(join(op + s, {&cl, &target}));
    } else {
      Opnd k = imm(int64_t(count));
      emit(join(op + s, {&k, &target}));
    }
    unsigned c = count & (size == 64 ? 63 : 31);
    if (c != 0) {
      unsigned u = fAF;
      if (c != 1) u |= fOF;
      if (op != "sar" && c >= size) u |= fCF;
      undefined_ = u;
    }
    return true;
  }

  bool move() {
    unsigned size = anySize();
    std::string s(1, suffix(size));
    switch (dice_.below(7)) {
      case 0: {  // reg, reg
        auto src = registerOperand(size, false), dst = registerOperand(size, true);
        if (!src || !dst || !encodable({&*src, &*dst}, size == 64)) return false;
        emit(join("mov" + s, {&*src, &*dst}));
        return true;
      }
      case 1: {  // imm, reg (movabs for a full 64-bit value)
        auto dst = registerOperand(size, true);
        if (!dst || !encodable({&*dst}, size == 64)) return false;
        if (size == 64 && dice_.chance(50)) {
          Opnd i = imm(dice_.immediate(64));
          emit(join("movabs", {&i, &*dst}));
        } else {
          Opnd i = imm(dice_.immediate(size == 64 ? 32 : size));
          emit(join("mov" + s, {&i, &*dst}));
        }
        return true;
      }
      case 2: {  // mem, reg
        auto dst = registerOperand(size, true);
        if (!dst) return false;
        Opnd m = memory(size, true);
        if (!encodable({&m, &*dst}, size == 64)) return false;
        emit(join("mov" + s, {&m, &*dst}));
        return true;
      }
      case 3: {  // reg, mem
        auto src = registerOperand(size, false);
        if (!src) return false;
        Opnd m = memory(size, false);
        if (!encodable({&m, &*src}, size == 64)) return false;
        emit(join("mov" + s, {&*src, &m}));
        return true;
      }
      case 4: {  // imm, mem
        Opnd m = memory(size, false);
        Opnd i = imm(dice_.immediate(size == 64 ? 32 : size));
        emit(join("mov" + s, {&i, &m}));
        return true;
      }
      default: {  // movabs to or from a 64-bit absolute address (moffs), with al/ax/eax/rax
        Opnd acc = reg(reg::rax, size);
        Opnd at{Opnd::Kind::Mem, 0, size, false, false, hex(regionAddress(cs_.index) + dice_.below(kBuffer - size / 8 + 1))};
        if (dice_.chance(50)) {
          if (!writable(reg::rax)) return false;
          emit(join("movabs", {&at, &acc}));
        } else {
          emit(join("movabs", {&acc, &at}));
        }
        return true;
      }
    }
  }

  // movzx, movsx, movslq.
  bool extend() {
    struct Form {
      const char* mnemonic;
      unsigned from, to;
    };
    static const std::vector<Form> forms = {{"movzbw", 8, 16}, {"movzbl", 8, 32}, {"movzbq", 8, 64}, {"movzwl", 16, 32},
                                            {"movzwq", 16, 64}, {"movsbw", 8, 16}, {"movsbl", 8, 32}, {"movsbq", 8, 64},
                                            {"movswl", 16, 32}, {"movswq", 16, 64}, {"movslq", 32, 64}};
    const Form& f = dice_.pick(forms);
    auto dst = registerOperand(f.to, true);
    if (!dst) return false;
    Opnd src;
    if (dice_.chance(60)) {
      auto r = registerOperand(f.from, false);
      if (!r) return false;
      src = *r;
    } else {
      src = memory(f.from, true);
    }
    if (!encodable({&src, &*dst}, f.to == 64)) return false;
    emit(join(f.mnemonic, {&src, &*dst}));
    return true;
  }

  // lea with any registers: nothing is accessed.
  bool lea() {
    unsigned size = 16u << dice_.below(3);
    auto dst = registerOperand(size, true);
    if (!dst) return false;
    std::string m;
    if (dice_.chance(15)) {
      m = cs_.name("ro") + "+" + std::to_string(dice_.below(64)) + "(%rip)";
    } else {
      int64_t disp = dice_.chance(50) ? int64_t(dice_.below(256)) - 128 : dice_.immediate(32);
      bool base = dice_.chance(85), index = dice_.chance(60);
      unsigned b = anyRegister(), i = anyRegister();
      if (i == reg::rsp) index = false;
      m = std::to_string(disp);
      if (base || index) {
        m += "(";
        if (base) m += regName(b, 64);
        if (index) m += "," + regName(i, 64) + "," + std::to_string(1u << dice_.below(4));
        m += ")";
      }
    }
    emit("lea" + std::string(1, suffix(size)) + " " + m + ", " + dst->text);
    return true;
  }

  // cmovcc and setcc on flags the sequence has defined.
  bool conditional() {
    unsigned cc = dice_.below(16);
    if (undefined_ & flagsRead(cc)) return false;
    if (dice_.chance(50)) {
      unsigned size = 16u << dice_.below(3);
      auto dst = registerOperand(size, true);
      if (!dst) return false;
      Opnd src;
      if (dice_.chance(60)) {
        auto r = registerOperand(size, false);
        if (!r) return false;
        src = *r;
      } else {
        src = memory(size, true);
      }
      emit(join(std::string("cmov") + kCc[cc], {&src, &*dst}));
    } else if (dice_.chance(60)) {
      auto dst = registerOperand(8, true);
      if (!dst) return false;
      emit(join(std::string("set") + kCc[cc], {&*dst}));
    } else {
      Opnd m = memory(8, false);
      emit(join(std::string("set") + kCc[cc], {&m}));
    }
    return true;
  }

  bool exchange() {
    unsigned size = anySize();
    auto a = registerOperand(size, true);
    if (!a) return false;
    if (dice_.chance(50)) {
      auto b = registerOperand(size, true);
      if (!b || !encodable({&*a, &*b}, size == 64)) return false;
      emit(join("xchg", {&*a, &*b}));
    } else {
      Opnd m = memory(size, false);
      if (!encodable({&*a, &m}, size == 64)) return false;
      emit(join("xchg", {&*a, &m}));
    }
    return true;
  }

  bool room(int delta) const {
    int at = int(kStackTop) + sp_ + delta;
    return at >= int(kStackLow) + 8 && at <= int(kBuffer) - 8;
  }

  bool push() {
    bool narrow = dice_.chance(15);
    unsigned size = narrow ? 16 : 64;
    if (!room(-int(size / 8))) return false;
    std::string mn = narrow ? "pushw" : "pushq";
    switch (dice_.below(3)) {
      case 0: {
        Opnd r = reg(anyRegister(), size);
        emit(join(narrow ? "pushw" : "push", {&r}));
        break;
      }
      case 1: {
        Opnd i = narrow ? imm(dice_.immediate(16)) : imm(dice_.immediate(dice_.chance(50) ? 8 : 32));
        emit(join(mn, {&i}));
        break;
      }
      default: {
        Opnd m = memory(size, true);
        emit(join(mn, {&m}));
        break;
      }
    }
    sp_ -= int(size / 8);
    return true;
  }

  bool pop() {
    bool narrow = dice_.chance(15);
    unsigned size = narrow ? 16 : 64;
    if (!room(int(size / 8))) return false;
    if (dice_.chance(60)) {
      auto r = writableRegister();
      if (!r) return false;
      Opnd d = reg(*r, size);
      emit(join(narrow ? "popw" : "pop", {&d}));
    } else if (dice_.chance(70)) {
      Opnd m = memory(size, false, false);
      emit(join(narrow ? "popw" : "popq", {&m}));
    } else {
      // An rsp-based destination: its address is computed after the pop
      // moved rsp (SDM POP).
      unsigned o = kStackLow + dice_.below(kBuffer - kStackLow - size / 8 + 1);
      int64_t disp = int64_t(o) - (int64_t(kStackTop) + sp_ + int64_t(size / 8));
      emit(std::string(narrow ? "popw " : "popq ") + std::to_string(disp) + "(%rsp)");
    }
    sp_ += int(size / 8);
    return true;
  }

  // pushfq (all flags defined), then maybe flip arithmetic flags and DF in
  // the image and popfq it back: popf of system bits QEMU's user mode
  // handles differently from CPL 0 is never generated.
  bool flagsRoundTrip() {
    bool narrow = dice_.chance(20);  // pushfw / popfw: the low 16 bits
    int bytes = narrow ? 2 : 8;
    if (undefined_ != 0 || !room(-bytes)) return false;
    emit(narrow ? "pushfw" : "pushfq");
    sp_ -= bytes;
    if (dice_.chance(30)) return true;  // a plain pushf, popped later or left
    uint64_t flip = dice_.bits() & (0x8d5 | rflags::DF);
    Opnd m = imm(int64_t(flip));
    Opnd top{Opnd::Kind::Mem, 0, 64, false, false, "(%rsp)"};
    emit(join(narrow ? "xorw" : "xorq", {&m, &top}));
    emit(narrow ? "popfw" : "popfq");
    cs_.instructions += 2;
    sp_ += bytes;
    undefined_ = 0;
    return true;
  }

  bool nop() {
    static const std::vector<std::string> fixed = {
        "nop", "xchg %ax, %ax", "nopl (%rax)", "nopl 0x0(%rax)", "nopl 0x0(%rax,%rax,1)", "nopw 0x0(%rax,%rax,1)",
        "nopl 0x0(%rax)", "nopw %cs:0x0(%rax,%rax,1)", "nopl %eax", "nopw %ax", "endbr64", "pause", "mfence",
        "lfence", "sfence"};
    if (dice_.chance(60)) {
      emit(dice_.pick(fixed));
      return true;
    }
    // A nop with any memory operand: never accessed.
    unsigned b = anyRegister(), i = anyRegister();
    if (i == reg::rsp) i = reg::rbp;
    emit(std::string(dice_.chance(50) ? "nopl " : "nopw ") + std::to_string(dice_.immediate(32)) + "(" +
         regName(b, 64) + "," + regName(i, 64) + "," + std::to_string(1u << dice_.below(4)) + ")");
    return true;
  }

  // A frame built and torn down: push %rbp; mov %rsp,%rbp; sub $16,%rsp;
  // movq $imm,-8(%rbp); leave.
  bool frame() {
    if (!writable(reg::rbp) || !room(-24)) return false;
    emit("push %rbp");
    emit("mov %rsp, %rbp");
    emit("sub $16, %rsp");
    emit("movq $" + std::to_string(dice_.immediate(32)) + ", -8(%rbp)");
    emit("leave");
    cs_.instructions += 4;
    undefined_ = 0;  // sub defines every flag
    return true;
  }

  bool misc() {
    switch (dice_.below(3)) {
      case 0: emit("cld"); return true;
      case 1: emit("std"); return true;
      default: {  // a cmp of two known values, so later conditions see fresh flags
        auto a = registerOperand(64, false);
        Opnd i = immediateFor(64);
        emit(join("cmpq", {&i, &*a}));
        undefined_ = 0;
        return true;
      }
    }
  }

 private:
  Dice& dice_;
  Case& cs_;
};

// --- branch cases -----------------------------------------------------------------
// Markers m1..m3 (distinct writable registers) count which blocks ran;
// the flags come from the entry table, so conditions go both ways.

class BranchMaker {
 public:
  BranchMaker(Dice& d, Case& cs) : dice_(d), cs_(cs) {}

  void make() {
    unsigned m[3];
    for (unsigned i = 0; i < 3; ++i) {
      bool clash;
      do {
        m[i] = dice_.below(16);
        clash = m[i] == reg::rsp || m[i] == cs_.base || m[i] == cs_.indexReg;
        for (unsigned j = 0; j < i; ++j) clash = clash || m[j] == m[i];
      } while (clash);
      cs_.r[m[i]] = dice_.below(1000);
    }
    std::string m1 = regName(m[0], 64), m2 = regName(m[1], 64), m3 = regName(m[2], 64);
    auto L = [&](const char* l) { return cs_.name(l); };
    auto& out = cs_.lines;
    std::string far = dice_.chance(50) ? "{disp32} " : "";
    switch (dice_.below(9)) {
      case 0: case 1: {  // jcc forward over markers
        unsigned cc = dice_.below(16), at = dice_.below(3);
        out.push_back(far + "j" + kCc[cc] + " " + L("t"));
        for (unsigned k = 0; k < 3; ++k) {
          if (k == at) out.push_back(L("t") + ":");
          out.push_back("add $" + std::to_string(1u << k) + ", " + (k == 0 ? m1 : k == 1 ? m2 : m3));
        }
        cs_.what = std::string("j") + kCc[cc] + (far.empty() ? " rel8" : " rel32");
        break;
      }
      case 2: {  // a backward jcc: a loop run 1..4 times
        static const char* const loops[] = {"nz", "g", "ns", "a"};
        const char* cc = loops[dice_.below(4)];
        out.push_back("mov $" + std::to_string(1 + dice_.below(4)) + ", " + regName(m[0], 32));
        out.push_back(L("l") + ":");
        out.push_back("add $3, " + m2);
        out.push_back("dec " + m1);
        out.push_back(far + "j" + cc + " " + L("l"));
        cs_.what = std::string("loop j") + cc;
        break;
      }
      case 3: {  // jmp forward
        out.push_back(far + "jmp " + L("t"));
        out.push_back("add $1, " + m1);
        out.push_back(L("t") + ":");
        out.push_back("add $2, " + m2);
        cs_.what = far.empty() ? "jmp rel8" : "jmp rel32";
        break;
      }
      case 4: case 5: {  // call and ret (ret $8 after a pushed argument)
        bool pops = dice_.chance(40);
        if (pops) out.push_back("pushq $" + std::to_string(dice_.immediate(32)));
        out.push_back("call " + L("f"));
        out.push_back("add $1, " + m1);
        out.push_back("jmp " + L("d"));
        out.push_back(L("f") + ":");
        out.push_back("add $2, " + m2);
        out.push_back("mov (%rsp), " + m3);  // the return address
        out.push_back(pops ? "ret $8" : "ret");
        out.push_back(L("d") + ":");
        cs_.what = pops ? "call rel32 / ret $8" : "call rel32 / ret";
        break;
      }
      case 6: {  // call through a register, memory or a rip-relative slot
        unsigned how = dice_.below(3);
        if (how == 0) {
          out.push_back("lea " + L("f") + "(%rip), " + m3);
          out.push_back("call *" + m3);
        } else if (how == 1) {
          out.push_back("lea " + L("f") + "(%rip), " + m3);
          out.push_back("mov " + m3 + ", 16(" + regName(cs_.base, 64) + ")");
          out.push_back("call *16(" + regName(cs_.base, 64) + ")");
        } else {
          out.push_back("call *" + L("ro") + "(%rip)");  // the block's first quad is f
          cs_.ro[0] = ".quad " + L("f");
        }
        out.push_back("add $1, " + m1);
        out.push_back("jmp " + L("d"));
        out.push_back(L("f") + ":");
        out.push_back("add $2, " + m2);
        out.push_back("ret");
        out.push_back(L("d") + ":");
        cs_.what = how == 0 ? "call *%reg" : how == 1 ? "call *mem" : "call *rip-relative";
        break;
      }
      case 7: {  // jmp through a register or memory
        bool viaMemory = dice_.chance(50);
        out.push_back("lea " + L("t") + "(%rip), " + m3);
        if (viaMemory) {
          out.push_back("mov " + m3 + ", 24(" + regName(cs_.base, 64) + ")");
          out.push_back("jmp *24(" + regName(cs_.base, 64) + ")");
        } else {
          out.push_back("jmp *" + m3);
        }
        out.push_back("add $1, " + m1);
        out.push_back(L("t") + ":");
        out.push_back("add $2, " + m2);
        cs_.what = viaMemory ? "jmp *mem" : "jmp *%reg";
        break;
      }
      default: {  // pushes and pops around a call
        out.push_back("push " + m1);
        out.push_back("push " + m2);
        out.push_back("call " + L("f"));
        out.push_back("pop " + m2);
        out.push_back("pop " + m1);
        out.push_back("jmp " + L("d"));
        out.push_back(L("f") + ":");
        out.push_back("mov 8(%rsp), " + m3);
        out.push_back("ret");
        out.push_back(L("d") + ":");
        cs_.what = "push/pop around a call";
        break;
      }
    }
    // add/dec/mov leave no flag undefined; the entry flags are all known.
    cs_.undefined = 0;
    for (const std::string& l : out)
      if (l.back() != ':') ++cs_.instructions;
  }

 private:
  Dice& dice_;
  Case& cs_;
};

// --- the harness around each case ------------------------------------------------------

std::string absolute(uint64_t a) { return hex(a); }

std::vector<std::string> prologue(const Case& cs) {
  uint64_t region = regionAddress(cs.index);
  std::vector<std::string> out = {"movq $" + absolute(region + kTable + 8 * 16) + ", %rsp", "popfq"};
  for (unsigned r = 0; r < 16; ++r)
    if (r != reg::rsp) out.push_back("mov " + absolute(region + kTable + 8 * r) + ", " + regName(r, 64));
  out.push_back("mov " + absolute(region + kTable + 8 * reg::rsp) + ", %rsp");
  return out;
}

std::vector<std::string> epilogue(const Case& cs) {
  uint64_t region = regionAddress(cs.index);
  std::vector<std::string> out;
  for (unsigned r = 0; r < 16; ++r) out.push_back("mov " + regName(r, 64) + ", " + absolute(region + kDump + 8 * r));
  out.push_back("movq $" + absolute(region + kDump + 8 * 17) + ", %rsp");
  out.push_back("pushfq");  // RFLAGS at slot 16
  out.push_back("cld");
  return out;
}

void put64(std::vector<uint8_t>& bytes, size_t at, uint64_t v) {
  for (unsigned i = 0; i < 8; ++i) bytes[at + i] = uint8_t(v >> (8 * i));
}
uint64_t get64(const std::string& bytes, size_t at) {
  uint64_t v = 0;
  for (unsigned i = 0; i < 8; ++i) v |= uint64_t(uint8_t(bytes[at + i])) << (8 * i);
  return v;
}

struct Tools {
  std::string as, ld, objcopy, nm, qemu;
};

std::string binutil(const std::string& name) {
  try {
    return requireTool("x86_64-linux-gnu-" + name, "binutils");
  } catch (const std::exception&) {
    return requireTool(name, "binutils");
  }
}

Tools requireTools() {
  return Tools{binutil("as"), binutil("ld"), binutil("objcopy"), binutil("nm"), requireTool("qemu-x86_64", "qemu-user")};
}

struct Tally {
  unsigned straight = 0, branches = 0, failed = 0, instructions = 0, undefinedFlags = 0;
  std::map<const Row*, unsigned> rows;  // how often each row of the subset's table was generated
};

// Counts the rows of the model's table the code's instructions fall under
// (a linear sweep: the cases' code holds no data).
void countRows(const std::vector<uint8_t>& code, std::map<const Row*, unsigned>& rows) {
  ZydisDecoder decoder;
  ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
  ZydisDecodedInstruction insn;
  ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
  for (size_t at = 0; at < code.size();) {
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, code.data() + at, code.size() - at, &insn, ops))) break;
    if (const Row* row = rowFor(insn, ops)) ++rows[row];
    at += insn.length;
  }
}

std::string rowName(const Row& row) {
  std::string s = ZydisMnemonicGetString(row.mnemonic);
  s += "/" + std::to_string(row.arity);
  return s;
}

class Run {
 public:
  Run(const Tools& tools, uint64_t seed) : tools_(tools), dice_(seed) {}

  Tally run(z3::context& c, unsigned straight, unsigned branches) {
    std::vector<Case> cases;
    for (unsigned i = 0; i < straight + branches; ++i) cases.push_back(makeCase(i, i < straight));

    std::ostringstream text, ro;
    text << ".text\n.globl _start\n_start:\n";
    ro << ".section .rodata\n.balign 8\n";
    for (const Case& cs : cases) {
      for (const std::string& l : prologue(cs)) text << l << "\n";
      text << cs.name("start") << ":\n";
      for (const std::string& l : cs.lines) text << l << "\n";
      text << cs.name("end") << ":\n";
      for (const std::string& l : epilogue(cs)) text << l << "\n";
      ro << cs.name("ro") << ":\n";
      for (const std::string& l : cs.ro) ro << l << "\n";
    }
    uint64_t dataSize = kRegion * cases.size();
    text << "mov $1, %eax\nmov $1, %edi\nmov $" << absolute(kDataBase) << ", %esi\nmov $" << dataSize
         << ", %edx\nsyscall\nmov $60, %eax\nxor %edi, %edi\nsyscall\n";

    std::vector<uint8_t> data(dataSize, 0);
    for (const Case& cs : cases) {
      size_t at = size_t(cs.index) * kRegion;
      std::copy(cs.buffer.begin(), cs.buffer.end(), data.begin() + long(at));
      for (unsigned r = 0; r < 16; ++r) put64(data, at + kTable + 8 * r, cs.r[r]);
      put64(data, at + kTable + 8 * 16, cs.flags | rflags::Reserved1 | rflags::IF);
    }

    Built b = build(text.str() + ro.str(), data);
    for (Case& cs : cases) {
      cs.start = b.symbols.at(cs.name("start"));
      cs.end = b.symbols.at(cs.name("end"));
      cs.roAddress = b.symbols.at(cs.name("ro"));
    }
    Tally tally;
    if (b.out.size() != dataSize) {
      std::cout << "  QEMU wrote " << b.out.size() << " bytes, expected " << dataSize << "\n";
      tally.failed = unsigned(cases.size());
      return tally;
    }
    for (const Case& cs : cases) compare(c, cs, b, tally);
    return tally;
  }

 private:
  const Tools& tools_;
  Dice dice_;

  Case makeCase(unsigned i, bool straight) {
    Case cs;
    cs.kind = straight ? Case::Kind::Straight : Case::Kind::Branch;
    cs.index = i;
    do cs.base = dice_.below(16);
    while (cs.base == reg::rsp);
    do cs.indexReg = dice_.below(16);
    while (cs.indexReg == reg::rsp || cs.indexReg == cs.base);
    for (uint64_t& r : cs.r) r = dice_.registerValue();
    cs.r[cs.base] = regionAddress(i);
    cs.r[cs.indexReg] = dice_.below(32);
    cs.r[reg::rsp] = regionAddress(i) + kStackTop;
    for (unsigned f = 0; f < 6; ++f)
      if (dice_.chance(50)) cs.flags |= kFlagBit[f];
    if (dice_.chance(20)) cs.flags |= rflags::DF;
    cs.buffer.resize(kBuffer);
    for (auto& b : cs.buffer) b = uint8_t(dice_.bits());
    for (unsigned k = 0; k < kRoBytes / 8; ++k) cs.ro.push_back(".quad " + hex(dice_.bits()));
    if (straight) {
      SequenceMaker seq(dice_, cs);
      seq.make(10 + dice_.below(31));
      cs.what = std::to_string(cs.instructions) + " instructions";
    } else {
      BranchMaker(dice_, cs).make();
    }
    return cs;
  }

  struct Built {
    std::string out;                          // what QEMU wrote
    std::map<std::string, uint64_t> symbols;
    std::vector<uint8_t> text, rodata;        // the sections' bytes
    uint64_t rodataAddress = 0;
  };

  Built build(const std::string& source, const std::vector<uint8_t>& data) {
    TempDir dir;
    writeFile(dir.file("prog.s"), source + ".data\n.incbin \"" + dir.file("data.bin") + "\"\n");
    writeFile(dir.file("data.bin"), std::string(data.begin(), data.end()));
    auto as = oracle::run({tools_.as, "--64", "-o", dir.file("prog.o"), dir.file("prog.s")});
    if (as.status != 0) throw std::runtime_error("GNU as failed: " + as.err.substr(0, 3000));
    writeFile(dir.file("link.ld"), "SECTIONS {\n  . = " + hex(kTextBase) + ";\n  .text : { *(.text) }\n  .rodata : { *(.rodata) }\n  . = " +
                                       hex(kDataBase) + ";\n  .data : { *(.data) }\n}\n");
    auto ld = oracle::run({tools_.ld, "-static", "-m", "elf_x86_64", "-e", "_start", "-T", dir.file("link.ld"), "-o",
                           dir.file("prog"), dir.file("prog.o")});
    if (ld.status != 0) throw std::runtime_error("GNU ld failed: " + ld.err);
    Built b;
    for (auto [section, file] : {std::pair{".text", "text.bin"}, {".rodata", "rodata.bin"}}) {
      auto oc = oracle::run({tools_.objcopy, "-O", "binary", "-j", section, dir.file("prog"), dir.file(file)});
      if (oc.status != 0) throw std::runtime_error("objcopy failed: " + oc.err);
    }
    std::string t = readFile(dir.file("text.bin")), r = readFile(dir.file("rodata.bin"));
    b.text.assign(t.begin(), t.end());
    b.rodata.assign(r.begin(), r.end());
    auto nm = oracle::run({tools_.nm, dir.file("prog")});
    if (nm.status != 0) throw std::runtime_error("nm failed: " + nm.err);
    std::istringstream lines(nm.out);
    std::string address, kind, name;
    while (lines >> address >> kind >> name) b.symbols[name] = std::stoull(address, nullptr, 16);
    if (b.symbols.at("_start") != kTextBase) throw std::runtime_error("_start is not at the text base");
    b.rodataAddress = b.symbols.at("c0_ro");
    auto q = oracle::run({tools_.qemu, dir.file("prog")});
    if (q.status != 0) {
      std::string kept = std::filesystem::temp_directory_path() / "patchcheck-qemu-x86.elf";
      std::filesystem::copy_file(dir.file("prog"), kept, std::filesystem::copy_options::overwrite_existing);
      std::cout << "  " << tools_.qemu << " exited " << q.status << ": " << q.err << "  (program kept as " << kept << ")\n";
    }
    b.out = q.out;
    return b;
  }

  void compare(z3::context& c, const Case& cs, const Built& b, Tally& tally) {
    ConcreteStart s;
    s.target = *targetNamed("x86_64");
    s.base = cs.start;
    s.code.assign(b.text.begin() + long(cs.start - kTextBase), b.text.begin() + long(cs.end - kTextBase));
    s.r = cs.r;
    s.cf = cs.flags & rflags::CF, s.pf = cs.flags & rflags::PF, s.af = cs.flags & rflags::AF;
    s.zf = cs.flags & rflags::ZF, s.sf = cs.flags & rflags::SF, s.of = cs.flags & rflags::OF;
    s.df = cs.flags & rflags::DF;
    s.sysflags = rflags::IF;  // user mode, as QEMU runs it
    uint64_t region = regionAddress(cs.index);
    size_t roAt = size_t(cs.roAddress - b.rodataAddress);
    s.memory = {{region, cs.buffer},
                {cs.roAddress, std::vector<uint8_t>(b.rodata.begin() + long(roAt), b.rodata.begin() + long(roAt + kRoBytes))}};
    s.maxSteps = 400;
    ConcreteRun ours = runConcrete(c, s);
    tally.instructions += ours.steps;
    countRows(s.code, tally.rows);
    (cs.kind == Case::Kind::Straight ? tally.straight : tally.branches)++;

    std::vector<std::string> diffs;
    if (ours.stop != "left the program" || ours.pc != cs.end) {
      std::string why = ours.stop + " at " + hex(ours.pc);
      if (!ours.faults.empty()) why += " (" + ours.faults[0].detail + ")";
      diffs.push_back("model stopped: " + why);
    }
    size_t at = size_t(cs.index) * kRegion;
    auto check = [&](const std::string& what, std::optional<uint64_t> mine, uint64_t theirs) {
      if (!mine) diffs.push_back(what + ": model unknown, qemu " + hex(theirs));
      else if (*mine != theirs) diffs.push_back(what + ": model " + hex(*mine) + ", qemu " + hex(theirs));
    };
    for (unsigned r = 0; r < 16; ++r) check(regName(r, 64), ours.reg(r), get64(b.out, at + kDump + 8 * r));
    uint64_t theirs = get64(b.out, at + kDump + 8 * 16);
    static const char* const names[] = {"cf", "pf", "af", "zf", "sf", "of"};
    for (unsigned f = 0; f < 6; ++f) {
      auto mine = ours.reg(reg::cf + f);
      if (cs.undefined & (1u << f)) {
        ++tally.undefinedFlags;
        if (mine) diffs.push_back(std::string(names[f]) + " is undefined here, but the model says " + hex(*mine));
        continue;
      }
      check(names[f], mine, (theirs & kFlagBit[f]) ? 1 : 0);
    }
    check("df", ours.reg(reg::df), (theirs & rflags::DF) ? 1 : 0);
    auto sys = ours.reg(reg::sysflags);
    check("system flags", sys ? std::optional<uint64_t>(*sys & kSystemFlags) : std::nullopt, theirs & kSystemFlags);
    auto bytes = ours.bytes(region, kBuffer);
    for (unsigned i = 0; i < kBuffer; ++i) check("byte " + std::to_string(i), bytes[i], uint8_t(b.out[at + i]));
    if (diffs.empty()) return;
    ++tally.failed;
    std::cout << "  MISMATCH case " << cs.index << " (" << cs.what << ") at " << hex(cs.start) << ", base "
              << regName(cs.base, 64) << ", index " << regName(cs.indexReg, 64) << ":\n";
    for (const std::string& l : cs.lines) std::cout << "    " << l << "\n";
    for (size_t i = 0; i < diffs.size() && i < 8; ++i) std::cout << "    " << diffs[i] << "\n";
  }
};

}  // namespace

namespace patchcheck::oracle::qemu_crossval {

// This plug-in's part of oracle.qemu_crossval (tests/oracle/qemu_crossval.cpp runs every plug-in's).
int x86_64Part([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    auto begin = std::chrono::steady_clock::now();
    Tools tools = requireTools();
    uint64_t seed = 20260214;
    if (const char* s = std::getenv("PATCHCHECK_SEED")) seed = std::strtoull(s, nullptr, 0);
    unsigned straight = 2000, branches = 400;
    if (argc > 1) straight = unsigned(std::atoi(argv[1]));
    if (argc > 2) branches = unsigned(std::atoi(argv[2]));
    std::cout << "QEMU cross-validation (x86_64), seed " << seed << "\n";
    // One Z3 context for the whole run, never deleted (as in the arm64 test:
    // deleting one that held this many terms costs more than the run).
    z3::context& ctx = *new z3::context;
    Run runner(tools, seed);
    Tally t = runner.run(ctx, straight, branches);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::cout << "  " << t.straight << " straight-line sequences, " << t.branches << " branch cases, " << t.instructions
              << " instructions executed, " << t.undefinedFlags << " undefined flags left uncompared, " << t.failed
              << " mismatches, " << seconds << " s\n";
    std::vector<std::string> never;
    for (const Row& row : semanticsTable())
      if (!t.rows.count(&row)) never.push_back(rowName(row));
    std::cout << "  rows of the subset's table generated: " << t.rows.size() << " of " << semanticsTable().size()
              << "; never (they fault, or are privileged at CPL 3: unit.x86_semantics covers them):";
    for (const std::string& n : never) std::cout << " " << n;
    std::cout << "\n";
    unsigned cases = t.straight + t.branches;
    std::cout << (cases >= t.failed ? cases - t.failed : 0) << " passed, " << t.failed << " failed\n";
    return t.failed == 0 && t.straight >= 2000 && t.branches > 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cout << "error: " << e.what() << "\n0 passed, 1 failed\n";
    return 1;
  }
}

}  // namespace patchcheck::oracle::qemu_crossval
