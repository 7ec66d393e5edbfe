#include "model/TermPrinter.h"

#include "encoder/Hex.h"

namespace patchcheck {
namespace {

// A bit-vector numeral as hex; wider than 64 bits falls back to Z3's text.
std::string numeral(const z3::expr& e) {
  uint64_t v = 0;
  if (e.is_numeral_u64(v)) return hex(v);
  return e.to_string();
}

// The value of a numeral read as a negative number, if it is one whose
// magnitude fits in 32 bits (printed as "- 0x8" inside sums).
bool smallNegative(const z3::expr& e, uint64_t& magnitude) {
  uint64_t v = 0;
  if (!e.is_numeral() || !e.is_numeral_u64(v)) return false;
  unsigned w = e.get_sort().bv_size();
  if (w < 2 || w > 64) return false;
  uint64_t sign = uint64_t(1) << (w - 1);
  if (!(v & sign)) return false;
  uint64_t mask = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
  magnitude = (~v + 1) & mask;
  return magnitude <= 0xffffffffull;
}

bool isMinusOne(const z3::expr& e) {
  if (!e.is_numeral() || !e.is_bv()) return false;
  unsigned w = e.get_sort().bv_size();
  uint64_t v = 0;
  return w <= 64 && e.is_numeral_u64(v) && v == (w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1);
}

// Is `bit` the top bit of `value` (value[w-1:w-1], or x[k:k] for value = x[k:0])?
bool isSignBitOf(const z3::expr& bit, const z3::expr& value) {
  if (!bit.is_app() || bit.decl().decl_kind() != Z3_OP_EXTRACT || bit.get_sort().bv_size() != 1) return false;
  unsigned k = unsigned(Z3_get_decl_int_parameter(bit.ctx(), bit.decl(), 0));
  z3::expr of = bit.arg(0);
  unsigned w = value.get_sort().bv_size();
  if (k == w - 1 && z3::eq(of, value)) return true;
  if (value.is_app() && value.decl().decl_kind() == Z3_OP_EXTRACT &&
      Z3_get_decl_int_parameter(value.ctx(), value.decl(), 1) == 0 &&
      unsigned(Z3_get_decl_int_parameter(value.ctx(), value.decl(), 0)) == k && z3::eq(value.arg(0), of))
    return true;
  return false;
}

class Printer {
 public:
  std::string print(const z3::expr& e, bool nested) {
    if (e.is_numeral()) return e.is_bv() ? numeral(e) : e.to_string();
    if (e.is_true()) return "true";
    if (e.is_false()) return "false";
    if (!e.is_app()) return e.to_string();
    unsigned n = e.num_args();
    if (n == 0) return e.decl().name().str();
    Z3_decl_kind k = e.decl().decl_kind();
    auto arg = [&](unsigned i) { return print(e.arg(i), true); };
    auto infix = [&](const char* op) {
      std::string s = arg(0);
      for (unsigned i = 1; i < n; ++i) s += std::string(" ") + op + " " + arg(i);
      return nested ? "(" + s + ")" : s;
    };
    auto call = [&](const std::string& f) {
      std::string s = f + "(";
      for (unsigned i = 0; i < n; ++i) s += (i ? ", " : "") + print(e.arg(i), false);
      return s + ")";
    };
    switch (k) {
      case Z3_OP_BADD: {
        std::string s;
        for (unsigned i = 0; i < n; ++i) {
          uint64_t m = 0;
          z3::expr a = e.arg(i);
          bool negated = a.is_app() && a.decl().decl_kind() == Z3_OP_BMUL && a.num_args() == 2 &&
                         isMinusOne(a.arg(0));
          if (i > 0 && smallNegative(a, m)) s += " - " + hex(m);
          else if (i > 0 && negated) s += " - " + print(a.arg(1), true);
          else s += (i ? " + " : "") + arg(i);
        }
        // Z3 puts constants first: show "x - 0x8" rather than "0x...f8 + x".
        if (n == 2 && e.arg(0).is_numeral()) {
          uint64_t m = 0;
          std::string x = arg(1);
          s = smallNegative(e.arg(0), m) ? x + " - " + hex(m) : x + " + " + arg(0);
        }
        return nested ? "(" + s + ")" : s;
      }
      case Z3_OP_BSUB: return infix("-");
      case Z3_OP_BMUL:
        if (n == 2 && isMinusOne(e.arg(0))) return "-" + arg(1);
        return infix("*");
      case Z3_OP_BAND: return infix("&");
      case Z3_OP_BOR: return infix("|");
      case Z3_OP_BXOR: return infix("^");
      case Z3_OP_BNOT: return "~" + arg(0);
      case Z3_OP_BNEG: return "-" + arg(0);
      case Z3_OP_BSHL: return infix("<<");
      case Z3_OP_BLSHR: return infix(">>u");
      case Z3_OP_BASHR: return infix(">>s");
      case Z3_OP_EQ: return infix("==");
      case Z3_OP_DISTINCT: return infix("!=");
      case Z3_OP_AND: return infix("&&");
      case Z3_OP_OR: return infix("||");
      case Z3_OP_NOT:
        if (e.arg(0).is_app() && e.arg(0).decl().decl_kind() == Z3_OP_EQ && e.arg(0).num_args() == 2) {
          std::string s = print(e.arg(0).arg(0), true) + " != " + print(e.arg(0).arg(1), true);
          return nested ? "(" + s + ")" : s;
        }
        return "!" + arg(0);
      case Z3_OP_IMPLIES: return infix("=>");
      case Z3_OP_SLT: return infix("<s");
      case Z3_OP_SLEQ: return infix("<=s");
      case Z3_OP_SGT: return infix(">s");
      case Z3_OP_SGEQ: return infix(">=s");
      case Z3_OP_ULT: return infix("<u");
      case Z3_OP_ULEQ: return infix("<=u");
      case Z3_OP_UGT: return infix(">u");
      case Z3_OP_UGEQ: return infix(">=u");
      case Z3_OP_ITE: {
        std::string s = arg(0) + " ? " + arg(1) + " : " + arg(2);
        return nested ? "(" + s + ")" : s;
      }
      case Z3_OP_EXTRACT: {
        unsigned hi = unsigned(Z3_get_decl_int_parameter(e.ctx(), e.decl(), 0));
        unsigned lo = unsigned(Z3_get_decl_int_parameter(e.ctx(), e.decl(), 1));
        return arg(0) + "[" + std::to_string(hi) + ":" + std::to_string(lo) + "]";
      }
      case Z3_OP_SIGN_EXT:
        return "sext" + std::to_string(e.get_sort().bv_size()) + "(" + print(e.arg(0), false) + ")";
      case Z3_OP_ZERO_EXT:
        return "zext" + std::to_string(e.get_sort().bv_size()) + "(" + print(e.arg(0), false) + ")";
      case Z3_OP_CONCAT: {
        // Z3 spells sign extension as copies of the sign bit: fold it back.
        z3::expr last = e.arg(n - 1);
        if (n >= 2 && isSignBitOf(e.arg(0), last)) {
          bool allSame = true;
          for (unsigned i = 1; i + 1 < n; ++i) allSame = allSame && z3::eq(e.arg(i), e.arg(0));
          if (allSame)
            return "sext" + std::to_string(e.get_sort().bv_size()) + "(" + print(last, false) + ")";
        }
        return call("concat");
      }
      case Z3_OP_SELECT: return arg(0) + "[" + print(e.arg(1), false) + "]";
      case Z3_OP_BUDIV: case Z3_OP_BUDIV_I: return call("udiv");
      case Z3_OP_BSDIV: case Z3_OP_BSDIV_I: return call("sdiv");
      case Z3_OP_BUREM: case Z3_OP_BUREM_I: return call("urem");
      case Z3_OP_BSREM: case Z3_OP_BSREM_I: return call("srem");
      default: return call(e.decl().name().str());
    }
  }
};

}  // namespace

std::string printTerm(const z3::expr& e) { return Printer().print(e, false); }

}  // namespace patchcheck
