#pragma once
// GNU-as source text as every plug-in reads it: lines, the plug-in's
// comments cut off, statements split at `;`, labels (`name:`, `N:`) taken
// off a statement's front, its first word (mnemonic or directive) lowered,
// and operands split at the commas outside brackets. Each piece keeps the
// 1-based column where it starts, for file:line:column diagnostics.
#include <string>
#include <string_view>

namespace patchcheck::gnu {

// A piece of a source line and the 1-based column where it starts.
struct Piece {
  std::string_view text;
  unsigned column = 0;
};

// The C locale's isspace, without the locale lookup (hot path).
constexpr bool isSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}
Piece trimmed(Piece);
std::string lower(std::string_view);

// Where a comment starts in a line, as the plug-in's GNU as port has it.
enum class Comments : uint8_t {
  Hash,       // `#` anywhere (MIPS, x86-64)
  SlashHash,  // `//` anywhere, or `#` as the line's first non-blank (arm64,
              // where `#` elsewhere starts an immediate)
};

// Calls statement(line, piece) for every `;`-separated statement of every
// line, comments removed, empty ones included (a label may stand alone).
template <class Fn>
void forEachStatement(std::string_view source, Comments comments, Fn&& statement);

// A label taken off the front of a statement: `name:` (a name may not start
// with `$` when `dollarNames` is false: MIPS's `$` starts a register) or
// `N:`, a numeric local label.
struct Label {
  std::string_view name;
  unsigned column;
};
// Takes the labels off the front of `p` (calling label(Label) for each) and
// the blanks after them.
template <class Fn>
void takeLabels(Piece& p, bool dollarNames, Fn&& label);

// A statement's first word, lower case, and the rest after it.
struct Head {
  std::string word;
  Piece rest;
};
Head headOf(Piece p);  // p starts with a non-blank

// Operands split at the commas outside (...) and, with `brackets`, [...].
// Each piece trimmed; none for a blank text.
template <class List>
List splitOperands(Piece p, bool brackets = false);

// ---- templates
template <class Fn>
void forEachStatement(std::string_view source, Comments comments, Fn&& statement) {
  unsigned lineNo = 0;
  size_t pos = 0;
  while (pos <= source.size()) {
    size_t nl = source.find('\n', pos);
    if (nl == std::string_view::npos) nl = source.size();
    std::string_view line = source.substr(pos, nl - pos);
    ++lineNo;
    if (comments == Comments::Hash) {
      if (size_t c = line.find('#'); c != std::string_view::npos) line = line.substr(0, c);
    } else {
      if (size_t c = line.find("//"); c != std::string_view::npos) line = line.substr(0, c);
      if (trim(line).starts_with("#")) line = {};
    }
    size_t start = 0;
    for (size_t i = 0; i <= line.size(); ++i)
      if (i == line.size() || line[i] == ';') {
        statement(lineNo, Piece{line.substr(start, i - start), unsigned(start + 1)});
        start = i + 1;
      }
    if (nl == source.size()) break;
    pos = nl + 1;
  }
}

// Characters of names (GNU as: letters, digits, `_`, `.`, `$`), in the C
// locale, inline: every statement's first word passes through them.
constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool isNameStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' || c == '$';
}
constexpr bool isNameChar(char c) { return isNameStart(c) || isDigit(c); }

template <class Fn>
void takeLabels(Piece& p, bool dollarNames, Fn&& label) {
  auto skip = [&] {
    while (!p.text.empty() && isSpace(p.text.front())) p.text.remove_prefix(1), ++p.column;
  };
  skip();
  while (!p.text.empty()) {
    std::string_view t = p.text;
    size_t n = 0;
    if (isDigit(t[0])) {
      while (n < t.size() && isDigit(t[n])) ++n;
    } else if (isNameStart(t[0]) && (dollarNames || t[0] != '$')) {
      while (n < t.size() && isNameChar(t[n])) ++n;
    }
    if (n == 0 || n >= t.size() || t[n] != ':') break;
    label(Label{t.substr(0, n), p.column});
    p.text.remove_prefix(n + 1), p.column += unsigned(n + 1);
    skip();
  }
}

template <class List>
List splitOperands(Piece p, bool brackets) {
  List out;
  int depth = 0;
  size_t start = 0;
  auto push = [&](size_t end) {
    std::string_view raw = p.text.substr(start, end - start);
    size_t lead = 0;
    while (lead < raw.size() && isSpace(raw[lead])) ++lead;
    out.push_back(Piece{trim(raw), p.column + unsigned(start + lead)});
  };
  for (size_t i = 0; i < p.text.size(); ++i) {
    char c = p.text[i];
    if (c == '(' || (brackets && c == '[')) ++depth;
    else if (c == ')' || (brackets && c == ']')) --depth;
    else if (c == ',' && depth == 0) push(i), start = i + 1;
  }
  if (!trim(p.text).empty() || !out.empty()) push(p.text.size());
  return out;
}

}  // namespace patchcheck::gnu
