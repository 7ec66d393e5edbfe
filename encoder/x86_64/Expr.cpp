#include "encoder/x86_64/Expr.h"

#include <algorithm>
#include <cctype>

namespace patchcheck::x86_64 {
namespace {

using Kind = Expr::Kind;

struct Failure {
  ExprError error;
};

bool isNameStart(char c) { return std::isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$'; }
bool isNameChar(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$'; }

Expr absolute(int64_t v) { return {Value::constant(v), Kind::Absolute}; }

class Parser {
 public:
  Parser(std::string_view s, const NameResolver& r) : s_(s), names_(r) {}

  Expr whole() {
    Expr v = additive();
    skipSpace();
    if (pos_ != s_.size()) fail("unexpected '" + std::string(1, s_[pos_]) + "' in expression");
    return v;
  }

 private:
  std::string_view s_;
  const NameResolver& names_;
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
  int64_t constant(const Expr& e, size_t at, std::string_view op) {
    if (e.relocatable()) fail("operator '" + std::string(op) + "' needs numbers, not an address", at);
    return e.value.addend;
  }

  Expr additive() {
    Expr acc = bitwise();
    while (peek() == '+' || peek() == '-') {
      char op = s_[pos_++];
      size_t at = pos_;
      Expr rhs = bitwise();
      if (op == '+') {
        if (acc.relocatable() && rhs.relocatable()) fail("cannot add two addresses", at);
        Kind k = acc.relocatable() ? acc.kind : rhs.kind;
        acc = {acc.relocatable() ? acc.value.plus(rhs.value.addend) : rhs.value.plus(acc.value.addend), k};
      } else if (!rhs.relocatable()) {
        acc.value = acc.value.plus(-rhs.value.addend);
      } else if (acc.kind == Kind::Label && rhs.kind == Kind::Label) {
        // Two addresses in the program: their distance is a number.
        acc = absolute(int64_t(uint64_t(acc.value.addend) - uint64_t(rhs.value.addend)));
      } else {
        fail("cannot subtract an address outside the program", at);
      }
    }
    return acc;
  }

  Expr bitwise() {
    size_t at = pos_;
    Expr first = multiplicative();
    char c = peek();
    if (c != '|' && c != '&' && c != '^') return first;
    int64_t acc = constant(first, at, std::string(1, c));
    while ((c = peek()) == '|' || c == '&' || c == '^') {
      ++pos_;
      size_t rat = pos_;
      int64_t rhs = constant(multiplicative(), rat, std::string(1, c));
      acc = c == '|' ? (acc | rhs) : c == '&' ? (acc & rhs) : (acc ^ rhs);
    }
    return absolute(acc);
  }

  std::string_view mulOp() {
    skipSpace();
    std::string_view rest = s_.substr(pos_);
    if (rest.starts_with("<<") || rest.starts_with(">>")) return rest.substr(0, 2);
    if (!rest.empty() && (rest[0] == '*' || rest[0] == '/')) return rest.substr(0, 1);
    return {};
  }

  Expr multiplicative() {
    size_t at = pos_;
    Expr first = unary();
    if (mulOp().empty()) return first;
    uint64_t acc = uint64_t(constant(first, at, mulOp()));
    for (std::string_view op = mulOp(); !op.empty(); op = mulOp()) {
      pos_ += op.size();
      size_t rat = pos_;
      uint64_t rhs = uint64_t(constant(unary(), rat, op));
      if (op == "/" && rhs == 0) fail("division by zero", rat);
      if (op == "*")
        acc *= rhs;
      else if (op == "/")
        acc = int64_t(rhs) == -1 ? 0 - acc : uint64_t(int64_t(acc) / int64_t(rhs));  // INT64_MIN / -1 traps
      else if (op == "<<")
        acc = rhs >= 64 ? 0 : acc << rhs;
      else
        acc = rhs >= 64 ? 0 : uint64_t(int64_t(acc) >> rhs);  // GNU: arithmetic
    }
    return absolute(int64_t(acc));
  }

  Expr unary() {
    char c = peek();
    size_t at = pos_;
    if (c == '-' || c == '~' || c == '+') {
      ++pos_;
      Expr v = unary();
      if (c == '+') return v;
      int64_t k = constant(v, at, std::string(1, c));
      return absolute(c == '-' ? int64_t(0 - uint64_t(k)) : ~k);
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

  Expr number() {
    size_t at = pos_, end = pos_;
    while (end < s_.size() && std::isalnum((unsigned char)s_[end])) ++end;
    std::string_view tok = s_.substr(pos_, end - pos_);
    pos_ = end;
    // Numeric local label references: 1f, 1b (but 0b101 is binary).
    if (tok.size() >= 2 && (tok.back() == 'f' || tok.back() == 'b') &&
        tok.find_first_not_of("0123456789") == tok.size() - 1) {
      uint64_t label = 0;
      for (char d : tok.substr(0, tok.size() - 1))
        label = std::min<uint64_t>(label * 10 + unsigned(d - '0'), uint64_t(1) << 32);
      if (label >> 32) fail("local label number is too large", at);
      auto v = names_.local(unsigned(label), tok.back() == 'f');
      if (!v) fail("no local label " + std::to_string(label) + (tok.back() == 'f' ? " ahead" : " behind"), at);
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
    return absolute(int64_t(v));
  }
};

}  // namespace

std::variant<Expr, ExprError> parseExpr(std::string_view text, const NameResolver& r) {
  try {
    return Parser(text, r).whole();
  } catch (const Failure& f) {
    return f.error;
  }
}

}  // namespace patchcheck::x86_64
