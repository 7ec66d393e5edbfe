// Reads herd7's litmus format in passes over one copy of the text.
// Comments are blanked first, keeping every offset, so a position found
// later is where the byte lies in the file. The header, meta lines and the
// thread table are line-shaped and read by lines; the init entries, the
// `locations` list and the condition go through a small tokenizer.
// This file holds the passes' driver (Reader::run), positions, comment
// blanking, the tokenizer and the final name check; the parts of the file
// are read in LitmusParse{Init,Threads,Condition}.cpp (LitmusParserImpl.h).
#include "checker/litmus/LitmusParser.h"

#include <fstream>
#include <set>
#include <sstream>

#include "checker/litmus/LitmusParserImpl.h"

namespace patchcheck::litmus {
namespace parser {

std::variant<Test, Diagnostics> Reader::run() {
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

Position Reader::pos(size_t offset) const {
  size_t line = size_t(std::upper_bound(lines_.begin(), lines_.end(), offset) - lines_.begin());
  return {unsigned(line), unsigned(offset - lines_[line - 1] + 1)};
}

void Reader::error(size_t offset, std::string message) {
  Position p = pos(std::min(offset, text_.size()));
  errors_.push_back({{test_.file, p.line, p.column}, std::move(message)});
}

std::string Reader::where(size_t offset) const {
  Position p = pos(offset);
  return std::to_string(p.line) + ":" + std::to_string(p.column);
}

// The last byte of the string whose '"' is at `i`: its closing quote, or
// the byte before the end of its line when it is left open.
size_t Reader::stringEnd(size_t i) const {
  size_t j = i + 1;
  while (j < text_.size() && text_[j] != '"' && text_[j] != '\n') ++j;
  return j < text_.size() && text_[j] == '"' ? j : j - 1;
}

size_t Reader::lineEnd(size_t i) const {
  size_t e = text_.find('\n', i);
  return e == npos ? text_.size() : e;
}

// [a, b) without the blanks at either end.
void Reader::trim(size_t& a, size_t& b) const {
  while (a < b && isSpace(text_[a])) ++a;
  while (b > a && isSpace(text_[b - 1])) --b;
}

// `(* ... *)`, nested as in OCaml, becomes spaces (newlines kept). A
// string's contents are not searched for comment marks.
bool Reader::blankComments() {
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

// Splits [a, b) into tokens; false (with an error) on a byte no token
// starts with or a string left open.
bool Reader::tokenize(size_t a, size_t b, std::vector<Token>& out) {
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

std::string Reader::describe(const Token& t) const {
  switch (t.kind) {
    case Token::Kind::End: return endName_;
    case Token::Kind::String: return "the string " + quoted(t.text);
    default: return quoted(t.text);
  }
}

// Each register's thread and each label `P1:L0` named in the init block
// or the condition exists in the table.
void Reader::checkNames() {
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

}  // namespace parser

std::variant<Test, Diagnostics> parseLitmus(std::string_view text, const std::string& file) {
  return parser::Reader(text, file).run();
}

std::variant<Test, Diagnostics> loadLitmus(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Diagnostics{{{path, 0, 0}, "cannot read the litmus file"}};
  std::ostringstream text;
  text << in.rdbuf();
  return parseLitmus(text.str(), path);
}

}  // namespace patchcheck::litmus
