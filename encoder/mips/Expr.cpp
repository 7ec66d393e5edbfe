#include "encoder/mips/Expr.h"

#include <algorithm>
#include <cctype>

#include "encoder/Hex.h"

namespace patchcheck::mips {

uint64_t applyReloc(Reloc r, uint64_t x) {
  switch (r) {
    case Reloc::None: return x;
    case Reloc::Hi: return ((x + 0x8000) >> 16) & 0xffff;
    case Reloc::Lo: return x & 0xffff;
    case Reloc::Higher: return ((x + 0x80008000ull) >> 32) & 0xffff;
    case Reloc::Highest: return ((x + 0x800080008000ull) >> 48) & 0xffff;
  }
  return x;
}

std::string_view relocName(Reloc r) {
  switch (r) {
    case Reloc::None: return "";
    case Reloc::Hi: return "%hi";
    case Reloc::Lo: return "%lo";
    case Reloc::Higher: return "%higher";
    case Reloc::Highest: return "%highest";
  }
  return "";
}

namespace {

struct Failure {
  ExprError error;
};

class Parser {
 public:
  Parser(std::string_view s, const NameResolver& r) : s_(s), names_(r) {}

  Expr parseTop() {
    Expr e = additive();
    skipSpace();
    if (pos_ != s_.size()) fail("unexpected '" + std::string(1, s_[pos_]) + "' in expression");
    return e;
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
  bool eat(std::string_view tok) {
    skipSpace();
    if (s_.substr(pos_, tok.size()) == tok) {
      pos_ += tok.size();
      return true;
    }
    return false;
  }

  // A relocated value takes part in arithmetic only once folded to a number.
  Value plain(const Expr& e, size_t at) {
    if (e.reloc == Reloc::None) return e.value;
    if (!e.value.isConstant())
      fail(std::string(relocName(e.reloc)) + " of symbolic '" + e.value.symbol +
               "' must be a whole operand", at);
    return Value::constant(int64_t(applyReloc(e.reloc, uint64_t(e.value.addend))));
  }
  int64_t constant(const Value& v, size_t at, const char* op) {
    if (!v.isConstant())
      fail(std::string("operator '") + op + "' needs constants, but '" + v.symbol +
               "' has no concrete address", at);
    return v.addend;
  }

  Expr additive() {
    size_t at = pos_;
    Expr first = bitwise();
    if (!peekAny("+-")) return first;
    Value acc = plain(first, at);
    while (true) {
      skipSpace();
      if (pos_ >= s_.size() || (s_[pos_] != '+' && s_[pos_] != '-')) break;
      char op = s_[pos_++];
      size_t rat = pos_;
      Value rhs = plain(bitwise(), rat);
      if (op == '+') {
        if (!acc.isConstant() && !rhs.isConstant())
          fail("cannot add two symbolic addresses", rat);
        acc = acc.isConstant() ? Value{rhs.symbol, int64_t(uint64_t(acc.addend) + uint64_t(rhs.addend))}
                               : acc.plus(rhs.addend);
      } else {
        if (!rhs.isConstant()) {
          if (rhs.symbol != acc.symbol)
            fail("cannot subtract symbolic '" + rhs.symbol + "'", rat);
          acc = Value::constant(int64_t(uint64_t(acc.addend) - uint64_t(rhs.addend)));
        } else {
          acc = acc.plus(-rhs.addend);
        }
      }
    }
    return Expr{Reloc::None, acc};
  }

  bool peekAny(const char* ops) {
    skipSpace();
    if (pos_ >= s_.size()) return false;
    for (const char* p = ops; *p; ++p)
      if (s_[pos_] == *p) return true;
    return false;
  }

  Expr bitwise() {
    size_t at = pos_;
    Expr first = multiplicative();
    skipSpace();
    if (!peekAny("|&^")) return first;
    int64_t acc = constant(plain(first, at), at, "|");
    while (peekAny("|&^")) {
      char op = s_[pos_++];
      size_t rat = pos_;
      int64_t rhs = constant(plain(multiplicative(), rat), rat, op == '|' ? "|" : op == '&' ? "&" : "^");
      acc = op == '|' ? (acc | rhs) : op == '&' ? (acc & rhs) : (acc ^ rhs);
    }
    return Expr{Reloc::None, Value::constant(acc)};
  }

  Expr multiplicative() {
    size_t at = pos_;
    Expr first = unary();
    auto peekMul = [&] {
      skipSpace();
      if (pos_ >= s_.size()) return false;
      char c = s_[pos_];
      return c == '*' || c == '/' || c == '%' || s_.substr(pos_, 2) == "<<" || s_.substr(pos_, 2) == ">>";
    };
    if (!peekMul()) return first;
    uint64_t acc = uint64_t(constant(plain(first, at), at, "*"));
    while (peekMul()) {
      std::string op(1, s_[pos_]);
      if (op == "<" || op == ">") op += s_[pos_ + 1];
      pos_ += op.size();
      size_t rat = pos_;
      uint64_t rhs = uint64_t(constant(plain(unary(), rat), rat, op.c_str()));
      if ((op == "/" || op == "%") && rhs == 0) fail("division by zero", rat);
      if (op == "*") acc *= rhs;
      else if (op == "/") acc = uint64_t(int64_t(acc) / int64_t(rhs));
      else if (op == "%") acc = uint64_t(int64_t(acc) % int64_t(rhs));
      else if (op == "<<") acc = rhs >= 64 ? 0 : acc << rhs;
      else acc = rhs >= 64 ? 0 : uint64_t(int64_t(acc) >> rhs);  // GNU: arithmetic
    }
    return Expr{Reloc::None, Value::constant(int64_t(acc))};
  }

  Expr unary() {
    skipSpace();
    size_t at = pos_;
    if (eat("-")) {
      Value v = plain(unary(), at);
      return Expr{Reloc::None, Value::constant(-constant(v, at, "-"))};
    }
    if (eat("~")) {
      Value v = plain(unary(), at);
      return Expr{Reloc::None, Value::constant(~constant(v, at, "~"))};
    }
    if (eat("+")) return unary();
    return primary();
  }

  Expr primary() {
    skipSpace();
    size_t at = pos_;
    if (pos_ >= s_.size()) fail("missing operand");
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      Expr e = additive();
      if (!eat(")")) fail("missing ')'");
      return e;
    }
    if (c == '%') {
      static constexpr std::pair<std::string_view, Reloc> ops[] = {
          {"%highest", Reloc::Highest}, {"%higher", Reloc::Higher},
          {"%hi", Reloc::Hi}, {"%lo", Reloc::Lo}};
      for (auto [name, r] : ops) {
        if (s_.substr(pos_, name.size()) == name) {
          pos_ += name.size();
          if (!eat("(")) fail("expected '(' after " + std::string(name));
          size_t inner = pos_;
          Expr e = additive();
          if (!eat(")")) fail("missing ')' after " + std::string(name) + "(...");
          return Expr{r, plain(e, inner)};
        }
      }
      fail("unknown relocation operator");
    }
    if (std::isdigit((unsigned char)c)) return Expr{Reloc::None, number()};
    if (std::isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$') {
      size_t end = pos_ + 1;
      while (end < s_.size() && (std::isalnum((unsigned char)s_[end]) || s_[end] == '_' ||
                                 s_[end] == '.' || s_[end] == '$'))
        ++end;
      std::string_view name = s_.substr(pos_, end - pos_);
      pos_ = end;
      if (name == ".") return Expr{Reloc::None, names_.dot()};
      auto v = names_.symbol(name);
      if (!v) fail("undefined symbol '" + std::string(name) + "'", at);
      return Expr{Reloc::None, *v};
    }
    fail("unexpected '" + std::string(1, c) + "' in expression");
  }

  Value number() {
    size_t at = pos_;
    size_t end = pos_;
    while (end < s_.size() && std::isalnum((unsigned char)s_[end])) ++end;
    std::string_view tok = s_.substr(pos_, end - pos_);
    pos_ = end;
    // Numeric local label references: 1f, 1b (but 0b101 is binary).
    if (tok.size() >= 2 && (tok.back() == 'f' || tok.back() == 'b') &&
        tok.find_first_not_of("0123456789") == tok.size() - 1) {
      uint64_t label = 0;
      for (char d : tok.substr(0, tok.size() - 1)) label = std::min<uint64_t>(label * 10 + unsigned(d - '0'), uint64_t(1) << 32);
      if (label >> 32) fail("local label number '" + std::string(tok.substr(0, tok.size() - 1)) + "' is too large", at);
      auto v = names_.local(unsigned(label), tok.back() == 'f');
      if (!v) fail("no local label " + std::to_string(label) +
                       (tok.back() == 'f' ? " ahead" : " behind"), at);
      return *v;
    }
    int base = 10;
    std::string_view digits = tok;
    if (tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) base = 16, digits = tok.substr(2);
    else if (tok.size() > 2 && tok[0] == '0' && (tok[1] == 'b' || tok[1] == 'B')) base = 2, digits = tok.substr(2);
    else if (tok.size() > 1 && tok[0] == '0') base = 8, digits = tok.substr(1);
    uint64_t v = 0;
    for (char d : digits) {
      int x = std::isdigit((unsigned char)d) ? d - '0'
              : std::isalpha((unsigned char)d) ? std::tolower(d) - 'a' + 10 : 99;
      if (x >= base) fail("bad number '" + std::string(tok) + "'", at);
      uint64_t next = v * uint64_t(base) + uint64_t(x);
      if ((next - uint64_t(x)) / uint64_t(base) != v)
        fail("number '" + std::string(tok) + "' does not fit 64 bits", at);
      v = next;
    }
    return Value::constant(int64_t(v));
  }
};

}  // namespace

std::variant<Expr, ExprError> parseExpr(std::string_view text, const NameResolver& r) {
  try {
    return Parser(text, r).parseTop();
  } catch (const Failure& f) {
    return f.error;
  }
}

}  // namespace patchcheck::mips
