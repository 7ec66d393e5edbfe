// F and D with sstatus.FS on (FloatSemantics.h), after the Unprivileged
// ISA's chapters "F" and "D" (20240411): NaN boxing ("NaN Boxing of
// Narrower Values"), fclass's bits, the quiet and signaling compares,
// fmin/fmax as IEEE 754-2019 minimumNumber/maximumNumber (-0 below +0,
// a NaN operand ignored, the canonical NaN when both are NaNs).
#include "model/riscv/FloatSemantics.h"

#include "model/riscv/RegisterFile.h"

namespace patchcheck::riscv {
namespace {

constexpr uint64_t kCanonicalNanS = 0x7fc00000, kCanonicalNanD = 0x7ff8000000000000ull;
// fflags (F, "Floating-Point Control and Status Register"): NV DZ OF UF NX.
constexpr unsigned kNV = 16;

struct Format {
  unsigned bits, ebits, sbits;
};
constexpr Format kS{32, 8, 24}, kD{64, 11, 53};

bool isDouble(Op op) { return op >= Op::FmaddD; }

class FloatExecution {
 public:
  FloatExecution(MachineState& s, const Fetched& f, const Operands& o, const std::string& text)
      : s_(s), c_(s.ctx), f_(f), o_(o), text_(text), w_(s.width()) {}

  std::vector<Fault> run();

 private:
  MachineState& s_;
  z3::context& c_;
  const Fetched& f_;
  const Operands& o_;
  const std::string& text_;
  unsigned w_;
  std::vector<Fault> faults_;

  z3::expr bv(uint64_t v, unsigned n) const { return c_.bv_val(v, n); }
  z3::expr X(unsigned r) const { return r == 0 ? bv(0, w_) : s_.reg(r); }
  void setX(unsigned r, const z3::expr& v) {
    if (r != 0) s_.setReg(r, v.simplify());
  }
  z3::expr F(unsigned r) const { return s_.reg(regfile::f(r)); }
  void setF(unsigned r, const z3::expr& v64) { s_.regs[regfile::f(r)] = v64.simplify(); }
  // A single written to an f register: upper 32 bits all ones; read from
  // one that is not so boxed: the canonical NaN.
  z3::expr box(const z3::expr& v32) const { return z3::concat(bv(0xffffffff, 32), v32); }
  z3::expr operand(unsigned r, const Format& fm) const {
    if (fm.bits == 64) return F(r);
    z3::expr v = F(r);
    return z3::ite(v.extract(63, 32) == bv(0xffffffff, 32), v.extract(31, 0), bv(kCanonicalNanS, 32));
  }
  void setResult(unsigned r, const z3::expr& v, const Format& fm) { setF(r, fm.bits == 32 ? box(v) : v); }
  z3::expr canonicalNan(const Format& fm) const { return bv(fm.bits == 32 ? kCanonicalNanS : kCanonicalNanD, fm.bits); }
  void raiseIf(const z3::expr& when, unsigned flag) {
    z3::expr old = s_.reg(regfile::fflags);
    s_.regs[regfile::fflags] = z3::ite(when, old | bv(flag, 5), old).simplify();
  }
  void fault(FaultKind k, const z3::expr& when, const std::string& detail) {
    z3::expr w = when.simplify();
    if (!w.is_false()) faults_.push_back(Fault{k, w, text_ + ": " + detail});
  }

  // The fields of an IEEE value's bits.
  z3::expr expOf(const z3::expr& v, const Format& fm) const { return v.extract(fm.bits - 2, fm.sbits - 1); }
  z3::expr mantOf(const z3::expr& v, const Format& fm) const { return v.extract(fm.sbits - 2, 0); }
  z3::expr signOf(const z3::expr& v, const Format& fm) const { return v.extract(fm.bits - 1, fm.bits - 1) == bv(1, 1); }
  z3::expr expOnes(const z3::expr& v, const Format& fm) const {
    return expOf(v, fm) == bv((uint64_t(1) << fm.ebits) - 1, fm.ebits);
  }
  z3::expr expZero(const z3::expr& v, const Format& fm) const { return expOf(v, fm) == bv(0, fm.ebits); }
  z3::expr mantZero(const z3::expr& v, const Format& fm) const { return mantOf(v, fm) == bv(0, fm.sbits - 1); }
  z3::expr isNan(const z3::expr& v, const Format& fm) const { return expOnes(v, fm) && !mantZero(v, fm); }
  z3::expr isSignaling(const z3::expr& v, const Format& fm) const {
    return isNan(v, fm) && v.extract(fm.sbits - 2, fm.sbits - 2) == bv(0, 1);
  }
  z3::expr isZero(const z3::expr& v, const Format& fm) const { return expZero(v, fm) && mantZero(v, fm); }
  // The bits as a Z3 floating-point term (only for values that are not NaNs).
  z3::expr real(const z3::expr& v, const Format& fm) const {
    Z3_ast a = Z3_mk_fpa_to_fp_bv(c_, v, c_.fpa_sort(fm.ebits, fm.sbits));
    return z3::expr(c_, a);
  }
  z3::expr less(const z3::expr& a, const z3::expr& b, const Format& fm) const {
    return z3::expr(c_, Z3_mk_fpa_lt(c_, real(a, fm), real(b, fm)));
  }
  z3::expr lessEqual(const z3::expr& a, const z3::expr& b, const Format& fm) const {
    return z3::expr(c_, Z3_mk_fpa_leq(c_, real(a, fm), real(b, fm)));
  }
  z3::expr equal(const z3::expr& a, const z3::expr& b, const Format& fm) const {
    return z3::expr(c_, Z3_mk_fpa_eq(c_, real(a, fm), real(b, fm)));
  }
  z3::expr xBool(const z3::expr& b) const { return z3::ite(b, bv(1, w_), bv(0, w_)); }

  z3::expr address() const { return s_.normalize(s_.address(X(o_.rs1)) + o_.imm).simplify(); }
  void requireAligned(const z3::expr& addr, unsigned n, const char* what) {
    fault(FaultKind::AddressError, (addr & bv(n - 1, 64)) != bv(0, 64), what);
  }

  void loadStore(Op op);
  void signInjection(Op op, const Format& fm);
  void compare(Op op, const Format& fm);
  void minMax(Op op, const Format& fm);
  void classify(const Format& fm);
  void requireValidRoundingMode();

  // Z3's floating-point theory (z3::fpa): terms, the rounding mode, flags.
  z3::expr wrap(Z3_ast a) const { return z3::expr(c_, a); }
  z3::sort sortOf(const Format& fm) const { return c_.fpa_sort(fm.ebits, fm.sbits); }
  // The same precision with an exponent range no exact value here leaves
  // (products and quotients of doubles, a double narrowed to a single):
  // rounding to it is rounding "with an unbounded exponent".
  z3::sort wideSortOf(const Format& fm) const { return c_.fpa_sort(15, fm.sbits); }
  z3::expr roundingMode() const;
  z3::expr fpIsNan(const z3::expr& x) const { return wrap(Z3_mk_fpa_is_nan(c_, x)); }
  z3::expr fpIsInf(const z3::expr& x) const { return wrap(Z3_mk_fpa_is_infinite(c_, x)); }
  z3::expr fpIsZero(const z3::expr& x) const { return wrap(Z3_mk_fpa_is_zero(c_, x)); }
  z3::expr toReal(const z3::expr& x) const { return wrap(Z3_mk_fpa_to_real(c_, x)); }
  // The bits of a result: the canonical NaN for every NaN.
  z3::expr bitsOf(const z3::expr& x, const Format& fm) const {
    return z3::ite(fpIsNan(x), canonicalNan(fm), wrap(Z3_mk_fpa_to_ieee_bv(c_, x)));
  }
  // NX, OF and UF of `result` (rounded with `rm`) against the exact real
  // value it rounds, valid when `exactKnown` (finite operands, a finite
  // exact value): OF when the exact value rounded with an unbounded
  // exponent exceeds the largest finite number, UF when it is tiny after
  // rounding (below the smallest normal, not zero) and inexact.
  void roundingFlags(const z3::expr& exactKnown, const z3::expr& exact, const z3::expr& result, const Format& fm,
                     const z3::expr& rm);
  void arithmetic(Op op, const Format& fm);
  void toInteger(Op op, const Format& fm);
  void fromInteger(Op op, const Format& fm);
  void convertFormat(Op op);
};

z3::expr FloatExecution::roundingMode() const {
  // rne rtz rdn rup rmm (F, "Rounding mode encoding"); dyn reads frm (5-7 fault).
  auto mode = [&](unsigned m) {
    switch (m) {
      case 1: return wrap(Z3_mk_fpa_rtz(c_));
      case 2: return wrap(Z3_mk_fpa_rtn(c_));
      case 3: return wrap(Z3_mk_fpa_rtp(c_));
      case 4: return wrap(Z3_mk_fpa_rna(c_));
      default: return wrap(Z3_mk_fpa_rne(c_));
    }
  };
  if (f_.d.rm != 7) return mode(f_.d.rm);
  z3::expr frm = s_.reg(regfile::frm);
  z3::expr r = mode(0);
  for (unsigned m = 4; m >= 1; --m) r = z3::ite(frm == bv(m, 3), mode(m), r);
  return r;
}

void FloatExecution::roundingFlags(const z3::expr& exactKnown, const z3::expr& exact, const z3::expr& result,
                                   const Format& fm, const z3::expr& rm) {
  z3::expr inexact = exactKnown && (fpIsInf(result) || toReal(result) != exact);
  z3::expr wide = wrap(Z3_mk_fpa_to_fp_real(c_, rm, exact, wideSortOf(fm)));
  z3::expr absWide = wrap(Z3_mk_fpa_abs(c_, wide));
  auto widened = [&](uint64_t bitsValue) {
    z3::expr narrow = real(bv(bitsValue, fm.bits), fm);
    return wrap(Z3_mk_fpa_to_fp_float(c_, wrap(Z3_mk_fpa_rne(c_)), narrow, wideSortOf(fm)));
  };
  uint64_t maxFinite = fm.bits == 32 ? 0x7f7fffffull : 0x7fefffffffffffffull;
  uint64_t minNormal = fm.bits == 32 ? 0x00800000ull : 0x0010000000000000ull;
  z3::expr overflow = exactKnown && wrap(Z3_mk_fpa_gt(c_, absWide, widened(maxFinite)));
  z3::expr tiny = exactKnown && !fpIsZero(wide) && wrap(Z3_mk_fpa_lt(c_, absWide, widened(minNormal)));
  raiseIf(overflow, 4);
  raiseIf(tiny && inexact, 2);
  raiseIf(inexact, 1);
}

void FloatExecution::loadStore(Op op) {
  unsigned n = op == Op::Flw || op == Op::Fsw ? 4 : 8;
  z3::expr addr = address();
  bool load = op == Op::Flw || op == Op::Fld;
  requireAligned(addr, n, load ? "misaligned load (address-misaligned exception or trap emulation)"
                               : "misaligned store (address-misaligned exception or trap emulation)");
  if (load) {
    z3::expr v = s_.load(addr, n);
    setF(o_.rd, n == 4 ? box(v) : v);
  } else {
    // fsw stores the low 32 bits whatever the upper ones are (F, "Single-
    // Precision Load and Store Instructions": the bits are not modified).
    s_.store(addr, (n == 4 ? F(o_.rs2).extract(31, 0) : F(o_.rs2)).simplify(), n);
  }
}

void FloatExecution::signInjection(Op op, const Format& fm) {
  z3::expr a = operand(o_.rs1, fm), b = operand(o_.rs2, fm);
  z3::expr sa = a.extract(fm.bits - 1, fm.bits - 1), sb = b.extract(fm.bits - 1, fm.bits - 1);
  z3::expr sign = op == Op::FsgnjS || op == Op::FsgnjD ? sb : op == Op::FsgnjnS || op == Op::FsgnjnD ? ~sb : sa ^ sb;
  setResult(o_.rd, z3::concat(sign, a.extract(fm.bits - 2, 0)), fm);
}

// feq is a quiet compare (NV only for a signaling NaN); flt and fle are
// signaling (NV for any NaN). A NaN operand makes every one false.
void FloatExecution::compare(Op op, const Format& fm) {
  z3::expr a = operand(o_.rs1, fm), b = operand(o_.rs2, fm);
  z3::expr nan = isNan(a, fm) || isNan(b, fm);
  bool eq = op == Op::FeqS || op == Op::FeqD, lt = op == Op::FltS || op == Op::FltD;
  z3::expr holds = eq ? equal(a, b, fm) : lt ? less(a, b, fm) : lessEqual(a, b, fm);
  raiseIf(eq ? isSignaling(a, fm) || isSignaling(b, fm) : nan, kNV);
  setX(o_.rd, xBool(!nan && holds));
}

void FloatExecution::minMax(Op op, const Format& fm) {
  z3::expr a = operand(o_.rs1, fm), b = operand(o_.rs2, fm);
  bool min = op == Op::FminS || op == Op::FminD;
  z3::expr na = isNan(a, fm), nb = isNan(b, fm);
  z3::expr bothZero = isZero(a, fm) && isZero(b, fm);
  z3::expr pick = min ? z3::ite(bothZero, z3::ite(signOf(a, fm), a, b), z3::ite(less(a, b, fm), a, b))
                      : z3::ite(bothZero, z3::ite(signOf(a, fm), b, a), z3::ite(less(a, b, fm), b, a));
  z3::expr r = z3::ite(na && nb, canonicalNan(fm), z3::ite(na, b, z3::ite(nb, a, pick)));
  raiseIf(isSignaling(a, fm) || isSignaling(b, fm), kNV);
  setResult(o_.rd, r, fm);
}

// fclass (F, Table "Format of result of FCLASS instruction"): one bit of
// ten, -inf (0) ... +inf (7), signaling NaN (8), quiet NaN (9).
void FloatExecution::classify(const Format& fm) {
  z3::expr v = operand(o_.rs1, fm);
  z3::expr neg = signOf(v, fm), inf = expOnes(v, fm) && mantZero(v, fm);
  z3::expr sub = expZero(v, fm) && !mantZero(v, fm), nan = isNan(v, fm);
  z3::expr normal = !expZero(v, fm) && !expOnes(v, fm);
  auto bit = [&](unsigned k) { return bv(uint64_t(1) << k, w_); };
  z3::expr r = z3::ite(nan, z3::ite(isSignaling(v, fm), bit(8), bit(9)),
                       z3::ite(inf, z3::ite(neg, bit(0), bit(7)),
                               z3::ite(normal, z3::ite(neg, bit(1), bit(6)),
                                       z3::ite(sub, z3::ite(neg, bit(2), bit(5)), z3::ite(neg, bit(3), bit(4))))));
  setX(o_.rd, r);
}

// fadd ... fsqrt and the fused multiply-adds: IEEE 754 operations in the
// rounding mode (Z3's floating-point theory), a NaN result the canonical
// NaN. NV: a signaling NaN operand, or a NaN from operands that are not
// NaNs (inf - inf, 0 * inf, 0 / 0, inf / inf, sqrt of a negative), or
// 0 * inf in a fused multiply-add even with a quiet NaN addend (F, "Single-
// Precision Fused Multiply-Add"). DZ: a finite non-zero number divided by
// zero. NX, OF, UF against the exact value (roundingFlags).
void FloatExecution::arithmetic(Op op, const Format& fm) {
  requireValidRoundingMode();
  z3::expr rm = roundingMode();
  z3::expr a = operand(o_.rs1, fm), b = operand(o_.rs2, fm), c = operand(f_.d.rs3, fm);
  z3::expr fa = real(a, fm), fb = real(b, fm), fc = real(c, fm);
  auto neg = [&](const z3::expr& x) { return wrap(Z3_mk_fpa_neg(c_, x)); };
  auto finite = [&](const z3::expr& x) { return !fpIsNan(x) && !fpIsInf(x); };
  bool fused = (op >= Op::FmaddS && op <= Op::FnmaddS) || (op >= Op::FmaddD && op <= Op::FnmaddD);
  bool sqrt = op == Op::FsqrtS || op == Op::FsqrtD, div = op == Op::FdivS || op == Op::FdivD;
  z3::expr r = fa, exact = toReal(fa), known = finite(fa), anySignaling = isSignaling(a, fm), anyNan = isNan(a, fm);
  if (!sqrt) known = known && finite(fb), anySignaling = anySignaling || isSignaling(b, fm), anyNan = anyNan || isNan(b, fm);
  if (fused) known = known && finite(fc), anySignaling = anySignaling || isSignaling(c, fm), anyNan = anyNan || isNan(c, fm);
  switch (op) {
    case Op::FaddS: case Op::FaddD: r = wrap(Z3_mk_fpa_add(c_, rm, fa, fb)), exact = toReal(fa) + toReal(fb); break;
    case Op::FsubS: case Op::FsubD: r = wrap(Z3_mk_fpa_sub(c_, rm, fa, fb)), exact = toReal(fa) - toReal(fb); break;
    case Op::FmulS: case Op::FmulD: r = wrap(Z3_mk_fpa_mul(c_, rm, fa, fb)), exact = toReal(fa) * toReal(fb); break;
    case Op::FdivS: case Op::FdivD:
      r = wrap(Z3_mk_fpa_div(c_, rm, fa, fb));
      known = known && !fpIsZero(fb);
      exact = z3::ite(fpIsZero(fb), c_.real_val(0), toReal(fa) / toReal(fb));
      break;
    case Op::FsqrtS: case Op::FsqrtD: r = wrap(Z3_mk_fpa_sqrt(c_, rm, fa)); break;
    default: {
      // fmadd a*b+c, fmsub a*b-c, fnmsub -(a*b)+c, fnmadd -(a*b)-c: the
      // negations are exact, so rounding the negated terms' sum is the
      // instruction's single rounding.
      bool negProduct = op == Op::FnmsubS || op == Op::FnmsubD || op == Op::FnmaddS || op == Op::FnmaddD;
      bool negAddend = op == Op::FmsubS || op == Op::FmsubD || op == Op::FnmaddS || op == Op::FnmaddD;
      z3::expr x = negProduct ? neg(fa) : fa, z = negAddend ? neg(fc) : fc;
      r = wrap(Z3_mk_fpa_fma(c_, rm, x, fb, z));
      exact = toReal(x) * toReal(fb) + toReal(z);
      break;
    }
  }
  z3::expr invalid = anySignaling || (fpIsNan(r) && !anyNan);
  if (fused) invalid = invalid || (fpIsZero(fa) && fpIsInf(fb)) || (fpIsInf(fa) && fpIsZero(fb));
  raiseIf(invalid, kNV);
  if (div) raiseIf(finite(fa) && !fpIsZero(fa) && fpIsZero(fb), 8);
  if (sqrt) {
    // Never overflows or underflows; inexact when the root squared is not the operand.
    z3::expr root = toReal(r);
    raiseIf(known && !fpIsNan(r) && root * root != toReal(fa), 1);
  } else {
    roundingFlags(known && !invalid, exact, r, fm, rm);
  }
  setResult(o_.rd, bitsOf(r, fm), fm);
}

// fcvt to an integer (F, Table "Domains of float-to-integer conversions"):
// rounded in the rounding mode; NaN and values above the range give the
// largest integer, values below it the smallest (0 unsigned), with NV;
// NX when the rounding changed an in-range value. A 32-bit result is
// sign-extended on RV64, the unsigned one too.
void FloatExecution::toInteger(Op op, const Format& fm) {
  requireValidRoundingMode();
  z3::expr rm = roundingMode();
  z3::expr a = operand(o_.rs1, fm), fa = real(a, fm);
  bool isSigned = op == Op::FcvtWS || op == Op::FcvtLS || op == Op::FcvtWD || op == Op::FcvtLD;
  bool word = op == Op::FcvtWS || op == Op::FcvtWuS || op == Op::FcvtWD || op == Op::FcvtWuD;
  unsigned n = word ? 32 : 64;
  z3::expr rounded = wrap(Z3_mk_fpa_round_to_integral(c_, rm, fa));
  z3::expr rr = toReal(rounded);
  auto realOf = [&](int64_t v, bool negative) {
    // 2^63 and 2^64 - 1 do not fit int64: build them from smaller parts.
    if (n == 64 && !isSigned && !negative) return c_.real_val("18446744073709551615");
    if (n == 64 && isSigned && negative) return c_.real_val("-9223372036854775808");
    return c_.real_val(std::to_string(v).c_str());
  };
  z3::expr maxReal = isSigned ? (n == 32 ? realOf(0x7fffffff, false) : c_.real_val("9223372036854775807"))
                              : (n == 32 ? realOf(0xffffffffll, false) : realOf(0, false));
  z3::expr minReal = isSigned ? (n == 32 ? realOf(-0x80000000ll, true) : realOf(0, true)) : c_.real_val(0);
  uint64_t maxBits = isSigned ? (n == 32 ? 0x7fffffffull : 0x7fffffffffffffffull) : (n == 32 ? 0xffffffffull : ~0ull);
  uint64_t minBits = isSigned ? (n == 32 ? 0x80000000ull : 0x8000000000000000ull) : 0;
  z3::expr nan = fpIsNan(fa), inf = fpIsInf(fa);
  z3::expr negative = wrap(Z3_mk_fpa_is_negative(c_, fa));
  z3::expr above = nan || (inf && !negative) || (!inf && !nan && rr > maxReal);
  z3::expr below = (inf && negative) || (!inf && !nan && rr < minReal);
  z3::expr inRange = !above && !below;
  z3::expr value = wrap(isSigned ? Z3_mk_fpa_to_sbv(c_, wrap(Z3_mk_fpa_rtz(c_)), rounded, n)
                                 : Z3_mk_fpa_to_ubv(c_, wrap(Z3_mk_fpa_rtz(c_)), rounded, n));
  z3::expr r = z3::ite(above, bv(maxBits, n), z3::ite(below, bv(minBits, n), value));
  raiseIf(!inRange, kNV);
  raiseIf(inRange && !wrap(Z3_mk_fpa_eq(c_, rounded, fa)), 1);
  setX(o_.rd, n == 32 && w_ == 64 ? z3::sext(r, 32) : n > w_ ? r.extract(w_ - 1, 0) : r);
}

// fcvt from an integer: rounded in the rounding mode (never a NaN, never
// an overflow from 64 bits to single); NX when inexact, judged against the
// exact conversion to a format that holds every 64-bit integer.
void FloatExecution::fromInteger(Op op, const Format& fm) {
  requireValidRoundingMode();
  z3::expr rm = roundingMode();
  bool isSigned = op == Op::FcvtSW || op == Op::FcvtSL || op == Op::FcvtDW || op == Op::FcvtDL;
  bool word = op == Op::FcvtSW || op == Op::FcvtSWu || op == Op::FcvtDW || op == Op::FcvtDWu;
  z3::expr src = word ? X(o_.rs1).extract(31, 0) : X(o_.rs1);
  auto convert = [&](const z3::expr& mode, const z3::sort& s) {
    return wrap(isSigned ? Z3_mk_fpa_to_fp_signed(c_, mode, src, s) : Z3_mk_fpa_to_fp_unsigned(c_, mode, src, s));
  };
  z3::expr rne = wrap(Z3_mk_fpa_rne(c_));
  z3::expr r = convert(rm, sortOf(fm));
  z3::expr exact = convert(rne, c_.fpa_sort(15, 113));
  z3::expr back = wrap(Z3_mk_fpa_to_fp_float(c_, rne, r, c_.fpa_sort(15, 113)));
  raiseIf(!wrap(Z3_mk_fpa_eq(c_, back, exact)), 1);
  setResult(o_.rd, bitsOf(r, fm), fm);
}

// fcvt.s.d rounds (NV for a signaling NaN, NX/OF/UF as arithmetic);
// fcvt.d.s is exact (NV for a signaling NaN). NaN results are canonical.
void FloatExecution::convertFormat(Op op) {
  requireValidRoundingMode();
  z3::expr rm = roundingMode();
  const Format& from = op == Op::FcvtSD ? kD : kS;
  const Format& to = op == Op::FcvtSD ? kS : kD;
  z3::expr a = operand(o_.rs1, from), fa = real(a, from);
  z3::expr r = wrap(Z3_mk_fpa_to_fp_float(c_, rm, fa, sortOf(to)));
  raiseIf(isSignaling(a, from), kNV);
  if (op == Op::FcvtSD) roundingFlags(!fpIsNan(fa) && !fpIsInf(fa), toReal(fa), r, to, rm);
  setResult(o_.rd, bitsOf(r, to), to);
}

// A dynamic rounding mode takes frm; frm 5, 6 or 7 there is an illegal
// instruction (F, "Floating-Point Control and Status Register").
void FloatExecution::requireValidRoundingMode() {
  if (f_.d.rm != 7) return;
  fault(FaultKind::ReservedInstruction, z3::uge(s_.reg(regfile::frm), bv(5, 3)),
        "dynamic rounding mode with frm invalid (illegal instruction)");
}

std::vector<Fault> FloatExecution::run() {
  const Op op = f_.row()->op;
  const Format& fm = isDouble(op) ? kD : kS;
  switch (op) {
    case Op::Flw: case Op::Fsw: case Op::Fld: case Op::Fsd: loadStore(op); break;
    case Op::FmvXW: {
      z3::expr v = F(o_.rs1).extract(31, 0);
      setX(o_.rd, w_ == 64 ? z3::sext(v, 32) : v);
      break;
    }
    case Op::FmvWX: setF(o_.rd, box(X(o_.rs1).extract(31, 0))); break;
    case Op::FmvXD: setX(o_.rd, F(o_.rs1)); break;
    case Op::FmvDX: setF(o_.rd, X(o_.rs1)); break;
    case Op::FsgnjS: case Op::FsgnjnS: case Op::FsgnjxS: case Op::FsgnjD: case Op::FsgnjnD: case Op::FsgnjxD:
      signInjection(op, fm);
      break;
    case Op::FeqS: case Op::FltS: case Op::FleS: case Op::FeqD: case Op::FltD: case Op::FleD: compare(op, fm); break;
    case Op::FminS: case Op::FmaxS: case Op::FminD: case Op::FmaxD: minMax(op, fm); break;
    case Op::FclassS: case Op::FclassD: classify(fm); break;
    case Op::FaddS: case Op::FsubS: case Op::FmulS: case Op::FdivS: case Op::FsqrtS: case Op::FmaddS:
    case Op::FmsubS: case Op::FnmsubS: case Op::FnmaddS: case Op::FaddD: case Op::FsubD: case Op::FmulD:
    case Op::FdivD: case Op::FsqrtD: case Op::FmaddD: case Op::FmsubD: case Op::FnmsubD: case Op::FnmaddD:
      arithmetic(op, fm);
      break;
    case Op::FcvtWS: case Op::FcvtWuS: case Op::FcvtLS: case Op::FcvtLuS: case Op::FcvtWD: case Op::FcvtWuD:
    case Op::FcvtLD: case Op::FcvtLuD:
      toInteger(op, fm);
      break;
    case Op::FcvtSW: case Op::FcvtSWu: case Op::FcvtSL: case Op::FcvtSLu: case Op::FcvtDW: case Op::FcvtDWu:
    case Op::FcvtDL: case Op::FcvtDLu:
      fromInteger(op, fm);
      break;
    case Op::FcvtSD: case Op::FcvtDS: convertFormat(op); break;
    default: break;  // every F/D op is a case above
  }
  return faults_;
}

}  // namespace

std::vector<Fault> executeFloat(MachineState& s, const Fetched& f, const Operands& o, const std::string& text) {
  return FloatExecution(s, f, o, text).run();
}

z3::expr readFloatCsr(const MachineState& s, unsigned csr, unsigned bits) {
  z3::expr flags = s.reg(regfile::fflags), rm = s.reg(regfile::frm);
  z3::expr v = csr == 1 ? flags : csr == 2 ? rm : z3::concat(rm, flags);
  return z3::zext(v, bits - v.get_sort().bv_size()).simplify();
}

void writeFloatCsr(MachineState& s, unsigned csr, const z3::expr& value) {
  if (csr == 1 || csr == 3) s.regs[regfile::fflags] = value.extract(4, 0).simplify();
  if (csr == 2) s.regs[regfile::frm] = value.extract(2, 0).simplify();
  if (csr == 3) s.regs[regfile::frm] = value.extract(7, 5).simplify();
}

}  // namespace patchcheck::riscv
