#include "model/TermPrinter.h"

#include <cinttypes>
#include <cstdio>

namespace patchcheck::mips {
namespace {

std::string hex(uint64_t v) {
  char b[24];
  snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

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
          if (i > 0 && smallNegative(e.arg(i), m)) s += " - " + hex(m);
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
      case Z3_OP_BMUL: return infix("*");
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
      case Z3_OP_NOT: return "!" + arg(0);
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
      case Z3_OP_CONCAT: return call("concat");
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

}  // namespace patchcheck::mips
