#include "encoder/gnu/Source.h"

#include <cctype>

namespace patchcheck::gnu {

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

Piece trimmed(Piece p) {
  size_t lead = 0;
  while (lead < p.text.size() && isSpace(p.text[lead])) ++lead;
  return {trim(p.text), p.column + unsigned(lead)};
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower((unsigned char)c));
  return out;
}

bool isNameStart(char c) { return std::isalpha((unsigned char)c) || c == '_' || c == '.' || c == '$'; }
bool isNameChar(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

Head headOf(Piece p) {
  size_t n = 0;
  while (n < p.text.size() && !isSpace(p.text[n])) ++n;
  return {lower(p.text.substr(0, n)), {p.text.substr(n), p.column + unsigned(n)}};
}

}  // namespace patchcheck::gnu
