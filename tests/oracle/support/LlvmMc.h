#pragma once
// Reading llvm-mc's diagnostics in oracle tests.
#include <functional>
#include <map>
#include <string>

#include "tests/oracle/support/Tools.h"

namespace patchcheck::oracle {

// llvm-mc's first error per instance: "file:LINE:COL: error: ..." mapped to
// the 0-based instance index, where instance 0 sits on 1-based source line
// `firstLine`; errors before it are dropped.
std::map<size_t, std::string> llvmErrors(const std::string& stderrText, size_t firstLine);

// llvm-mc failed without naming a line: it crashed, or reported an error
// at "<unknown>:0".
bool failsWithoutLine(const RunResult&, size_t firstLine);

// The first instance whose prefix makes llvm-mc fail that way, by
// bisection: `runPrefix(n)` runs llvm-mc on instances 0..n-1, and the
// whole batch (`lines` instances) fails.
size_t firstFailingWithoutLine(size_t lines, size_t firstLine, const std::function<RunResult(size_t)>& runPrefix);

}  // namespace patchcheck::oracle
