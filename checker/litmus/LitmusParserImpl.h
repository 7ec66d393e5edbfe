#pragma once
// What the files of the litmus parser share (LitmusParser.cpp and the
// LitmusParse*.cpp files, one a part of the file each): the Reader, its
// tokens and the small character tests. Internal to checker/litmus/; the
// public face is LitmusParser.h.
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "checker/litmus/LitmusTest.h"
#include "encoder/Diagnostic.h"

namespace patchcheck::litmus::parser {

// Thread numbers beyond this are refused: they are typos, and the bound
// keeps the numbers far from overflow.
constexpr unsigned kMaxThread = 9999;

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool isIdentStart(char c) { return isLetter(c) || c == '_'; }
inline bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }
// Words of the tokenizer: identifiers, numbers, labels with dots ("B.EQ").
inline bool isWordChar(char c) { return isIdentChar(c) || c == '.' || c == '$'; }

inline bool isIdentifier(std::string_view s) {
  return !s.empty() && isIdentStart(s[0]) && std::all_of(s.begin(), s.end(), isWordChar);
}

// Text quoted for a message: cut short, bytes that are not printable as \xNN.
inline std::string quoted(std::string_view s) {
  constexpr size_t kMax = 40;
  std::string out = "'";
  for (size_t i = 0; i < s.size() && i < kMax; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (s.size() > kMax) out += "...";
  return out + "'";
}

// "3" -> 3, up to kMaxThread; anything else nothing.
inline std::optional<unsigned> threadDigits(std::string_view w) {
  if (w.empty() || w.size() > 4 || !std::all_of(w.begin(), w.end(), isDigit)) return std::nullopt;
  unsigned n = 0;
  for (char c : w) n = n * 10 + unsigned(c - '0');
  if (n > kMaxThread) return std::nullopt;
  return n;
}

// "P3" -> 3; anything else nothing.
inline std::optional<unsigned> threadOfName(std::string_view w) {
  if (w.size() < 2 || w[0] != 'P') return std::nullopt;
  return threadDigits(w.substr(1));
}

struct Token {
  enum class Kind { Word, String, Punct, End };
  Kind kind = Kind::End;
  std::string_view text;  // a word, a string's contents, the punctuation
  size_t offset = 0;      // first byte (a string's opening quote)
  size_t end = 0;         // one past the last byte

  bool isName() const { return kind == Kind::Word && isIdentifier(text); }
  bool isPunct(std::string_view p) const { return kind == Kind::Punct && text == p; }
};

// Walks a token list that ends with an End token.
class Cursor {
 public:
  explicit Cursor(const std::vector<Token>& tokens) : tokens_(tokens) {}
  const Token& peek(size_t ahead = 0) const { return tokens_[std::min(at_ + ahead, tokens_.size() - 1)]; }
  const Token& next() {
    const Token& t = peek();
    if (at_ + 1 < tokens_.size()) ++at_;
    return t;
  }
  bool is(std::string_view punct, size_t ahead = 0) const { return peek(ahead).isPunct(punct); }
  bool isWord(size_t ahead = 0) const { return peek(ahead).kind == Token::Kind::Word; }
  bool atEnd() const { return peek().kind == Token::Kind::End; }

 private:
  const std::vector<Token>& tokens_;
  size_t at_ = 0;
};

// A name the table must hold, checked once the table is read.
struct LabelUse {
  unsigned thread = 0;
  std::string label;
  size_t offset = 0;
};
struct ThreadUse {
  unsigned thread = 0;
  std::string what;  // "1:X9", for the message
  size_t offset = 0;
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : text_(text) {
    test_.file = file;
    lines_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n') lines_.push_back(i + 1);
  }

  std::variant<Test, Diagnostics> run();

 private:
  static constexpr size_t npos = std::string::npos;

  std::string text_;          // the file, comments blanked to spaces
  std::vector<size_t> lines_;  // offset of each line's first byte
  Test test_;
  Diagnostics errors_;
  std::string endName_;  // what the End token stands for in messages
  std::vector<LabelUse> labelUses_;
  std::vector<ThreadUse> threadUses_;
  std::vector<InitEntry> declarations_;  // entries without '='
  // Lookups kept beside the test so no input makes the parser quadratic.
  std::map<std::pair<std::optional<unsigned>, std::string>, size_t> initIndex_;  // (thread, name) -> test_.init
  std::vector<std::map<std::string, unsigned>> labelLines_;  // per column: label -> its line

  // ---- positions, errors, comments and tokens (LitmusParser.cpp)
  Position pos(size_t offset) const;
  void error(size_t offset, std::string message);
  std::string where(size_t offset) const;
  size_t stringEnd(size_t i) const;
  size_t lineEnd(size_t i) const;
  void trim(size_t& a, size_t& b) const;
  std::string_view slice(size_t a, size_t b) const { return std::string_view(text_).substr(a, b - a); }
  bool blankComments();
  bool tokenize(size_t a, size_t b, std::vector<Token>& out);
  std::string describe(const Token& t) const;
  void checkNames();

  // ---- the header, meta lines and the init block (LitmusParseInit.cpp)
  size_t header();
  size_t meta(size_t i);
  std::optional<unsigned> threadNumber(const Token& t);
  std::optional<std::string> registerName(const Token& t);
  bool registerAt(Cursor& c, std::optional<unsigned>& thread, std::string& name);
  std::optional<uint64_t> number(const Token& t);
  std::optional<InitValue> labelValue(std::string_view thread, std::string_view label, size_t offset);
  std::optional<InitValue> value(Cursor& c);
  size_t init(size_t open);
  void entry(size_t a, size_t b);

  // ---- the thread table (LitmusParseThreads.cpp)
  bool startsTail(size_t i) const;
  size_t table(size_t i);
  bool columns(size_t a, size_t b);
  void cells(size_t a, size_t b);

  // ---- `locations` and the final condition (LitmusParseCondition.cpp)
  using PropPtr = std::shared_ptr<Prop>;
  void tail(size_t i);
  PropPtr node(Prop::Kind kind, std::vector<PropPtr> args, Position at);
  PropPtr implication(Cursor& c, unsigned depth);
  PropPtr chain(Cursor& c, unsigned depth, std::string_view op, Prop::Kind kind);
  PropPtr tooDeep(Cursor& c);
  PropPtr unary(Cursor& c, unsigned depth);
  PropPtr fault(Cursor& c);
  PropPtr atom(Cursor& c);
};

}  // namespace patchcheck::litmus::parser
