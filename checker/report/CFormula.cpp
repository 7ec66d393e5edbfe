#include "checker/report/CFormula.h"

#include <cctype>
#include <cstdio>

#include "checker/report/PatchTable.h"

namespace patchcheck {

std::string addressExpr(const std::string& symbol, int64_t addend) {
  std::string s = "(u64)(" + cIdentifier(symbol) + ")";
  if (!addend) return s;
  char b[32];
  snprintf(b, sizeof b, "0x%llxull", (unsigned long long)addend);
  return "(" + s + " + " + b + ")";
}

std::string substitute(const std::string& formula, const std::string& S, const std::string& P) {
  std::string out;
  for (size_t i = 0; i < formula.size(); ++i) {
    char c = formula[i];
    bool alone = (i == 0 || !std::isalnum((unsigned char)formula[i - 1])) &&
                 (i + 1 == formula.size() || !std::isalnum((unsigned char)formula[i + 1]));
    out += alone && c == 'S' ? S : alone && c == 'P' ? P : std::string(1, c);
  }
  return out;
}

}  // namespace patchcheck
