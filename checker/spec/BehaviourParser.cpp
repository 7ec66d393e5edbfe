// The behaviour language of a spec ([behaviour] values and `allow`):
//   behaviour := alt ('|' alt)*
//   alt       := 'untraced' | 'call' SYM ['+' INT] ['with' cond ('&&' cond)*] | 'enter' SYM
//   cond      := REG '==' INT          INT: decimal or 0x hex
// Register names are checked per ABI later (they depend on the target).
#include <cctype>
#include <optional>

#include "checker/spec/Spec.h"
#include "encoder/Hex.h"

namespace patchcheck {
namespace {

bool isWordStart(char c) { return std::isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$'; }
bool isWordChar(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$'; }

struct Token {
  enum class Kind { Word, Number, Bar, And, Equals, Other, End };
  Kind kind;
  std::string_view text;
  size_t offset;
};

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  while (true) {
    while (i < s.size() && std::isspace((unsigned char)s[i])) ++i;
    if (i == s.size()) break;
    size_t start = i;
    Token::Kind k = Token::Kind::Other;
    if (isWordStart(s[i])) {
      while (i < s.size() && isWordChar(s[i])) ++i;
      k = Token::Kind::Word;
    } else if (std::isdigit((unsigned char)s[i])) {
      while (i < s.size() && std::isalnum((unsigned char)s[i])) ++i;
      k = Token::Kind::Number;
    } else if (s.substr(i, 2) == "&&") {
      i += 2, k = Token::Kind::And;
    } else if (s.substr(i, 2) == "==") {
      i += 2, k = Token::Kind::Equals;
    } else if (s[i] == '|') {
      i += 1, k = Token::Kind::Bar;
    } else {
      i += 1;
    }
    out.push_back({k, s.substr(start, i - start), start});
  }
  out.push_back({Token::Kind::End, {}, s.size()});
  return out;
}

std::optional<uint64_t> parseInt(std::string_view t) {
  bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  if (hex) t.remove_prefix(2);
  if (t.empty()) return std::nullopt;
  uint64_t v = 0, base = hex ? 16 : 10;
  for (char c : t) {
    unsigned d;
    if (std::isdigit((unsigned char)c)) d = unsigned(c - '0');
    else if (hex && std::isxdigit((unsigned char)c)) d = unsigned(std::tolower((unsigned char)c) - 'a' + 10);
    else return std::nullopt;
    if (v > (~0ull - d) / base) return std::nullopt;
    v = v * base + d;
  }
  return v;
}

std::string quoted(const Token& t) {
  return t.kind == Token::Kind::End ? "the end" : "'" + std::string(t.text) + "'";
}

class Parser {
 public:
  Parser(std::string_view text, const std::function<SourceLocation(size_t)>& locate)
      : text_(text), tokens_(tokenize(text)), locate_(locate) {}

  std::variant<BehaviourSpec, Diagnostic> run() {
    BehaviourSpec b;
    b.text = std::string(text_);
    b.where = locate_(0);
    if (peek().kind == Token::Kind::End)
      return fail(peek(), "empty behaviour: expected untraced, call SYM or enter SYM");
    while (true) {
      auto alt = alternative();
      if (!alt) return *error_;
      b.alternatives.push_back(std::move(*alt));
      if (peek().kind == Token::Kind::End) return b;
      if (peek().kind != Token::Kind::Bar)
        return fail(peek(), "expected '|' or the end of the behaviour, got " + quoted(peek()));
      next();
    }
  }

 private:
  std::string_view text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  const std::function<SourceLocation(size_t)>& locate_;
  std::optional<Diagnostic> error_;

  const Token& peek() const { return tokens_[pos_]; }
  const Token& next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }

  Diagnostic fail(const Token& t, std::string message) {
    error_ = Diagnostic{locate_(t.offset), std::move(message)};
    return *error_;
  }

  std::optional<OutcomeSpec> alternative() {
    const Token& head = next();
    OutcomeSpec o;
    if (head.kind == Token::Kind::Word && head.text == "untraced") {
      o.kind = OutcomeSpec::Kind::Untraced;
      return o;
    }
    if (head.kind != Token::Kind::Word || (head.text != "call" && head.text != "enter")) {
      fail(head, "expected untraced, call SYM or enter SYM, got " + quoted(head));
      return std::nullopt;
    }
    o.kind = head.text == "call" ? OutcomeSpec::Kind::Call : OutcomeSpec::Kind::Enter;
    const Token& sym = next();
    if (sym.kind != Token::Kind::Word || sym.text == "with") {
      fail(sym, "'" + std::string(head.text) + "' needs a symbol name, got " + quoted(sym));
      return std::nullopt;
    }
    o.target = std::string(sym.text);
    o.where = locate_(sym.offset);
    if (peek().kind == Token::Kind::Other && peek().text == "+") {
      const Token& plus = next();
      if (o.kind != OutcomeSpec::Kind::Call) {
        fail(plus, "'enter' takes the symbol itself (only 'call' names an entry at an offset)");
        return std::nullopt;
      }
      const Token& num = next();
      auto v = num.kind == Token::Kind::Number ? parseInt(num.text) : std::nullopt;
      if (!v || *v % 4 || *v >= 0x10000) {
        fail(num, "expected a word-aligned entry offset below 0x10000 after '+', got " + quoted(num));
        return std::nullopt;
      }
      o.offset = *v;
    }
    if (peek().kind != Token::Kind::Word || peek().text != "with") return o;
    if (o.kind == OutcomeSpec::Kind::Enter) {
      fail(peek(), "'enter' takes no 'with' condition (only 'call' does)");
      return std::nullopt;
    }
    next();
    while (true) {
      auto c = condition();
      if (!c) return std::nullopt;
      o.with.push_back(std::move(*c));
      if (peek().kind != Token::Kind::And) return o;
      next();
    }
  }

  std::optional<ConditionSpec> condition() {
    const Token& reg = next();
    if (reg.kind != Token::Kind::Word) {
      fail(reg, "expected a condition REG == VALUE, got " + quoted(reg));
      return std::nullopt;
    }
    const Token& eq = next();
    if (eq.kind != Token::Kind::Equals) {
      fail(eq, "expected '==' after '" + std::string(reg.text) + "', got " + quoted(eq));
      return std::nullopt;
    }
    const Token& num = next();
    auto v = num.kind == Token::Kind::Number ? parseInt(num.text) : std::nullopt;
    if (!v) {
      fail(num, "expected a 64-bit decimal or 0x hex value after '==', got " + quoted(num));
      return std::nullopt;
    }
    return ConditionSpec{std::string(reg.text), *v, locate_(reg.offset)};
  }
};

// Canonical numbers: small ones in decimal, the rest (addresses, masks) in hex.
std::string number(uint64_t v) { return v < 0x10000 ? std::to_string(v) : hex(v); }

}  // namespace

std::string OutcomeSpec::str() const {
  switch (kind) {
    case Kind::Untraced: return "untraced";
    case Kind::Enter: return "enter " + target;
    case Kind::Call: break;
  }
  std::string s = "call " + target + (offset ? " + " + std::to_string(offset) : "");
  for (size_t i = 0; i < with.size(); ++i)
    s += (i ? " && " : " with ") + with[i].reg + " == " + number(with[i].value);
  return s;
}

std::string BehaviourSpec::str() const {
  std::string s;
  for (const OutcomeSpec& o : alternatives) s += (s.empty() ? "" : " | ") + o.str();
  return s;
}

std::variant<BehaviourSpec, Diagnostic> parseBehaviour(
    std::string_view text, const std::function<SourceLocation(size_t)>& locate) {
  return Parser(text, locate).run();
}

std::variant<BehaviourSpec, std::string> parseBehaviour(std::string_view text) {
  // Without a file, a position is the 1-based column within the text.
  std::function<SourceLocation(size_t)> column = [](size_t offset) {
    return SourceLocation{"<behaviour>", 1, unsigned(offset + 1)};
  };
  auto r = parseBehaviour(text, column);
  if (auto* d = std::get_if<Diagnostic>(&r))
    return "column " + std::to_string(d->where.column) + ": " + d->message;
  return std::get<BehaviourSpec>(std::move(r));
}

}  // namespace patchcheck
