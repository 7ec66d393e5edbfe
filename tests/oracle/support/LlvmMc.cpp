#include "tests/oracle/support/LlvmMc.h"

#include <regex>
#include <sstream>

namespace patchcheck::oracle {

std::map<size_t, std::string> llvmErrors(const std::string& err, size_t firstLine) {
  std::map<size_t, std::string> out;
  static const std::regex line(R"(^[^:\n]*:(\d+):\d+: error: (.*)$)");
  std::istringstream in(err);
  std::string l;
  while (std::getline(in, l)) {
    std::smatch m;
    if (std::regex_match(l, m, line)) {
      size_t n = std::stoul(m[1]);
      if (n >= firstLine && !out.count(n - firstLine)) out[n - firstLine] = m[2];
    }
  }
  return out;
}

bool failsWithoutLine(const RunResult& r, size_t firstLine) {
  return r.status != 0 && llvmErrors(r.err, firstLine).empty();
}

size_t firstFailingWithoutLine(size_t lines, size_t firstLine, const std::function<RunResult(size_t)>& runPrefix) {
  size_t lo = 0, hi = lines;  // prefix lo does not fail, prefix hi does
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (failsWithoutLine(runPrefix(mid), firstLine)) hi = mid;
    else lo = mid;
  }
  return hi - 1;
}

}  // namespace patchcheck::oracle
