// The litmus file's head: the `ARCH NAME` line that picks the ISA plug-in,
// the `Key=Value` meta lines, and the init block `{ ... }` with the values
// it (and the condition) may hold. Part of the litmus parser
// (LitmusParserImpl.h).
#include <charconv>
#include <map>

#include "checker/litmus/LitmusParserImpl.h"
#include "encoder/IsaRegistry.h"

namespace patchcheck::litmus::parser {
namespace {

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

}  // namespace

// `ARCH NAME`: the architecture word selects the plug-in that reads the
// rest (its registers and instruction names); returns the offset of the
// next line.
size_t Reader::header() {
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
size_t Reader::meta(size_t i) {
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

std::optional<unsigned> Reader::threadNumber(const Token& t) {
  if (auto n = t.kind == Token::Kind::Word ? threadDigits(t.text) : std::nullopt) return n;
  error(t.offset, "expected a thread number before ':', found " + describe(t));
  return std::nullopt;
}

// A register as the plug-in's dialect names it (AArch64: X0-X30 and
// W0-W30, any case, named "X<n>").
std::optional<std::string> Reader::registerName(const Token& t) {
  if (t.kind == Token::Kind::Word)
    if (auto r = test_.dialect->registerNamed(t.text)) return r->name;
  error(t.offset, "expected a general register " + std::string(test_.dialect->registerSyntax()) + ", found " +
                      describe(t));
  return std::nullopt;
}

// `thread:register` at the cursor, the thread's use noted.
bool Reader::registerAt(Cursor& c, std::optional<unsigned>& thread, std::string& name) {
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

std::optional<uint64_t> Reader::number(const Token& t) {
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
std::optional<InitValue> Reader::labelValue(std::string_view thread, std::string_view label, size_t offset) {
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
std::optional<InitValue> Reader::value(Cursor& c) {
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
size_t Reader::init(size_t open) {
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

void Reader::entry(size_t a, size_t b) {
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

}  // namespace patchcheck::litmus::parser
