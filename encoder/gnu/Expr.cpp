#include "encoder/gnu/Expr.h"

#include <algorithm>
#include <cctype>

namespace patchcheck::gnu {
namespace {

struct Failure {
  ExprError error;
};

bool isNameStart(char c) { return std::isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$'; }
bool isNameChar(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$'; }

// An operand that depends on an address: no operator but + and - takes it.
bool isAddress(const Expr& e) { return e.relocatable() || !e.isConstant(); }

class Parser {
 public:
  Parser(std::string_view s, const NameResolver& r, const Dialect& d) : s_(s), names_(r), dialect_(d) {}

  Expr whole() {
    const RelocationSyntax* rs = dialect_.relocations;
    std::optional<uint8_t> prefix;
    if (rs && rs->form() == RelocationSyntax::Form::Prefix && !s_.empty() && s_[0] == rs->lead()) {
      auto m = rs->match(s_);
      if (!m) fail("unknown relocation operator in '" + std::string(s_) + "'");
      prefix = m->id;
      pos_ = m->length;
    }
    Expr e = additive();
    skipSpace();
    if (pos_ != s_.size()) fail("unexpected '" + std::string(1, s_[pos_]) + "' in expression");
    if (prefix) e.reloc = *prefix;
    return e;
  }

 private:
  std::string_view s_;
  const NameResolver& names_;
  const Dialect& dialect_;
  size_t pos_ = 0;

  [[noreturn]] void fail(std::string msg, std::optional<size_t> at = {}) {
    throw Failure{{at.value_or(pos_), std::move(msg)}};
  }
  void skipSpace() {
    while (pos_ < s_.size() && std::isspace((unsigned char)s_[pos_])) ++pos_;
  }
  char peek() {
    skipSpace();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }

  // A relocated value takes part in arithmetic only once folded to a number.
  Expr plain(Expr e, size_t at) {
    if (e.reloc == 0) return e;
    std::string_view name = dialect_.relocations->name(e.reloc);
    if (!e.isConstant())
      fail(std::string(name) + " of symbolic '" + e.value.symbol + "' must be a whole operand", at);
    return Expr::number(int64_t(dialect_.relocations->apply(e.reloc, uint64_t(e.value.addend))));
  }
  int64_t constant(const Expr& e, size_t at, std::string_view op) {
    if (e.relocatable()) fail("operator '" + std::string(op) + "' needs numbers, not an address", at);
    if (!e.isConstant())
      fail("operator '" + std::string(op) + "' needs constants, but '" + e.value.symbol +
               "' has no concrete address", at);
    return e.value.addend;
  }

  Expr additive() {
    size_t at = pos_;
    Expr acc = bitwise();
    if (peek() != '+' && peek() != '-') return acc;
    acc = plain(std::move(acc), at);
    while (peek() == '+' || peek() == '-') {
      char op = s_[pos_++];
      size_t rat = pos_;
      Expr rhs = plain(bitwise(), rat);
      if (op == '+') {
        if (isAddress(acc) && isAddress(rhs))
          fail(acc.relocatable() || rhs.relocatable() ? "cannot add two addresses" : "cannot add two symbolic addresses",
               rat);
        acc = isAddress(acc) ? Expr{acc.value.plus(rhs.value.addend), acc.origin, 0}
                             : Expr{rhs.value.plus(acc.value.addend), rhs.origin, 0};
      } else if (!isAddress(rhs)) {
        acc.value = acc.value.plus(int64_t(0 - uint64_t(rhs.value.addend)));
      } else if ((acc.origin == Origin::Label && rhs.origin == Origin::Label) ||
                 (acc.origin == Origin::Number && rhs.origin == Origin::Number && acc.value.symbol == rhs.value.symbol)) {
        // Two addresses in the program, or linear in one symbol: their
        // distance is a number.
        acc = Expr::number(int64_t(uint64_t(acc.value.addend) - uint64_t(rhs.value.addend)));
      } else if (acc.relocatable() || rhs.relocatable()) {
        fail("cannot subtract an address outside the program", rat);
      } else {
        fail("cannot subtract symbolic '" + rhs.value.symbol + "'", rat);
      }
    }
    return acc;
  }

  static bool isBitwise(char c) { return c == '|' || c == '&' || c == '^' || c == '!'; }

  Expr bitwise() {
    size_t at = pos_;
    Expr first = multiplicative();
    char c = peek();
    if (!isBitwise(c)) return first;
    int64_t acc = constant(plain(std::move(first), at), at, std::string_view(&c, 1));
    while (isBitwise(c = peek())) {
      ++pos_;
      size_t rat = pos_;
      int64_t rhs = constant(plain(multiplicative(), rat), rat, std::string_view(&c, 1));
      acc = c == '|' ? (acc | rhs) : c == '&' ? (acc & rhs) : c == '^' ? (acc ^ rhs) : (acc | ~rhs);  // !: or-not
    }
    return Expr::number(acc);
  }

  std::string_view mulOp() {
    skipSpace();
    std::string_view rest = s_.substr(pos_);
    if (rest.starts_with("<<") || rest.starts_with(">>")) return rest.substr(0, 2);
    if (!rest.empty() && (rest[0] == '*' || rest[0] == '/' || (rest[0] == '%' && dialect_.remainder)))
      return rest.substr(0, 1);
    return {};
  }

  Expr multiplicative() {
    size_t at = pos_;
    Expr first = unary();
    if (mulOp().empty()) return first;
    uint64_t acc = uint64_t(constant(plain(std::move(first), at), at, mulOp()));
    for (std::string_view op = mulOp(); !op.empty(); op = mulOp()) {
      pos_ += op.size();
      size_t rat = pos_;
      uint64_t rhs = uint64_t(constant(plain(unary(), rat), rat, op));
      if ((op == "/" || op == "%") && rhs == 0) fail("division by zero", rat);
      // x / -1 and x % -1 apart: INT64_MIN / -1 traps on the host.
      if (op == "*")
        acc *= rhs;
      else if (op == "/")
        acc = int64_t(rhs) == -1 ? 0 - acc : uint64_t(int64_t(acc) / int64_t(rhs));
      else if (op == "%")
        acc = int64_t(rhs) == -1 ? 0 : uint64_t(int64_t(acc) % int64_t(rhs));
      else if (op == "<<")
        acc = rhs >= 64 ? 0 : acc << rhs;
      else
        acc = rhs >= 64 ? 0 : uint64_t(int64_t(acc) >> rhs);  // GNU: arithmetic
    }
    return Expr::number(int64_t(acc));
  }

  Expr unary() {
    char c = peek();
    size_t at = pos_;
    if (c == '-' || c == '~' || c == '+') {
      ++pos_;
      Expr v = unary();
      if (c == '+') return v;
      int64_t k = constant(plain(std::move(v), at), at, std::string_view(&c, 1));
      return Expr::number(c == '-' ? int64_t(0 - uint64_t(k)) : ~k);
    }
    return primary();
  }

  Expr primary() {
    char c = peek();
    size_t at = pos_;
    if (c == '\0') fail("missing operand");
    if (c == '(') {
      ++pos_;
      Expr v = additive();
      if (peek() != ')') fail("missing ')'");
      ++pos_;
      return v;
    }
    const RelocationSyntax* rs = dialect_.relocations;
    if (rs && rs->form() == RelocationSyntax::Form::Call && c == rs->lead()) return call(*rs);
    if (std::isdigit((unsigned char)c)) return number();
    if (isNameStart(c)) {
      size_t end = pos_ + 1;
      while (end < s_.size() && isNameChar(s_[end])) ++end;
      std::string_view name = s_.substr(pos_, end - pos_);
      pos_ = end;
      if (name == ".") return names_.dot();
      auto v = names_.symbol(name);
      if (!v) fail("undefined symbol '" + std::string(name) + "'", at);
      return *v;
    }
    fail("unexpected '" + std::string(1, c) + "' in expression");
  }

  // %op(expr)
  Expr call(const RelocationSyntax& rs) {
    auto m = rs.match(s_.substr(pos_));
    if (!m) fail("unknown relocation operator in '" + std::string(s_) + "'");
    std::string name(rs.name(m->id));
    pos_ += m->length;
    if (peek() != '(') fail("expected '(' after " + name);
    ++pos_;
    size_t inner = pos_;
    Expr e = additive();
    if (peek() != ')') fail("missing ')' after " + name + "(...");
    ++pos_;
    e = plain(std::move(e), inner);
    e.reloc = m->id;
    return e;
  }

  Expr number() {
    size_t at = pos_, end = pos_;
    while (end < s_.size() && std::isalnum((unsigned char)s_[end])) ++end;
    std::string_view tok = s_.substr(pos_, end - pos_);
    pos_ = end;
    // Numeric local label references: 1f, 1b (but 0b101 is binary).
    if (tok.size() >= 2 && (tok.back() == 'f' || tok.back() == 'b') &&
        tok.find_first_not_of("0123456789") == tok.size() - 1) {
      std::string_view digits = tok.substr(0, tok.size() - 1);
      auto label = localLabelNumber(digits);
      if (!label) fail("local label number '" + std::string(digits) + "' is too large", at);
      auto v = names_.local(*label, tok.back() == 'f');
      if (!v) fail("no local label " + std::to_string(*label) + (tok.back() == 'f' ? " ahead" : " behind"), at);
      return *v;
    }
    int base = 10;
    std::string_view digits = tok;
    if (tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'))
      base = 16, digits = tok.substr(2);
    else if (tok.size() > 2 && tok[0] == '0' && (tok[1] == 'b' || tok[1] == 'B'))
      base = 2, digits = tok.substr(2);
    else if (tok.size() > 1 && tok[0] == '0')
      base = 8, digits = tok.substr(1);
    uint64_t v = 0;
    for (char d : digits) {
      int x = std::isdigit((unsigned char)d)   ? d - '0'
              : std::isalpha((unsigned char)d) ? std::tolower(d) - 'a' + 10
                                               : 99;
      if (x >= base) fail("bad number '" + std::string(tok) + "'", at);
      uint64_t next = v * uint64_t(base) + uint64_t(x);
      if ((next - uint64_t(x)) / uint64_t(base) != v)
        fail("number '" + std::string(tok) + "' does not fit 64 bits", at);
      v = next;
    }
    return Expr::number(int64_t(v));
  }
};

}  // namespace

std::variant<Expr, ExprError> parseExpr(std::string_view text, const NameResolver& r, const Dialect& d) {
  try {
    return Parser(text, r, d).whole();
  } catch (const Failure& f) {
    return f.error;
  }
}

std::optional<unsigned> localLabelNumber(std::string_view digits) {
  uint64_t n = 0;
  for (char d : digits) n = std::min<uint64_t>(n * 10 + unsigned(d - '0'), uint64_t(1) << 32);
  if (n >> 32) return std::nullopt;
  return unsigned(n);
}

}  // namespace patchcheck::gnu
