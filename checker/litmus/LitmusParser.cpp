// Reads herd7's litmus format in passes over one copy of the text.
// Comments are blanked first, keeping every offset, so a position found
// later is where the byte lies in the file. The header, meta lines and the
// thread table are line-shaped and read by lines; the init entries, the
// `locations` list and the condition go through a small tokenizer.
#include "checker/litmus/LitmusParser.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>
#include <sstream>

#include "encoder/IsaRegistry.h"

namespace patchcheck::litmus {
namespace {

// Nesting of '(' and '~' in a condition beyond this is refused rather than
// followed, so no file can exhaust the stack.
constexpr unsigned kMaxDepth = 200;

// Thread numbers beyond this are refused: they are typos, and the bound
// keeps the numbers far from overflow.
constexpr unsigned kMaxThread = 9999;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isIdentStart(char c) { return isLetter(c) || c == '_'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }
// Words of the tokenizer: identifiers, numbers, labels with dots ("B.EQ").
bool isWordChar(char c) { return isIdentChar(c) || c == '.' || c == '$'; }

bool isIdentifier(std::string_view s) {
  return !s.empty() && isIdentStart(s[0]) && std::all_of(s.begin(), s.end(), isWordChar);
}

// A meta key as herd7's splitter reads one: a letter, then letters,
// digits, '_', '/', '.' or '-' (diy writes `Cycle=`, `Generator=`, ...).
bool isMetaKeyChar(char c) { return isIdentChar(c) || c == '/' || c == '.' || c == '-'; }

// The architectures some plug-in reads litmus tests of, for messages.
std::string litmusArchitectures() {
  std::string out;
  for (const IsaPlugin* isa : isas())
    if (isa->litmus() && !isa->litmusArchitecture().empty())
      out += (out.empty() ? "" : ", ") + std::string(isa->litmusArchitecture());
  return out.empty() ? "none" : out;
}

// Text quoted for a message: cut short, bytes that are not printable as \xNN.
std::string quoted(std::string_view s) {
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
std::optional<unsigned> threadDigits(std::string_view w) {
  if (w.empty() || w.size() > 4 || !std::all_of(w.begin(), w.end(), isDigit)) return std::nullopt;
  unsigned n = 0;
  for (char c : w) n = n * 10 + unsigned(c - '0');
  if (n > kMaxThread) return std::nullopt;
  return n;
}

// "P3" -> 3; anything else nothing.
std::optional<unsigned> threadOfName(std::string_view w) {
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

  std::variant<Test, Diagnostics> run() {
    if (blankComments()) {
      size_t at = header();
      if (at != npos) at = meta(at);
      if (at != npos) at = init(at);
      if (at != npos) at = table(at);
      if (at != npos) tail(at);
      if (at != npos) checkNames();
    }
    if (errors_.empty()) return std::move(test_);
    return std::move(errors_);
  }

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

  Position pos(size_t offset) const {
    size_t line = size_t(std::upper_bound(lines_.begin(), lines_.end(), offset) - lines_.begin());
    return {unsigned(line), unsigned(offset - lines_[line - 1] + 1)};
  }
  void error(size_t offset, std::string message) {
    Position p = pos(std::min(offset, text_.size()));
    errors_.push_back({{test_.file, p.line, p.column}, std::move(message)});
  }
  std::string where(size_t offset) const {
    Position p = pos(offset);
    return std::to_string(p.line) + ":" + std::to_string(p.column);
  }

  // The last byte of the string whose '"' is at `i`: its closing quote, or
  // the byte before the end of its line when it is left open.
  size_t stringEnd(size_t i) const {
    size_t j = i + 1;
    while (j < text_.size() && text_[j] != '"' && text_[j] != '\n') ++j;
    return j < text_.size() && text_[j] == '"' ? j : j - 1;
  }

  size_t lineEnd(size_t i) const {
    size_t e = text_.find('\n', i);
    return e == npos ? text_.size() : e;
  }
  // [a, b) without the blanks at either end.
  void trim(size_t& a, size_t& b) const {
    while (a < b && isSpace(text_[a])) ++a;
    while (b > a && isSpace(text_[b - 1])) --b;
  }
  std::string_view slice(size_t a, size_t b) const { return std::string_view(text_).substr(a, b - a); }

  // `(* ... *)`, nested as in OCaml, becomes spaces (newlines kept). A
  // string's contents are not searched for comment marks.
  bool blankComments() {
    unsigned depth = 0;
    size_t open = 0;
    for (size_t i = 0; i < text_.size(); ++i) {
      char c = text_[i];
      bool opens = c == '(' && i + 1 < text_.size() && text_[i + 1] == '*';
      bool closes = c == '*' && i + 1 < text_.size() && text_[i + 1] == ')';
      if (depth == 0 && c == '"') {
        i = stringEnd(i);
      } else if (opens) {
        if (depth++ == 0) open = i;
        text_[i] = text_[i + 1] = ' ';
        ++i;
      } else if (depth > 0 && closes) {
        --depth;
        text_[i] = text_[i + 1] = ' ';
        ++i;
      } else if (depth > 0 && c != '\n') {
        text_[i] = ' ';
      }
    }
    if (depth == 0) return true;
    error(open, "comment '(*' is not closed by '*)'");
    return false;
  }

  // `ARCH NAME`: the architecture word selects the plug-in that reads the
  // rest (its registers and instruction names); returns the offset of the
  // next line.
  size_t header() {
    size_t i = 0;
    while (i < text_.size() && (isSpace(text_[i]) || text_[i] == '\n')) ++i;
    if (i == text_.size()) {
      error(text_.size(), "empty file: expected the header 'ARCHITECTURE NAME' (litmus tests read: " +
                              litmusArchitectures() + ")");
      return npos;
    }
    size_t end = lineEnd(i), word = i;
    while (word < end && !isSpace(text_[word])) ++word;
    std::string arch(slice(i, word));
    const IsaPlugin* isa = isaOfLitmusArchitecture(arch);
    if (!isa) {
      error(i, "no ISA plug-in reads litmus tests of architecture " + quoted(arch) + " (litmus tests read: " +
                   litmusArchitectures() + ")");
      return npos;
    }
    if (!isa->litmus()) {
      error(i, "architecture '" + arch + "': the " + std::string(isa->family()) +
                   " plug-in has no litmus support (litmus tests read: " + litmusArchitectures() + ")");
      return npos;
    }
    test_.arch = arch;
    test_.dialect = isa->litmus();
    size_t a = word, b = end;
    trim(a, b);
    if (a == b) error(word, "the header names no test: expected '" + arch + " NAME'");
    test_.name = std::string(slice(a, b));
    return end + (end < text_.size());
  }

  // `Key=Value` lines and a quoted doc string, up to the '{' of the init
  // block; returns the offset of that '{'.
  size_t meta(size_t i) {
    std::map<std::string, size_t> seen;
    for (; i < text_.size(); i = lineEnd(i) + 1) {
      size_t a = i, b = lineEnd(i);
      trim(a, b);
      if (a == b) continue;
      if (text_[a] == '{') return a;
      if (text_[a] == '"') {  // the doc string: read past, not kept
        size_t close = text_.find('"', a + 1);
        if (close == npos || close >= b) error(a, "the doc string is not closed by '\"' on its line");
        else if (close + 1 != b) error(close + 1, "unexpected " + quoted(slice(close + 1, b)) + " after the doc string");
        continue;
      }
      size_t key = a;
      if (isLetter(text_[key]))
        while (key < b && isMetaKeyChar(text_[key])) ++key;
      size_t eq = key;
      while (eq < b && isSpace(text_[eq])) ++eq;
      if (key == a || eq == b || text_[eq] != '=') {
        error(a, "expected a 'Key=Value' line or the init block '{', found " + quoted(slice(a, b)));
        continue;
      }
      std::string name(slice(a, key));
      std::string folded = name;  // herd7 reads keys in any case: CacheType and cachetype are one key
      for (char& ch : folded) ch = char(isLetter(ch) ? (ch | 0x20) : ch);
      if (auto [it, fresh] = seen.emplace(folded, a); !fresh) {
        error(a, "'" + name + "' is given twice (first at " + where(it->second) + ")");
        continue;
      }
      size_t va = eq + 1, vb = b;
      trim(va, vb);
      test_.meta[name] = std::string(slice(va, vb));
      test_.metaAt[name] = pos(a);
    }
    error(text_.size(), "missing the init block '{ ... }' after the header");
    return npos;
  }

  // Splits [a, b) into tokens; false (with an error) on a byte no token
  // starts with or a string left open.
  bool tokenize(size_t a, size_t b, std::vector<Token>& out) {
    static constexpr std::string_view kTwo[] = {"/\\", "\\/", "=>"};
    static constexpr std::string_view kOne = "[]():;=~,*-";
    size_t i = a;
    while (i < b) {
      char c = text_[i];
      if (isSpace(c) || c == '\n') {
        ++i;
      } else if (isWordChar(c)) {
        size_t j = i;
        while (j < b && isWordChar(text_[j])) ++j;
        out.push_back({Token::Kind::Word, slice(i, j), i, j});
        i = j;
      } else if (c == '"') {
        size_t j = i + 1;
        while (j < b && text_[j] != '"' && text_[j] != '\n') ++j;
        if (j >= b || text_[j] != '"') {
          error(i, "string is not closed by '\"' on its line");
          return false;
        }
        out.push_back({Token::Kind::String, slice(i + 1, j), i, j + 1});
        i = j + 1;
      } else if (auto two = std::find_if(std::begin(kTwo), std::end(kTwo),
                                         [&](std::string_view p) { return slice(i, std::min(b, i + 2)) == p; });
                 two != std::end(kTwo)) {
        out.push_back({Token::Kind::Punct, *two, i, i + 2});
        i += 2;
      } else if (kOne.find(c) != std::string_view::npos) {
        out.push_back({Token::Kind::Punct, slice(i, i + 1), i, i + 1});
        ++i;
      } else {
        error(i, "unexpected character " + quoted(slice(i, i + 1)));
        return false;
      }
    }
    size_t last = b;  // "found the end": just after the last token
    while (last > a && (isSpace(text_[last - 1]) || text_[last - 1] == '\n')) --last;
    out.push_back({Token::Kind::End, {}, last, last});
    return true;
  }

  std::string describe(const Token& t) const {
    switch (t.kind) {
      case Token::Kind::End: return endName_;
      case Token::Kind::String: return "the string " + quoted(t.text);
      default: return quoted(t.text);
    }
  }

  std::optional<unsigned> threadNumber(const Token& t) {
    if (auto n = t.kind == Token::Kind::Word ? threadDigits(t.text) : std::nullopt) return n;
    error(t.offset, "expected a thread number before ':', found " + describe(t));
    return std::nullopt;
  }

  // A register as the plug-in's dialect names it (AArch64: X0-X30 and
  // W0-W30, any case, named "X<n>").
  std::optional<std::string> registerName(const Token& t) {
    if (t.kind == Token::Kind::Word)
      if (auto r = test_.dialect->registerNamed(t.text)) return r->name;
    error(t.offset, "expected a general register " + std::string(test_.dialect->registerSyntax()) + ", found " +
                        describe(t));
    return std::nullopt;
  }

  // `thread:register` at the cursor, the thread's use noted.
  bool registerAt(Cursor& c, std::optional<unsigned>& thread, std::string& name) {
    const Token& number = c.next();
    thread = threadNumber(number);
    c.next();  // ':'
    const Token& reg = c.next();
    auto n = registerName(reg);
    if (!thread || !n) return false;
    name = *n;
    threadUses_.push_back({*thread, std::string(number.text) + ":" + std::string(reg.text), number.offset});
    return true;
  }

  std::optional<uint64_t> number(const Token& t) {
    std::string_view w = t.text;
    int base = 10;
    if (w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) base = 16, w.remove_prefix(2);
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v, base);
    if (ec == std::errc::result_out_of_range) error(t.offset, quoted(t.text) + " does not fit in 64 bits");
    else if (ec != std::errc() || end != w.data() + w.size()) error(t.offset, quoted(t.text) + " is not a number");
    else return v;
    return std::nullopt;
  }

  // "P1:L0" as a label's address, the use noted for checking.
  std::optional<InitValue> labelValue(std::string_view thread, std::string_view label, size_t offset) {
    auto n = threadOfName(thread);
    if (!n || !isIdentifier(label)) {
      error(offset, "expected a label as P<n>:<label>, found " + quoted(std::string(thread) + ":" + std::string(label)));
      return std::nullopt;
    }
    labelUses_.push_back({*n, std::string(label), offset});
    InitValue v;
    v.kind = InitValue::Kind::Label;
    v.text = std::string(thread) + ":" + std::string(label);
    v.at = pos(offset);
    return v;
  }

  // A value in the init block or a condition: a number, a location, a
  // label, an instruction, or a parenthesised page-table value.
  std::optional<InitValue> value(Cursor& c) {
    const Token& t = c.peek();
    InitValue v;
    v.at = pos(t.offset);
    if (c.is("(")) {  // `(oa:phy_x)`: kept as written, a Location the runner refuses by name
      c.next();
      while (!c.atEnd() && !c.is(")") && !c.is("(")) c.next();
      if (!c.is(")")) {
        error(t.offset, "'(' in a value is not closed by ')'");
        return std::nullopt;
      }
      v.kind = InitValue::Kind::Location;
      v.text = std::string(slice(t.offset, c.next().end));
      return v;
    }
    if (c.is("-") && c.isWord(1) && isDigit(c.peek(1).text[0])) {
      c.next();
      auto n = number(c.next());
      if (!n) return std::nullopt;
      v.number = 0 - *n;  // two's complement, as the register holds it
      return v;
    }
    if (t.kind != Token::Kind::Word) {
      error(t.offset, "expected a value (a number, location, P<n>:<label>, NOP, instr:\"...\" or label:\"...\"), found " +
                          describe(t));
      return std::nullopt;
    }
    if (isDigit(t.text[0])) {
      auto n = number(c.next());
      if (!n) return std::nullopt;
      v.number = *n;
      return v;
    }
    if ((t.text == "instr" || t.text == "label") && c.is(":", 1)) {
      const Token& s = c.peek(2);
      if (s.kind != Token::Kind::String) {
        error(s.offset, "expected a quoted string after '" + std::string(t.text) + ":', found " + describe(s));
        return std::nullopt;
      }
      c.next(), c.next(), c.next();
      size_t a = s.offset + 1, b = s.end - 1;
      trim(a, b);
      if (t.text == "instr") {
        if (a == b) {
          error(s.offset, "instr:\"\" holds no instruction");
          return std::nullopt;
        }
        v.kind = InitValue::Kind::Instruction;
        v.text = std::string(slice(a, b));
        return v;
      }
      size_t colon = slice(a, b).find(':');
      if (colon == npos) {
        error(s.offset, "label:\"...\" must hold P<n>:<label>, found " + quoted(slice(a, b)));
        return std::nullopt;
      }
      std::string_view thread = slice(a, a + colon), label = slice(a + colon + 1, b);
      auto r = labelValue(thread, label, s.offset);
      if (r) r->at = v.at;
      return r;
    }
    if (c.is(":", 1)) {
      if (!c.isWord(2)) {
        error(c.peek(2).offset, "expected a label after " + quoted(std::string(t.text) + ":") + ", found " +
                                    describe(c.peek(2)));
        return std::nullopt;
      }
      c.next(), c.next();
      return labelValue(t.text, c.next().text, t.offset);
    }
    if (!isIdentifier(t.text)) {
      error(t.offset, quoted(t.text) + " is neither a number nor a name");
      return std::nullopt;
    }
    c.next();
    v.kind = test_.dialect->bareInstruction(t.text) ? InitValue::Kind::Instruction : InitValue::Kind::Location;
    v.text = std::string(t.text);
    return v;
  }

  // Reads `{ entry; ... }` from the '{' at `open`; returns the offset after '}'.
  size_t init(size_t open) {
    size_t close = open + 1;  // a '}' or ';' in a string is text
    for (; close < text_.size() && text_[close] != '}'; ++close)
      if (text_[close] == '"') close = stringEnd(close);
    if (close >= text_.size()) {
      error(open, "the init block '{' is not closed by '}'");
      return npos;
    }
    endName_ = "the end of the entry";
    size_t start = open + 1;
    for (size_t i = open + 1; i <= close; ++i) {
      if (text_[i] == '"') {
        i = stringEnd(i);
      } else if (text_[i] == ';' || i == close) {
        entry(start, i);
        start = i + 1;
      }
    }
    // A declaration `void *1:X1;` with a value elsewhere only adds its type.
    for (const InitEntry& d : declarations_) {
      auto [it, fresh] = initIndex_.emplace(std::make_pair(d.thread, d.name), test_.init.size());
      if (fresh) test_.init.push_back(d);
      else if (test_.init[it->second].type.empty()) test_.init[it->second].type = d.type;
    }
    return close + 1;
  }

  void entry(size_t a, size_t b) {
    std::vector<Token> toks;
    if (!tokenize(a, b, toks) || toks.size() == 1) return;
    size_t eq = 0;
    while (eq + 1 < toks.size() && !(toks[eq].kind == Token::Kind::Punct && toks[eq].text == "=")) ++eq;
    bool hasValue = eq + 1 < toks.size();
    if (!hasValue && !(toks.size() >= 3 && toks[0].isName())) {  // only `type name` may omit the value
      error(toks[0].offset, "init entry " + quoted(slice(toks[0].offset, toks[toks.size() - 2].end)) +
                                " has no '=' and value");
      return;
    }
    size_t n = eq;  // tokens before '=' (or all but End)
    if (n == 0) {
      error(toks[0].offset, "expected a register such as '0:X1' or a location before '='");
      return;
    }
    auto punct = [&](size_t i, std::string_view p) { return toks[i].isPunct(p); };
    InitEntry e;
    size_t lhs;  // first token of the register or location
    if (n >= 3 && punct(n - 2, ":")) {
      lhs = n - 3;
      Cursor c(toks);
      for (size_t k = 0; k < lhs; ++k) c.next();
      if (!registerAt(c, e.thread, e.name)) return;
    } else if (n >= 3 && punct(n - 1, "]") && punct(n - 3, "[") && toks[n - 2].isName()) {
      lhs = n - 3;
      e.name = std::string(toks[n - 2].text);
    } else if (toks[n - 1].isName()) {
      // `*x` alone is the location x; after a type the '*' is the type's
      lhs = n == 2 && punct(0, "*") ? 0 : n - 1;
      e.name = std::string(toks[n - 1].text);
    } else {
      error(toks[n - 1].offset, "expected a register such as '0:X1' or a location, found " + describe(toks[n - 1]));
      return;
    }
    for (size_t k = 0; k < lhs; ++k)
      if (!toks[k].isName() && !punct(k, "*")) {
        error(toks[k].offset, "expected a type such as 'int' or 'ins_t *' before the name, found " + describe(toks[k]));
        return;
      }
    if (lhs > 0) e.type = std::string(slice(toks[0].offset, toks[lhs - 1].end));
    e.at = pos(toks[lhs].offset);
    if (!hasValue) {
      if (e.type.empty()) {
        error(toks[0].offset, "init entry " + quoted(slice(toks[0].offset, toks[n - 1].end)) + " has no '=' and value");
        return;
      }
      e.value.at = e.at;
      declarations_.push_back(std::move(e));
      return;
    }
    Cursor c(toks);
    for (size_t k = 0; k <= eq; ++k) c.next();
    auto v = value(c);
    if (!v) return;
    if (!c.atEnd()) {
      error(c.peek().offset, "unexpected " + describe(c.peek()) + " after the value (entries end at ';')");
      return;
    }
    e.value = std::move(*v);
    auto [it, fresh] = initIndex_.emplace(std::make_pair(e.thread, e.name), test_.init.size());
    if (!fresh) {
      const Position& first = test_.init[it->second].at;
      error(toks[lhs].offset, "'" + std::string(slice(toks[lhs].offset, toks[n - 1].end)) +
                                  "' is given a value twice (first at " + std::to_string(first.line) + ":" +
                                  std::to_string(first.column) + ")");
      return;
    }
    test_.init.push_back(std::move(e));
  }

  // The line at `i` starts the tail: locations, filter or the condition.
  bool startsTail(size_t i) const {
    if (text_[i] == '~') return true;
    for (std::string_view k : {"exists", "forall", "locations", "filter"})
      if (slice(i, std::min(text_.size(), i + k.size())) == k &&
          (i + k.size() == text_.size() || !isWordChar(text_[i + k.size()])))
        return true;
    return false;
  }

  // The thread table from `i` (after the init block's '}'); returns the
  // offset of the tail.
  size_t table(size_t i) {
    bool header = false;
    for (; i < text_.size(); i = lineEnd(i) + 1) {
      size_t a = i, end = lineEnd(i);
      trim(a, end);
      if (a == end) continue;
      if (startsTail(a)) {
        i = a;
        break;
      }
      size_t row = a;
      for (size_t p = a; p < end; ++p)
        if (text_[p] == ';') {
          if (header) cells(row, p);
          else header = columns(row, p);
          row = p + 1;
        }
      size_t ra = row, rb = end;
      trim(ra, rb);
      if (ra != rb) error(rb, "expected ';' at the end of the table row");
    }
    if (!header) error(std::min(i, text_.size()), "missing the thread table: its first row names the threads, as 'P0 | P1 ;'");
    return std::min(i, text_.size());
  }

  // The header row `P0 | P1 | P0.F`; true once read, even with errors in it.
  bool columns(size_t a, size_t b) {
    size_t start = a;
    unsigned next = 0;
    std::vector<bool> named;  // per column: its name was read
    for (size_t p = a; p <= b; ++p) {
      if (p < b && text_[p] != '|') continue;
      size_t ca = start, cb = p;
      trim(ca, cb);
      start = p + 1;
      Thread t;
      t.at = pos(ca);
      std::string_view name = slice(ca, cb);
      t.faultHandler = name.size() > 2 && name.substr(name.size() - 2) == ".F";
      auto n = threadOfName(t.faultHandler ? name.substr(0, name.size() - 2) : name);
      if (!n) {
        error(ca, "expected a thread name P<n> or P<n>.F (a fault handler) atop the column, found " + quoted(name));
      } else if (!t.faultHandler && *n != next) {
        error(ca, "expected P" + std::to_string(next) + " (threads are numbered from 0 in order), found " + quoted(name));
      }
      if (!t.faultHandler) next = n ? *n + 1 : next + 1;  // a bad name still takes its number
      named.push_back(n.has_value());
      t.name = std::string(name);
      t.number = n.value_or(0);
      test_.threads.push_back(std::move(t));
    }
    std::set<unsigned> owners, handled;
    for (const Thread& t : test_.threads)
      if (!t.faultHandler) owners.insert(t.number);
    for (size_t col = 0; col < test_.threads.size(); ++col) {
      const Thread& t = test_.threads[col];
      if (!t.faultHandler || !named[col]) continue;
      std::string message;
      if (!handled.insert(t.number).second) message = "a second fault handler for P" + std::to_string(t.number);
      else if (!owners.count(t.number)) message = t.name + " handles faults of P" + std::to_string(t.number) + ", which has no column";
      if (!message.empty()) errors_.push_back({{test_.file, t.at.line, t.at.column}, message});
    }
    labelLines_.resize(test_.threads.size());
    return true;
  }

  // One row of code: a cell per column, each `label: ... instruction`.
  void cells(size_t a, size_t b) {
    std::vector<std::pair<size_t, size_t>> cs;
    size_t start = a;
    for (size_t p = a; p <= b; ++p)
      if (p == b || text_[p] == '|') cs.emplace_back(start, p), start = p + 1;
    if (cs.size() != test_.threads.size()) {
      size_t ra = a, rb = b;
      trim(ra, rb);
      error(ra, "the row has " + std::to_string(cs.size()) + " column(s), the header " +
                    std::to_string(test_.threads.size()));
      return;
    }
    for (size_t col = 0; col < cs.size(); ++col) {
      auto [ca, cb] = cs[col];
      trim(ca, cb);
      Thread& t = test_.threads[col];
      Instruction ins;
      ins.at = pos(ca);
      // Leading `name:` are labels; an instruction never starts so.
      while (ca < cb && isIdentStart(text_[ca])) {
        size_t w = ca;
        while (w < cb && isWordChar(text_[w])) ++w;
        size_t colon = w;
        while (colon < cb && isSpace(text_[colon])) ++colon;
        if (colon == cb || text_[colon] != ':') break;
        std::string label(slice(ca, w));
        if (auto [it, fresh] = labelLines_[col].emplace(label, pos(ca).line); !fresh)
          error(ca, "label '" + label + "' is already defined in " + t.name + " (line " + std::to_string(it->second) + ")");
        ins.labels.push_back(std::move(label));
        ca = colon + 1;
        while (ca < cb && isSpace(text_[ca])) ++ca;
      }
      if (ca < cb) ins.at = pos(ca);
      ins.text = std::string(slice(ca, cb));
      if (ins.text.empty() && ins.labels.empty()) continue;  // an empty cell fills a shorter column
      t.code.push_back(std::move(ins));
    }
  }

  // `locations [...]` and the condition, to the end of the file.
  void tail(size_t i) {
    std::vector<Token> toks;
    if (!tokenize(i, text_.size(), toks)) return;
    endName_ = "the end of the file";
    Cursor c(toks);
    if (c.isWord() && c.peek().text == "locations") {
      const Token& key = c.next();
      if (!c.is("[")) {
        error(c.peek().offset, "expected '[' after 'locations', found " + describe(c.peek()));
        return;
      }
      c.next();
      size_t first = npos, last = 0;
      for (;;) {
        if (c.atEnd()) {
          error(key.offset, "'locations [' is not closed by ']'");
          return;
        }
        if (c.is("]") || c.is(";")) {
          if (first != npos) test_.locations.emplace_back(slice(first, last));
          first = npos;
          if (c.next().text == "]") break;
          continue;
        }
        const Token& t = c.next();
        if (first == npos) first = t.offset;
        last = t.end;
      }
      if (c.is(";")) c.next();
    }
    if (c.atEnd()) return;  // no condition: the test lists locations only
    const Token& q = c.peek();
    Condition cond;
    cond.at = pos(q.offset);
    if (c.isWord() && q.text == "exists") {
      cond.quantifier = Condition::Quantifier::Exists;
    } else if (c.isWord() && q.text == "forall") {
      cond.quantifier = Condition::Quantifier::Forall;
    } else if (c.is("~") && c.isWord(1) && c.peek(1).text == "exists") {
      cond.quantifier = Condition::Quantifier::NotExists;
      c.next();
    } else {
      error(q.offset, "expected the condition: 'exists', '~exists' or 'forall', found " + describe(q));
      return;
    }
    c.next();
    cond.prop = implication(c, 0);
    if (!cond.prop) return;
    if (!c.atEnd()) {
      error(c.peek().offset, "unexpected " + describe(c.peek()) + " after the condition");
      return;
    }
    test_.condition = std::move(cond);
  }

  using PropPtr = std::shared_ptr<Prop>;

  PropPtr node(Prop::Kind kind, std::vector<PropPtr> args, Position at) {
    auto p = std::make_shared<Prop>();
    p->kind = kind;
    p->args = std::move(args);
    p->at = at;
    return p;
  }

  // Weakest first: `=>` (to the right), `\/`, `/\`, then `~`, `( )` and atoms.
  PropPtr implication(Cursor& c, unsigned depth) {
    PropPtr left = chain(c, depth, "\\/", Prop::Kind::Or);
    if (!left || !c.is("=>")) return left;
    c.next();
    if (depth >= kMaxDepth) return tooDeep(c);
    PropPtr right = implication(c, depth + 1);
    if (!right) return nullptr;
    return node(Prop::Kind::Implies, {left, right}, left->at);
  }

  PropPtr chain(Cursor& c, unsigned depth, std::string_view op, Prop::Kind kind) {
    auto sub = [&] { return kind == Prop::Kind::Or ? chain(c, depth, "/\\", Prop::Kind::And) : unary(c, depth); };
    std::vector<PropPtr> args{sub()};
    while (args.back() && c.is(op)) {
      c.next();
      args.push_back(sub());
    }
    if (!args.back()) return nullptr;
    if (args.size() == 1) return args[0];
    Position at = args[0]->at;
    return node(kind, std::move(args), at);
  }

  PropPtr tooDeep(Cursor& c) {
    error(c.peek().offset, "the condition nests deeper than " + std::to_string(kMaxDepth) + " levels");
    return nullptr;
  }

  PropPtr unary(Cursor& c, unsigned depth) {
    const Token& t = c.peek();
    if (depth >= kMaxDepth) return tooDeep(c);
    if (c.is("~")) {
      c.next();
      PropPtr arg = unary(c, depth + 1);
      if (!arg) return nullptr;
      return node(Prop::Kind::Not, {arg}, pos(t.offset));
    }
    if (c.is("(")) {
      c.next();
      PropPtr inner = implication(c, depth + 1);
      if (!inner) return nullptr;
      if (!c.is(")")) {
        error(c.peek().offset, "expected ')' closing the '(' at " + where(t.offset) + ", found " + describe(c.peek()));
        return nullptr;
      }
      c.next();
      return inner;
    }
    if (c.isWord() && (t.text == "true" || t.text == "false") && !c.is("=", 1)) {
      c.next();
      return node(t.text == "true" ? Prop::Kind::True : Prop::Kind::False, {}, pos(t.offset));
    }
    if (c.isWord() && t.text == "fault" && c.is("(", 1)) return fault(c);
    return atom(c);
  }

  // `fault(P0:L0,UndefinedInstruction)`: the thread, its label, the rest as written.
  PropPtr fault(Cursor& c) {
    const Token& key = c.next();
    c.next();  // '('
    auto p = node(Prop::Kind::Fault, {}, pos(key.offset));
    const Token& thread = c.next();
    auto n = thread.kind == Token::Kind::Word ? threadOfName(thread.text) : std::nullopt;
    if (!n) {
      error(thread.offset, "expected a thread P<n> first in fault(...), found " + describe(thread));
      return nullptr;
    }
    p->thread = n;
    if (c.is(":")) {
      c.next();
      const Token& label = c.next();
      if (!label.isName()) {
        error(label.offset, "expected a label after '" + std::string(thread.text) + ":', found " + describe(label));
        return nullptr;
      }
      p->name = std::string(label.text);
      labelUses_.push_back({*n, p->name, label.offset});
    }
    if (c.is(",")) {
      c.next();
      size_t a = c.peek().offset, b = a;
      while (!c.atEnd() && !c.is(")") && !c.is("(")) b = c.next().end;
      p->value.kind = InitValue::Kind::Location;
      p->value.text = std::string(slice(a, b));
      p->value.at = pos(a);
    }
    if (!c.is(")")) {
      error(c.peek().offset, "expected ')' closing fault(...), found " + describe(c.peek()));
      return nullptr;
    }
    c.next();
    return p;
  }

  // `1:X9=1`, `x=1`, `[x]=1`, `*x=1`.
  PropPtr atom(Cursor& c) {
    const Token& t = c.peek();
    auto p = node(Prop::Kind::Eq, {}, pos(t.offset));
    if (c.isWord() && isDigit(t.text[0]) && c.is(":", 1)) {
      if (!registerAt(c, p->thread, p->name)) return nullptr;
    } else if (c.is("[") && c.peek(1).isName() && c.is("]", 2)) {
      c.next();
      p->name = std::string(c.next().text);
      c.next();
    } else if (c.is("*") && c.peek(1).isName()) {
      c.next();
      p->name = std::string(c.next().text);
    } else if (t.isName()) {
      p->name = std::string(c.next().text);
    } else {
      error(t.offset, "expected a register such as '1:X9', a location, 'true', 'false', '~' or '(', found " +
                          describe(t));
      return nullptr;
    }
    if (!c.is("=")) {
      error(c.peek().offset, "expected '=' after the register or location, found " + describe(c.peek()));
      return nullptr;
    }
    c.next();
    auto v = value(c);
    if (!v) return nullptr;
    p->value = std::move(*v);
    return p;
  }

  // Each register's thread and each label `P1:L0` named in the init block
  // or the condition exists in the table.
  void checkNames() {
    if (test_.threads.empty()) return;  // the missing table is reported already
    std::set<unsigned> threads;
    std::set<std::pair<unsigned, std::string>> labels;  // a handler's labels count as its thread's
    for (size_t col = 0; col < test_.threads.size(); ++col) {
      if (!test_.threads[col].faultHandler) threads.insert(test_.threads[col].number);
      for (const auto& [label, line] : labelLines_[col]) labels.emplace(test_.threads[col].number, label);
    }
    auto has = [&](unsigned n) { return threads.count(n) > 0; };
    for (const ThreadUse& u : threadUses_)
      if (!has(u.thread)) error(u.offset, "'" + u.what + "' names thread P" + std::to_string(u.thread) + ", which has no column");
    for (const LabelUse& u : labelUses_) {
      if (!has(u.thread)) {
        error(u.offset, "label P" + std::to_string(u.thread) + ":" + u.label + " names a thread with no column");
        continue;
      }
      if (!labels.count({u.thread, u.label})) error(u.offset, "P" + std::to_string(u.thread) + " has no label '" + u.label + "'");
    }
  }
};

}  // namespace

std::variant<Test, Diagnostics> parseLitmus(std::string_view text, const std::string& file) {
  return Reader(text, file).run();
}

std::variant<Test, Diagnostics> loadLitmus(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Diagnostics{{{path, 0, 0}, "cannot read the litmus file"}};
  std::ostringstream text;
  text << in.rdbuf();
  return parseLitmus(text.str(), path);
}

}  // namespace patchcheck::litmus
