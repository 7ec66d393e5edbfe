#include "checker/spec/Suggest.h"

#include <algorithm>

namespace patchcheck {

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// " (did you mean 'x'?)" when a known name is close to `got`.
std::string didYouMean(std::string_view got, const std::vector<std::string>& known) {
  const std::string* best = nullptr;
  size_t bestDistance = ~size_t(0);
  for (const std::string& k : known) {
    size_t d = editDistance(got, k);
    if (d < bestDistance) best = &k, bestDistance = d;
  }
  if (best && ((bestDistance <= 2 && bestDistance < got.size()) || bestDistance <= got.size() / 3))
    return " (did you mean '" + *best + "'?)";
  // A known name inside a longer guess (fetch_model) or the other way round.
  for (const std::string& k : known)
    if (k.size() >= 3 && got.size() >= 3 &&
        (got.find(k) != std::string_view::npos || k.find(got) != std::string::npos))
      return " (did you mean '" + k + "'?)";
  return "";
}

// didYouMean, or the list of known names when none is close.
std::string suggest(std::string_view got, const std::vector<std::string>& known) {
  if (std::string close = didYouMean(got, known); !close.empty()) return close;
  if (known.empty() || known.size() > 12) return "";
  std::string list;
  for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
  return " (expected one of: " + list + ")";
}

}  // namespace patchcheck
