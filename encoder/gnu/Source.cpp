#include "encoder/gnu/Source.h"

#include <cctype>

namespace patchcheck::gnu {

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

Head headOf(Piece p) {
  size_t n = 0;
  while (n < p.text.size() && !isSpace(p.text[n])) ++n;
  return {lower(p.text.substr(0, n)), {p.text.substr(n), p.column + unsigned(n)}};
}

}  // namespace patchcheck::gnu
