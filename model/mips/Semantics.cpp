// The meaning of every row of the instruction table as Z3 terms, after the
// pseudocode of the MIPS32/MIPS64 Release 2 and Release 6 manuals (Volume II).
// 32-bit operations on MIPS64 sign-extend their result from bit 31; those the
// manuals guard with NotWordValue() report an Unpredictable fault when an
// input is not a sign-extended 32-bit value.
#include "model/mips/Semantics.h"

#include "encoder/mips/Fields.h"
#include "encoder/mips/Plugin.h"
#include "encoder/mips/Printer.h"
#include "encoder/mips/Registers.h"

namespace patchcheck::mips {

unsigned Fetched::reg(Opnd k) const { return registerOf(k, bits); }

namespace {
bool isSignedKind(Opnd k) {
  return k == Opnd::Simm16 || k == Opnd::Mem16 || k == Opnd::Mem9 || isBranchKind(k) ||
         isPcRelativeKind(k) || k == Opnd::PcOff19;
}
}  // namespace

z3::expr Fetched::imm(Opnd k, unsigned width) const {
  z3::context& c = word.ctx();
  unsigned w = immediateWidth(k), shift = immediateShift(k);
  if (w == 0) return c.bv_val(0, width);
  if (word.is_numeral()) {  // concrete word: no solver work
    uint64_t v = isSignedKind(k) ? uint64_t(signedImmediateOf(k, bits)) : immediateOf(k, bits);
    return c.bv_val(width >= 64 ? v : v & ((uint64_t(1) << width) - 1), width);
  }
  z3::expr field = word.extract(shift + w - 1, shift);
  bool isSigned = isSignedKind(k);
  if (width == w) return field.simplify();
  if (width < w) return field.extract(width - 1, 0).simplify();
  return (isSigned ? z3::sext(field, width - w) : z3::zext(field, width - w)).simplify();
}

namespace {

// One execution of one instruction: the state it changes and what it reports.
class Execution {
 public:
  Execution(MachineState& s, const Fetched& f, const z3::expr& pc)
      : s_(s), f_(f), pc_(pc), c_(s.ctx), w_(s.width()), t_(targetOf(s.target)),
        effect_{Control{Control::Kind::None, c_.bool_val(false), pc, false, false}, {}} {}

  StepEffect run();

 private:
  MachineState& s_;
  const Fetched& f_;
  const z3::expr& pc_;
  z3::context& c_;
  unsigned w_;
  Target t_;  // the MIPS view of s_.target
  StepEffect effect_;

  unsigned rs() const { return rsOf(f_.bits); }
  unsigned rt() const { return rtOf(f_.bits); }
  unsigned rd() const { return rdOf(f_.bits); }
  unsigned sa() const { return saOf(f_.bits); }
  z3::expr R(unsigned r) const { return s_.reg(r); }
  z3::expr bv(uint64_t v, unsigned bits) const { return c_.bv_val(v, bits); }
  z3::expr word(uint64_t v) const { return c_.bv_val(v, w_); }
  bool is64() const { return w_ == 64; }

  std::string text() const {
    return disassemble(f_.bits, 0, t_);
  }
  std::string regName(unsigned r) const { return "$" + std::string(gprName(r, t_.abi)); }

  // `detail` follows the instruction's text; built only for faults that can happen.
  void fault(FaultKind k, const z3::expr& when, const std::string& detail) {
    z3::expr w = when.simplify();
    if (w.is_false()) return;
    effect_.faults.push_back(Fault{k, w, detail.empty() ? text() : text() + ": " + detail});
  }
  void effect(std::string what, const z3::expr& address, EffectKind kind) {
    s_.effects.push_back(SideEffect{std::move(what), address.simplify(), std::nullopt, kind});
  }
  void set(unsigned r, const z3::expr& v) { s_.setReg(r, v.simplify()); }

  // --- 32-bit values in 32- or 64-bit registers
  z3::expr low32(const z3::expr& v) const { return v.get_sort().bv_size() == 32 ? v : v.extract(31, 0); }
  z3::expr signExtend32(const z3::expr& v32) const { return is64() ? z3::sext(v32, 32) : v32; }
  z3::expr isWordValue(const z3::expr& v) const {
    return is64() ? v == z3::sext(v.extract(31, 0), 32) : c_.bool_val(true);
  }
  // MIPS64 pseudocode: "if NotWordValue(GPR[r]) then UNPREDICTABLE".
  void requireWordValues(std::initializer_list<unsigned> regs) {
    if (!is64()) return;
    for (unsigned r : regs) {
      if (r == 0) continue;
      fault(FaultKind::Unpredictable, !isWordValue(R(r)),
            regName(r) + " is not a sign-extended 32-bit value (MIPS64 NotWordValue)");
    }
  }

  // --- addresses
  z3::expr pcPlus(int64_t d) const { return s_.advance(pc_, uint64_t(d)); }
  z3::expr effectiveAddress(Opnd mem) const {
    return s_.normalize(s_.address(R(rs())) + f_.imm(mem, 64));
  }
  // Field layouts by encoding, not by the row's operand list (aliases may
  // spell fewer operands): R6 moved ll/sc/cache/pref to SPECIAL3 with 9-bit
  // offsets; bc/balc have 26-bit and beqzc/bnezc 21-bit offsets.
  Opnd memOperand() const { return (f_.bits >> 26) == 0x1f ? Opnd::Mem9 : Opnd::Mem16; }
  Opnd branchOperand() const {
    switch (f_.desc->op) {
      case Op::Bc: case Op::Balc: return Opnd::Br26;
      case Op::Beqzc: case Op::Bnezc: return Opnd::Br21;
      default: return Opnd::Br16;
    }
  }
  void requireAligned(const z3::expr& ea, unsigned bytes, const std::string& what) {
    if (bytes == 1) return;
    fault(FaultKind::AddressError, (ea & bv(bytes - 1, 64)) != bv(0, 64),
          what + " address is not " + std::to_string(bytes) + "-byte aligned");
  }

  // --- control flow
  z3::expr branchTarget() const {
    Opnd k = branchOperand();
    return s_.normalize(pc_ + bv(4, 64) + z3::shl(f_.imm(k, 64), bv(2, 64)));
  }
  void delayed(const z3::expr& taken, const z3::expr& target, bool likely = false) {
    effect_.control = Control{Control::Kind::Delayed, taken.simplify(), target.simplify(), likely, false};
  }
  void compact(const z3::expr& taken, const z3::expr& target, bool forbidden) {
    effect_.control = Control{Control::Kind::Compact, taken.simplify(), target.simplify(), false, forbidden};
  }
  void requireJumpAligned(const z3::expr& target, const z3::expr& taken) {
    fault(FaultKind::AddressError, taken && (target & bv(3, 64)) != bv(0, 64),
          "jump target is not word-aligned (address error on fetch)");
  }
  // Pre-R6 branch-and-link: rs = 31 is UNPREDICTABLE (not re-executable).
  void requireRsNotRa() {
    if (rs() == 31)
      fault(FaultKind::Unpredictable, c_.bool_val(true),
            "rs is $ra, which the link overwrites (not restartable)");
  }

  void alu32(const z3::expr& result32) { set(dest(), signExtend32(result32)); }
  unsigned dest() const {
    for (Opnd k : f_.desc->operands) {
      if (k == Opnd::Rd) return rd();
      if (k == Opnd::Rt) return rt();
    }
    return rd();
  }

  void add32(const z3::expr& a, const z3::expr& b, bool trapping) {
    z3::expr a32 = low32(a), b32 = low32(b), sum = a32 + b32;
    if (trapping)
      fault(FaultKind::IntegerOverflow,
            a32.extract(31, 31) == b32.extract(31, 31) && sum.extract(31, 31) != a32.extract(31, 31),
            "signed 32-bit overflow");
    alu32(sum);
  }
  void sub32(const z3::expr& a, const z3::expr& b, bool trapping) {
    z3::expr a32 = low32(a), b32 = low32(b), diff = a32 - b32;
    if (trapping)
      fault(FaultKind::IntegerOverflow,
            a32.extract(31, 31) != b32.extract(31, 31) && diff.extract(31, 31) != a32.extract(31, 31),
            "signed 32-bit overflow");
    alu32(diff);
  }
  void add64(const z3::expr& a, const z3::expr& b, bool trapping, unsigned d) {
    z3::expr sum = a + b;
    if (trapping)
      fault(FaultKind::IntegerOverflow,
            a.extract(63, 63) == b.extract(63, 63) && sum.extract(63, 63) != a.extract(63, 63),
            "signed 64-bit overflow");
    set(d, sum);
  }
  void sub64(const z3::expr& a, const z3::expr& b, bool trapping, unsigned d) {
    z3::expr diff = a - b;
    if (trapping)
      fault(FaultKind::IntegerOverflow,
            a.extract(63, 63) != b.extract(63, 63) && diff.extract(63, 63) != a.extract(63, 63),
            "signed 64-bit overflow");
    set(d, diff);
  }
  z3::expr flag(const z3::expr& cond) const { return z3::ite(cond, word(1), word(0)); }

  void shift32(Op op, const z3::expr& amount5) {
    z3::expr v = low32(R(rt()));
    z3::expr n = z3::zext(amount5, 27);
    switch (op) {
      case Op::Sll: case Op::Sllv: alu32(z3::shl(v, n)); break;
      case Op::Srl: case Op::Srlv: alu32(z3::lshr(v, n)); break;
      case Op::Sra: case Op::Srav: alu32(z3::ashr(v, n)); break;
      default: alu32(z3::lshr(v, n) | z3::shl(v, bv(32, 32) - n)); break;  // rotr: n = 0 shifts by 32 -> 0
    }
  }
  void shift64(Op op, const z3::expr& amount6) {
    z3::expr v = R(rt());
    z3::expr n = z3::zext(amount6, 58);
    switch (op) {
      case Op::Dsll: case Op::Dsll32: case Op::Dsllv: set(rd(), z3::shl(v, n)); break;
      case Op::Dsrl: case Op::Dsrl32: case Op::Dsrlv: set(rd(), z3::lshr(v, n)); break;
      case Op::Dsra: case Op::Dsra32: case Op::Dsrav: set(rd(), z3::ashr(v, n)); break;
      default: set(rd(), z3::lshr(v, n) | z3::shl(v, bv(64, 64) - n)); break;
    }
  }

  void load(unsigned bytes, bool isSigned) {
    z3::expr ea = effectiveAddress(memOperand());
    requireAligned(ea, bytes, "load");
    z3::expr v = s_.load(ea, bytes);
    if (8 * bytes < w_) v = isSigned ? z3::sext(v, w_ - 8 * bytes) : z3::zext(v, w_ - 8 * bytes);
    set(rt(), v);
  }
  void store(unsigned bytes) {
    z3::expr ea = effectiveAddress(memOperand());
    requireAligned(ea, bytes, "store");
    z3::expr v = R(rt());
    if (8 * bytes < w_) v = v.extract(8 * bytes - 1, 0);
    s_.store(ea, v.simplify(), bytes);
  }
  void loadStorePartial(Op op);
  void storeConditional(unsigned bytes);
  void bitField(Op op);
  void byteOrder(Op op);
  void countLeading(Op op);
  void pcRelative(Op op);
  void multiplyAccumulate(Op op);
  void hardwareRegister();

  void divide32(bool isSigned, z3::expr& quotient, z3::expr& remainder) {
    z3::expr a = low32(R(rs())), b = low32(R(rt()));
    quotient = isSigned ? a / b : z3::udiv(a, b);  // z3 operator/ is signed division
    remainder = isSigned ? z3::srem(a, b) : z3::urem(a, b);
    fault(FaultKind::Unpredictable, b == bv(0, 32), "divisor is zero (result UNPREDICTABLE)");
  }
  void divide64(bool isSigned, z3::expr& quotient, z3::expr& remainder) {
    z3::expr a = R(rs()), b = R(rt());
    quotient = isSigned ? a / b : z3::udiv(a, b);
    remainder = isSigned ? z3::srem(a, b) : z3::urem(a, b);
    fault(FaultKind::Unpredictable, b == bv(0, 64), "divisor is zero (result UNPREDICTABLE)");
  }
  // The full product of two 32-bit (or 64-bit) values.
  z3::expr product(const z3::expr& a, const z3::expr& b, bool isSigned) const {
    unsigned n = a.get_sort().bv_size();
    z3::expr wa = isSigned ? z3::sext(a, n) : z3::zext(a, n);
    z3::expr wb = isSigned ? z3::sext(b, n) : z3::zext(b, n);
    return wa * wb;
  }

  void trap(const z3::expr& cond) { fault(FaultKind::Trap, cond, ""); }
  z3::expr simm() const { return f_.imm(Opnd::Simm16, w_); }
  z3::expr uimm() const { return f_.imm(Opnd::Uimm16, w_); }
  z3::expr simm64() const { return f_.imm(Opnd::Simm16, 64); }
  z3::expr cp0Value(const std::string& what, bool doubleword) {
    z3::expr v = s_.fresh(what, doubleword ? 64 : 32);
    return doubleword ? v : signExtend32(v);
  }
};

// lwl/lwr/swl/swr/ldl/ldr/sdl/sdr: merge the part of an unaligned word (or
// doubleword) that lies in the aligned unit containing the address. With
// k = the address's byte offset in the unit counted from the most
// significant end (BigEndianMem view), for a unit of n bytes:
//   left load:   (M << 8k) | (rt & low k bytes)
//   right load:  (M >> 8(n-1-k)) | (rt & ~low (k+1) bytes)
//   left store:  (M & ~low (n-k) bytes) | (rt >> 8k)
//   right store: (M & low (n-1-k) bytes) | (rt << 8(n-1-k))
void Execution::loadStorePartial(Op op) {
  bool dword = op == Op::Ldl || op == Op::Ldr || op == Op::Sdl || op == Op::Sdr;
  bool left = op == Op::Lwl || op == Op::Ldl || op == Op::Swl || op == Op::Sdl;
  bool isLoad = op == Op::Lwl || op == Op::Lwr || op == Op::Ldl || op == Op::Ldr;
  unsigned n = dword ? 8 : 4, bits = 8 * n;
  z3::expr ea = effectiveAddress(memOperand());
  z3::expr aligned = ea & bv(~uint64_t(n - 1), 64);
  z3::expr offset = (ea & bv(n - 1, 64)).extract(2, 0);
  if (t_.endian == Endian::Little) offset = bv(n - 1, 3) - offset;
  if (n == 4) offset = offset & bv(3, 3);
  z3::expr mem = s_.load(aligned, n);
  z3::expr reg = dword ? R(rt()) : low32(R(rt()));
  auto lowBytes = [&](unsigned k) {
    return bv(k >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * k)) - 1, bits);
  };
  z3::expr result = isLoad ? reg : mem;
  for (unsigned k = n; k-- > 0;) {
    z3::expr v = reg;
    if (isLoad && left) v = z3::shl(mem, bv(8 * k, bits)) | (reg & lowBytes(k));
    if (isLoad && !left) v = z3::lshr(mem, bv(8 * (n - 1 - k), bits)) | (reg & ~lowBytes(k + 1));
    if (!isLoad && left) v = (mem & ~lowBytes(n - k)) | z3::lshr(reg, bv(8 * k, bits));
    if (!isLoad && !left) v = (mem & lowBytes(n - 1 - k)) | z3::shl(reg, bv(8 * (n - 1 - k), bits));
    result = k == n - 1 ? v : z3::ite(offset == bv(k, 3), v, result);
  }
  result = result.simplify();
  if (!isLoad) {
    s_.store(aligned, result, n);
    return;
  }
  if (dword || !is64()) {
    set(rt(), result);
    return;
  }
  // MIPS64 lwl sign-extends; lwr sign-extends when it loaded bit 31 and
  // otherwise leaves bits 63..32 "unchanged or a copy of bit 31"
  // (implementation dependent): a choice, fixed to sign extension in
  // concrete mode (as QEMU does).
  z3::expr extended = z3::sext(result, 32);
  if (left || s_.concrete) {
    set(rt(), extended);
    return;
  }
  z3::expr kept = z3::concat(R(rt()).extract(63, 32), result);
  z3::expr whole = offset == bv(n - 1, 3);
  set(rt(), z3::ite(whole || s_.fresh("lwr.signextends", 0), extended, kept));
}

// sc/scd succeed only while LLbit holds; an implementation may also fail
// them for its own reasons, so the symbolic success is a choice.
// ext/ins and their doubleword forms. The fields are concrete (the
// assembler takes only constants there); out-of-range combinations are
// UNPREDICTABLE and leave rt unknown.
void Execution::bitField(Op op) {
  unsigned lsb = sa(), field = rd();
  bool extract = op == Op::Ext || op == Op::Dext || op == Op::Dextm || op == Op::Dextu;
  bool is32 = op == Op::Ext || op == Op::Ins;
  if (op == Op::Dextu || op == Op::Dinsu) lsb += 32;
  unsigned top = op == Op::Dextm || op == Op::Dinsm || op == Op::Dinsu ? field + 32 : field;
  // extract: top = msbd (size - 1); insert: top = msb.
  unsigned limit = is32 ? 32 : 64;
  bool bad = extract ? lsb + top + 1 > limit : lsb > top;
  if (is32) requireWordValues(extract ? std::initializer_list<unsigned>{rs()}
                                      : std::initializer_list<unsigned>{rs(), rt()});
  if (bad) {
    fault(FaultKind::Unpredictable, c_.bool_val(true),
          extract ? "pos + size exceeds " + std::to_string(limit) + " (UNPREDICTABLE)"
                  : "msb < lsb: the size is not positive (UNPREDICTABLE)");
    set(rt(), s_.fresh("rt.after." + std::string(f_.desc->mnemonic), w_));
    return;
  }
  z3::expr src = is32 ? low32(R(rs())) : R(rs());
  if (extract) {  // size = top + 1 bits of rs from lsb, zero-extended
    unsigned size = top + 1, n = is32 ? 32 : 64;
    z3::expr bits = src.extract(lsb + size - 1, lsb);
    z3::expr v = size == n ? bits : z3::zext(bits, n - size);
    if (is32) alu32(v);  // sign-extends bit 31 (only when size is 32)
    else set(rt(), v);
    return;
  }
  z3::expr old = is32 ? low32(R(rt())) : R(rt());
  unsigned n = is32 ? 32 : 64, size = top - lsb + 1;
  z3::expr v = src.extract(size - 1, 0);
  if (top + 1 < n) v = z3::concat(old.extract(n - 1, top + 1), v);
  if (lsb > 0) v = z3::concat(v, old.extract(lsb - 1, 0));
  if (is32) alu32(v);
  else set(rt(), v);
}

// wsbh, dsbh, dshd, seb, seh, bitswap, dbitswap, align, dalign.
void Execution::byteOrder(Op op) {
  z3::expr t = R(rt());
  auto byte = [&](const z3::expr& v, unsigned i) { return v.extract(8 * i + 7, 8 * i); };
  auto reverseBits = [&](const z3::expr& b) {
    z3::expr r = b.extract(0, 0);
    for (unsigned i = 1; i < 8; ++i) r = z3::concat(r, b.extract(i, i));
    return r;
  };
  switch (op) {
    case Op::Wsbh: {
      requireWordValues({rt()});
      z3::expr v = low32(t);
      alu32(z3::concat(z3::concat(byte(v, 2), byte(v, 3)), z3::concat(byte(v, 0), byte(v, 1))));
      return;
    }
    case Op::Seb: set(rd(), z3::sext(t.extract(7, 0), w_ - 8)); return;
    case Op::Seh: set(rd(), z3::sext(t.extract(15, 0), w_ - 16)); return;
    case Op::Dsbh: {
      z3::expr v = byte(t, 6);
      for (unsigned i : {7u, 4u, 5u, 2u, 3u, 0u, 1u}) v = z3::concat(v, byte(t, i));
      set(rd(), v);
      return;
    }
    case Op::Dshd:
      set(rd(), z3::concat(z3::concat(t.extract(15, 0), t.extract(31, 16)),
                           z3::concat(t.extract(47, 32), t.extract(63, 48))));
      return;
    case Op::Bitswap: case Op::Dbitswap: {  // the bits of each byte reversed
      unsigned bytes = op == Op::Bitswap ? 4 : 8;
      z3::expr v = reverseBits(byte(t, bytes - 1));
      for (unsigned i = bytes - 1; i-- > 0;) v = z3::concat(v, reverseBits(byte(t, i)));
      if (op == Op::Bitswap) alu32(v);
      else set(rd(), v);
      return;
    }
    case Op::Align: {  // (rt << 8bp) | (rs >> 8(4 - bp)) on the low words
      unsigned bp = (f_.bits >> 6) & 3;
      z3::expr hi = low32(t), lo = low32(R(rs()));
      alu32(bp == 0 ? hi : z3::concat(hi.extract(31 - 8 * bp, 0), lo.extract(31, 32 - 8 * bp)));
      return;
    }
    case Op::Dalign: {
      unsigned bp = (f_.bits >> 6) & 7;
      z3::expr lo = R(rs());
      set(rd(), bp == 0 ? t : z3::concat(t.extract(63 - 8 * bp, 0), lo.extract(63, 64 - 8 * bp)));
      return;
    }
    default: return;
  }
}

// clz, clo, dclz, dclo: leading zeros (ones) of the low word or the doubleword.
void Execution::countLeading(Op op) {
  bool dword = op == Op::Dclz || op == Op::Dclo;
  bool ones = op == Op::Clo || op == Op::Dclo;
  // Pre-R6 encodings name the destination twice (rd and rt must agree).
  unsigned d = rd();
  if (!t_.isR6() && rd() != rt())
    fault(FaultKind::Unpredictable, c_.bool_val(true),
          "rd and rt differ (the pre-R6 encoding requires the same register in both)");
  if (!dword) requireWordValues({rs()});
  z3::expr v = dword ? R(rs()) : low32(R(rs()));
  unsigned n = dword ? 64 : 32;
  z3::expr count = word(n);
  for (unsigned i = 0; i < n; ++i)  // the lowest set (clear) bit decides last
    count = z3::ite(v.extract(i, i) == bv(ones ? 0 : 1, 1), word(n - 1 - i), count);
  set(d, count);
}

// R6 PCREL: addresses relative to this instruction's own pc.
void Execution::pcRelative(Op op) {
  unsigned r = rs();
  switch (op) {
    case Op::Addiupc:
      set(r, s_.fromAddress(s_.normalize(pc_ + f_.imm(Opnd::Pc19, 64) * bv(4, 64))));
      return;
    case Op::Auipc: case Op::Aluipc: {
      z3::expr up = z3::sext(z3::concat(f_.imm(Opnd::Uimm16, 16), bv(0, 16)), 32);
      z3::expr v = s_.normalize(pc_ + up);
      if (op == Op::Aluipc) v = v & bv(~uint64_t(0xffff), 64);
      set(r, s_.fromAddress(v));
      return;
    }
    case Op::Lwpc: case Op::Lwupc: {
      z3::expr ea = s_.normalize(pc_ + f_.imm(Opnd::Pc19, 64) * bv(4, 64));
      z3::expr v = s_.load(ea, 4);
      set(r, w_ == 32 ? v : op == Op::Lwpc ? z3::sext(v, 32) : z3::zext(v, 32));
      return;
    }
    case Op::Ldpc: {
      z3::expr ea = s_.normalize((pc_ & bv(~uint64_t(7), 64)) + f_.imm(Opnd::Pc18, 64) * bv(8, 64));
      set(r, s_.load(ea, 8));
      return;
    }
    default: return;
  }
}

// madd, maddu, msub, msubu: (HI || LO) +/- the 64-bit product of the low words.
void Execution::multiplyAccumulate(Op op) {
  requireWordValues({rs(), rt()});
  bool isSigned = op == Op::Madd || op == Op::Msub;
  z3::expr p = product(low32(R(rs())), low32(R(rt())), isSigned);
  z3::expr acc = z3::concat(low32(s_.regs[reg::hi]), low32(s_.regs[reg::lo]));
  z3::expr r = op == Op::Madd || op == Op::Maddu ? acc + p : acc - p;
  s_.regs[reg::hi] = signExtend32(r.extract(63, 32)).simplify();
  s_.regs[reg::lo] = signExtend32(r.extract(31, 0)).simplify();
}

// rdhwr: the hardware registers' values are not modelled (a fresh value);
// numbers the release reserves raise Reserved Instruction. Whether an
// implemented register is enabled for user mode (HWREna) is not modelled.
void Execution::hardwareRegister() {
  unsigned n = rd(), sel = (f_.bits >> 6) & 7;
  bool defined = n <= 3 || n >= 29 || (t_.isR6() && n <= 5);
  if (!defined) {
    fault(FaultKind::ReservedInstruction, c_.bool_val(true),
          "hardware register $" + std::to_string(n) + " is reserved (Reserved Instruction)");
    return;
  }
  set(rt(), s_.fresh("hwr." + std::to_string(n) + "." + std::to_string(sel), w_));
}

void Execution::storeConditional(unsigned bytes) {
  z3::expr ea = effectiveAddress(memOperand());
  requireAligned(ea, bytes, "store");
  z3::expr ok = s_.concrete ? s_.regs[reg::llbit] : (s_.regs[reg::llbit] && s_.fresh("sc.succeeds", 0));
  z3::expr before = s_.memory;
  z3::expr v = R(rt());
  if (8 * bytes < w_) v = v.extract(8 * bytes - 1, 0);
  s_.store(ea, v, bytes);
  s_.memory = z3::ite(ok, s_.memory, before).simplify();
  set(rt(), flag(ok));
  s_.regs[reg::llbit] = c_.bool_val(false);
}

StepEffect Execution::run() {
  if (!f_.desc) {
    fault(FaultKind::ReservedInstruction, c_.bool_val(true),
          "word not defined for " + std::string(name(t_.isa)));
    return effect_;
  }
  const Op op = f_.desc->op;
  switch (op) {
    // --- ALU, register forms
    case Op::Add: requireWordValues({rs(), rt()}); add32(R(rs()), R(rt()), true); break;
    case Op::Addu: requireWordValues({rs(), rt()}); add32(R(rs()), R(rt()), false); break;
    case Op::Sub: requireWordValues({rs(), rt()}); sub32(R(rs()), R(rt()), true); break;
    case Op::Subu: requireWordValues({rs(), rt()}); sub32(R(rs()), R(rt()), false); break;
    case Op::Dadd: add64(R(rs()), R(rt()), true, rd()); break;
    case Op::Daddu: add64(R(rs()), R(rt()), false, rd()); break;
    case Op::Dsub: sub64(R(rs()), R(rt()), true, rd()); break;
    case Op::Dsubu: sub64(R(rs()), R(rt()), false, rd()); break;
    case Op::And: set(rd(), R(rs()) & R(rt())); break;
    case Op::Or: set(rd(), R(rs()) | R(rt())); break;
    case Op::Xor: set(rd(), R(rs()) ^ R(rt())); break;
    case Op::Nor: set(rd(), ~(R(rs()) | R(rt()))); break;
    case Op::Slt: set(rd(), flag(R(rs()) < R(rt()))); break;  // operator< is signed
    case Op::Sltu: set(rd(), flag(z3::ult(R(rs()), R(rt())))); break;
    case Op::Seleqz: set(rd(), z3::ite(R(rt()) == word(0), R(rs()), word(0))); break;
    case Op::Selnez: set(rd(), z3::ite(R(rt()) != word(0), R(rs()), word(0))); break;
    case Op::Movz: set(rd(), z3::ite(R(rt()) == word(0), R(rs()), R(rd()))); break;
    case Op::Movn: set(rd(), z3::ite(R(rt()) != word(0), R(rs()), R(rd()))); break;

    // --- ALU, immediate forms
    case Op::Addi: requireWordValues({rs()}); add32(R(rs()), simm(), true); break;
    case Op::Addiu: requireWordValues({rs()}); add32(R(rs()), simm(), false); break;
    case Op::Daddi: add64(R(rs()), simm(), true, rt()); break;
    case Op::Daddiu: add64(R(rs()), simm(), false, rt()); break;
    case Op::Slti: set(rt(), flag(R(rs()) < simm())); break;
    case Op::Sltiu: set(rt(), flag(z3::ult(R(rs()), simm()))); break;
    case Op::Andi: set(rt(), R(rs()) & uimm()); break;
    case Op::Ori: set(rt(), R(rs()) | uimm()); break;
    case Op::Xori: set(rt(), R(rs()) ^ uimm()); break;
    case Op::Lui: alu32(z3::concat(f_.imm(Opnd::Uimm16, 16), bv(0, 16))); break;
    case Op::Aui:  // R6: GPR[rt] = sign_extend((GPR[rs] + (imm << 16))[31:0])
      alu32(low32(R(rs())) + z3::concat(f_.imm(Opnd::Uimm16, 16), bv(0, 16)));
      break;
    case Op::Daui:
      set(rt(), R(rs()) + z3::sext(z3::concat(f_.imm(Opnd::Uimm16, 16), bv(0, 16)), 32));
      break;
    case Op::Dahi:
      set(rs(), R(rs()) + z3::sext(z3::concat(f_.imm(Opnd::Uimm16, 16), bv(0, 32)), 16));
      break;
    case Op::Dati: set(rs(), R(rs()) + z3::concat(f_.imm(Opnd::Uimm16, 16), bv(0, 48))); break;

    // --- shifts (MIPS64: srl/sra/rotr and their variable forms read a word value)
    case Op::Sll: shift32(op, bv(sa(), 5)); break;
    case Op::Sllv: shift32(op, R(rs()).extract(4, 0)); break;
    case Op::Srl: case Op::Sra: case Op::Rotr:
      requireWordValues({rt()});
      shift32(op, bv(sa(), 5));
      break;
    case Op::Srlv: case Op::Srav: case Op::Rotrv:
      requireWordValues({rt()});
      shift32(op, R(rs()).extract(4, 0));
      break;
    case Op::Dsll: case Op::Dsrl: case Op::Dsra: case Op::Drotr: shift64(op, bv(sa(), 6)); break;
    case Op::Dsll32: case Op::Dsrl32: case Op::Dsra32: case Op::Drotr32:
      shift64(op, bv(sa() + 32, 6));
      break;
    case Op::Dsllv: case Op::Dsrlv: case Op::Dsrav: case Op::Drotrv:
      shift64(op, R(rs()).extract(5, 0));
      break;

    // --- multiply and divide before R6
    case Op::Mult: case Op::Multu: {
      requireWordValues({rs(), rt()});
      z3::expr p = product(low32(R(rs())), low32(R(rt())), op == Op::Mult);
      s_.regs[reg::lo] = signExtend32(p.extract(31, 0)).simplify();
      s_.regs[reg::hi] = signExtend32(p.extract(63, 32)).simplify();
      break;
    }
    case Op::Dmult: case Op::Dmultu: {
      z3::expr p = product(R(rs()), R(rt()), op == Op::Dmult);
      s_.regs[reg::lo] = p.extract(63, 0).simplify();
      s_.regs[reg::hi] = p.extract(127, 64).simplify();
      break;
    }
    case Op::Div: case Op::Divu: {
      requireWordValues({rs(), rt()});
      z3::expr q = c_.bv_val(0, 32), r = c_.bv_val(0, 32);
      divide32(op == Op::Div, q, r);
      s_.regs[reg::lo] = signExtend32(q).simplify();
      s_.regs[reg::hi] = signExtend32(r).simplify();
      break;
    }
    case Op::Ddiv: case Op::Ddivu: {
      z3::expr q = c_.bv_val(0, 64), r = c_.bv_val(0, 64);
      divide64(op == Op::Ddiv, q, r);
      s_.regs[reg::lo] = q.simplify();
      s_.regs[reg::hi] = r.simplify();
      break;
    }
    case Op::Mfhi: set(rd(), s_.regs[reg::hi]); break;
    case Op::Mflo: set(rd(), s_.regs[reg::lo]); break;
    case Op::Mthi: s_.regs[reg::hi] = R(rs()); break;
    case Op::Mtlo: s_.regs[reg::lo] = R(rs()); break;
    case Op::Mul2:  // pre-R6 SPECIAL2 mul: HI and LO become UNPREDICTABLE values
      requireWordValues({rs(), rt()});
      alu32(low32(R(rs())) * low32(R(rt())));
      s_.regs[reg::hi] = s_.fresh("hi.after.mul", w_);  // unknown even in concrete mode
      s_.regs[reg::lo] = s_.fresh("lo.after.mul", w_);
      break;

    // --- multiply and divide, R6
    case Op::Mul: case Op::Mulu:
      requireWordValues({rs(), rt()});
      alu32(low32(R(rs())) * low32(R(rt())));
      break;
    case Op::Muh: case Op::Muhu:
      requireWordValues({rs(), rt()});
      alu32(product(low32(R(rs())), low32(R(rt())), op == Op::Muh).extract(63, 32));
      break;
    case Op::Div6: case Op::Mod: case Op::Divu6: case Op::Modu: {
      requireWordValues({rs(), rt()});
      z3::expr q = c_.bv_val(0, 32), r = c_.bv_val(0, 32);
      divide32(op == Op::Div6 || op == Op::Mod, q, r);
      alu32(op == Op::Div6 || op == Op::Divu6 ? q : r);
      break;
    }
    case Op::Dmul: case Op::Dmulu: set(rd(), R(rs()) * R(rt())); break;
    case Op::Dmuh: case Op::Dmuhu:
      set(rd(), product(R(rs()), R(rt()), op == Op::Dmuh).extract(127, 64));
      break;
    case Op::Ddiv6: case Op::Dmod: case Op::Ddivu6: case Op::Dmodu: {
      z3::expr q = c_.bv_val(0, 64), r = c_.bv_val(0, 64);
      divide64(op == Op::Ddiv6 || op == Op::Dmod, q, r);
      set(rd(), op == Op::Ddiv6 || op == Op::Ddivu6 ? q : r);
      break;
    }

    // --- loads and stores
    case Op::Lb: load(1, true); break;
    case Op::Lbu: load(1, false); break;
    case Op::Lh: load(2, true); break;
    case Op::Lhu: load(2, false); break;
    case Op::Lw: load(4, true); break;
    case Op::Lwu: load(4, false); break;
    case Op::Ld: load(8, true); break;
    case Op::Sb: store(1); break;
    case Op::Sh: store(2); break;
    case Op::Sw: store(4); break;
    case Op::Sd: store(8); break;
    case Op::Lwl: case Op::Lwr: case Op::Swl: case Op::Swr:
    case Op::Ldl: case Op::Ldr: case Op::Sdl: case Op::Sdr:
      loadStorePartial(op);
      break;
    case Op::Ll: load(4, true); s_.regs[reg::llbit] = c_.bool_val(true); break;
    case Op::Lld: load(8, true); s_.regs[reg::llbit] = c_.bool_val(true); break;
    case Op::Sc: storeConditional(4); break;
    case Op::Scd: storeConditional(8); break;

    // --- branches with a delay slot (target relative to the delay slot)
    case Op::Beq: delayed(R(rs()) == R(rt()), branchTarget()); break;
    case Op::Bne: delayed(R(rs()) != R(rt()), branchTarget()); break;
    case Op::Blez: delayed(R(rs()) <= word(0), branchTarget()); break;
    case Op::Bgtz: delayed(R(rs()) > word(0), branchTarget()); break;
    case Op::Bltz: delayed(R(rs()) < word(0), branchTarget()); break;
    case Op::Bgez: delayed(R(rs()) >= word(0), branchTarget()); break;
    case Op::Beql: delayed(R(rs()) == R(rt()), branchTarget(), true); break;
    case Op::Bnel: delayed(R(rs()) != R(rt()), branchTarget(), true); break;
    case Op::Blezl: delayed(R(rs()) <= word(0), branchTarget(), true); break;
    case Op::Bgtzl: delayed(R(rs()) > word(0), branchTarget(), true); break;
    case Op::Bltzl: delayed(R(rs()) < word(0), branchTarget(), true); break;
    case Op::Bgezl: delayed(R(rs()) >= word(0), branchTarget(), true); break;
    case Op::Bltzal: case Op::Bgezal: case Op::Bltzall: case Op::Bgezall: {
      requireRsNotRa();
      z3::expr v = R(rs());  // read before the link is written
      z3::expr taken = op == Op::Bltzal || op == Op::Bltzall ? v < word(0) : v >= word(0);
      set(31, s_.fromAddress(pcPlus(8)));  // the link is written whether or not taken
      delayed(taken, branchTarget(), op == Op::Bltzall || op == Op::Bgezall);
      break;
    }

    // --- jumps
    case Op::J: case Op::Jal: {
      z3::expr slot = pcPlus(4);
      z3::expr target = (slot & bv(~uint64_t(0x0fffffff), 64)) |
                        z3::shl(f_.imm(Opnd::Jump26, 64), bv(2, 64));
      if (op == Op::Jal) set(31, s_.fromAddress(pcPlus(8)));
      delayed(c_.bool_val(true), target);
      break;
    }
    case Op::Jr: case Op::JrHb: case Op::Jalr: case Op::JalrHb: {
      z3::expr target = s_.address(R(rs()));  // read before the link is written
      bool link = op == Op::Jalr || op == Op::JalrHb;
      if (link && rd() == rs())
        fault(FaultKind::Unpredictable, c_.bool_val(true),
              "rd == rs (" + regName(rs()) +
                  "); a re-execution after an exception in the delay slot would jump to the link");
      requireJumpAligned(target, c_.bool_val(true));
      if (link) set(rd(), s_.fromAddress(pcPlus(8)));
      if (op == Op::JrHb || op == Op::JalrHb) effect("hazard barrier", target, EffectKind::Barrier);
      delayed(c_.bool_val(true), target);
      break;
    }

    // --- R6 compact branches: link = pc + 4, no delay slot
    case Op::Bc: compact(c_.bool_val(true), branchTarget(), false); break;
    case Op::Balc:
      set(31, s_.fromAddress(pcPlus(4)));
      compact(c_.bool_val(true), branchTarget(), false);
      break;
    case Op::Jic: case Op::Jialc: {
      z3::expr target = s_.normalize(s_.address(R(rt())) + simm64());
      requireJumpAligned(target, c_.bool_val(true));
      if (op == Op::Jialc) set(31, s_.fromAddress(pcPlus(4)));
      compact(c_.bool_val(true), target, false);
      break;
    }
    case Op::Beqzc: compact(R(rs()) == word(0), branchTarget(), true); break;
    case Op::Bnezc: compact(R(rs()) != word(0), branchTarget(), true); break;
    case Op::Beqc: compact(R(rs()) == R(rt()), branchTarget(), true); break;
    case Op::Bnec: compact(R(rs()) != R(rt()), branchTarget(), true); break;
    case Op::Bltc: compact(R(rs()) < R(rt()), branchTarget(), true); break;
    case Op::Bgec: compact(R(rs()) >= R(rt()), branchTarget(), true); break;
    case Op::Bltuc: compact(z3::ult(R(rs()), R(rt())), branchTarget(), true); break;
    case Op::Bgeuc: compact(z3::uge(R(rs()), R(rt())), branchTarget(), true); break;
    case Op::Blezc: compact(R(rt()) <= word(0), branchTarget(), true); break;
    case Op::Bgezc: compact(R(rt()) >= word(0), branchTarget(), true); break;
    case Op::Bgtzc: compact(R(rt()) > word(0), branchTarget(), true); break;
    case Op::Bltzc: compact(R(rt()) < word(0), branchTarget(), true); break;
    case Op::Beqzalc: case Op::Bnezalc: case Op::Blezalc: case Op::Bgezalc:
    case Op::Bgtzalc: case Op::Bltzalc: {
      // The manuals write the link and test GPR[rt] without saying which
      // comes first when rt is $ra (QEMU links first for four of the six):
      // treated as UNPREDICTABLE; the model reads the old value.
      if (rt() == 31)
        fault(FaultKind::Unpredictable, c_.bool_val(true),
              "rt is $ra, which the link overwrites (order of link and test undefined)");
      z3::expr v = R(rt());  // read before the (unconditional) link
      z3::expr taken = op == Op::Beqzalc   ? v == word(0)
                       : op == Op::Bnezalc ? v != word(0)
                       : op == Op::Blezalc ? v <= word(0)
                       : op == Op::Bgezalc ? v >= word(0)
                       : op == Op::Bgtzalc ? v > word(0)
                                           : v < word(0);
      set(31, s_.fromAddress(pcPlus(4)));
      compact(taken, branchTarget(), true);
      break;
    }
    case Op::Bovc: case Op::Bnvc: {
      // R6: overflow of the 32-bit sum; on MIPS64 an input that is not a
      // word value counts as overflow.
      z3::expr a = low32(R(rs())), b = low32(R(rt()));
      z3::expr sum = z3::sext(a, 1) + z3::sext(b, 1);
      z3::expr overflow = sum.extract(32, 32) != sum.extract(31, 31);
      if (is64()) overflow = overflow || !isWordValue(R(rs())) || !isWordValue(R(rt()));
      compact(op == Op::Bovc ? overflow : !overflow, branchTarget(), true);
      break;
    }

    // --- barriers and cache
    case Op::Sync: effect("sync " + std::to_string(sa()), pc_, EffectKind::Barrier); break;
    case Op::Synci: effect("synci", effectiveAddress(memOperand()), EffectKind::Barrier); break;
    case Op::Cache: {
      char buf[16];
      snprintf(buf, sizeof buf, "cache 0x%02x", rt());
      effect(buf, effectiveAddress(memOperand()), EffectKind::CacheOp);
      break;
    }
    case Op::Pref:  // a hint: no architectural effect, but R6 reserves hints 24-31
      if (t_.isR6() && rt() >= 24)
        fault(FaultKind::ReservedInstruction, c_.bool_val(true),
              "PREF hints 24-31 are reserved in Release 6 (Reserved Instruction)");
      break;

    // --- system
    case Op::Eret: case Op::Deret:
      effect(std::string(f_.desc->mnemonic), pc_, EffectKind::ExceptionReturn);
      fault(FaultKind::Eret, c_.bool_val(true), "");
      break;
    case Op::Wait:
      effect("wait", pc_, EffectKind::Wait);
      fault(FaultKind::Wait, c_.bool_val(true), "");
      break;
    case Op::Break: fault(FaultKind::Break, c_.bool_val(true), ""); break;
    case Op::Syscall: fault(FaultKind::Syscall, c_.bool_val(true), ""); break;
    case Op::Sdbbp: fault(FaultKind::DebugBreak, c_.bool_val(true), ""); break;
    case Op::Teq: trap(R(rs()) == R(rt())); break;
    case Op::Tne: trap(R(rs()) != R(rt())); break;
    case Op::Tge: trap(R(rs()) >= R(rt())); break;
    case Op::Tgeu: trap(z3::uge(R(rs()), R(rt()))); break;
    case Op::Tlt: trap(R(rs()) < R(rt())); break;
    case Op::Tltu: trap(z3::ult(R(rs()), R(rt()))); break;
    case Op::Teqi: trap(R(rs()) == simm()); break;
    case Op::Tnei: trap(R(rs()) != simm()); break;
    case Op::Tgei: trap(R(rs()) >= simm()); break;
    case Op::Tgeiu: trap(z3::uge(R(rs()), simm())); break;
    case Op::Tlti: trap(R(rs()) < simm()); break;
    case Op::Tltiu: trap(z3::ult(R(rs()), simm())); break;

    // --- coprocessor 0: reads are unknown values, writes are reported
    case Op::Mfc0: case Op::Dmfc0: {
      std::string reg = "cp0." + std::to_string(rd()) + "." + std::to_string(f_.bits & 7);
      set(rt(), cp0Value(reg, op == Op::Dmfc0));
      effect(text(), pc_, EffectKind::SystemRead);
      break;
    }
    case Op::Mtc0: case Op::Dmtc0:
      s_.effects.push_back(SideEffect{text(), pc_, R(rt()), EffectKind::SystemWrite});
      break;
    case Op::Di: case Op::Ei:
      set(rt(), cp0Value("cp0.status", false));  // rt = 0 when omitted: dropped
      effect(std::string(f_.desc->mnemonic), pc_, EffectKind::InterruptEnable);
      break;
    case Op::Tlbp: case Op::Tlbr: case Op::Tlbwi: case Op::Tlbwr: case Op::Tlbinv:
    case Op::Tlbinvf:
      effect(std::string(f_.desc->mnemonic), pc_, EffectKind::Tlb);
      break;
    case Op::Eretnc:
      effect("eretnc", pc_, EffectKind::ExceptionReturn);
      fault(FaultKind::Eret, c_.bool_val(true), "");
      break;
    case Op::Dvp: case Op::Evp:  // rt gets VPControl as it was
      set(rt(), cp0Value("cp0.vpcontrol", false));
      effect(std::string(f_.desc->mnemonic), pc_, EffectKind::SystemWrite);  // writes VPControl.DIS
      break;
    case Op::Rdpgpr: case Op::Wrpgpr: {
      // The previous shadow set is this one iff SRSCtl.PSS == SRSCtl.CSS.
      z3::expr same = s_.fresh("srsctl.pss_is_css", 0);
      if (op == Op::Rdpgpr) {
        set(rd(), z3::ite(same, R(rt()), s_.fresh("shadow.gpr" + std::to_string(rt()), w_)));
      } else {
        // A write to another shadow register set: never harmless (kind Other).
        s_.effects.push_back(SideEffect{text(), pc_, R(rt()), EffectKind::Other});
        set(rd(), z3::ite(same, R(rt()), R(rd())));
      }
      break;
    }
    case Op::Sigrie:
      fault(FaultKind::ReservedInstruction, c_.bool_val(true), "signals a Reserved Instruction exception");
      break;
    case Op::Rdhwr: hardwareRegister(); break;

    // --- bit fields, byte order, counting
    case Op::Ext: case Op::Ins: case Op::Dext: case Op::Dextm: case Op::Dextu: case Op::Dins:
    case Op::Dinsm: case Op::Dinsu:
      bitField(op);
      break;
    case Op::Wsbh: case Op::Dsbh: case Op::Dshd: case Op::Seb: case Op::Seh: case Op::Bitswap:
    case Op::Dbitswap: case Op::Align: case Op::Dalign:
      byteOrder(op);
      break;
    case Op::Lsa:  // R6: sign_extend((rs << sa) + rt) on the low words
      alu32(z3::shl(low32(R(rs())), bv(((f_.bits >> 6) & 3) + 1, 32)) + low32(R(rt())));
      break;
    case Op::Dlsa: set(rd(), z3::shl(R(rs()), bv(((f_.bits >> 6) & 3) + 1, 64)) + R(rt())); break;
    case Op::Clz: case Op::Clo: case Op::Dclz: case Op::Dclo: countLeading(op); break;
    case Op::Madd: case Op::Maddu: case Op::Msub: case Op::Msubu: multiplyAccumulate(op); break;

    // --- R6 PC-relative
    case Op::Addiupc: case Op::Auipc: case Op::Aluipc: case Op::Lwpc: case Op::Lwupc: case Op::Ldpc:
      pcRelative(op);
      break;
  }
  return effect_;
}

}  // namespace

StepEffect execute(MachineState& state, const Fetched& f, const z3::expr& pc) {
  return Execution(state, f, pc).run();
}

}  // namespace patchcheck::mips
