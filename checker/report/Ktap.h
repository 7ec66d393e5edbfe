#pragma once
// KTAP version 1 (the kernel's test output format, Documentation/dev-tools/
// ktap.rst), what kselftest, KernelCI and LKFT read: one test line per
// trampoline entry, state and transition of each spec and target, and one
// per file with bad input.
#include <map>
#include <string>

#include "checker/explore/Scan.h"
#include "checker/report/Report.h"

namespace patchcheck {

// SAFE, and UNSAFE as the spec's `expect = "unsafe"` says (a regression
// case), are "ok"; UNSAFE otherwise, a missed expectation, UNKNOWN (never a
// skip: nothing was proven) and bad input are "not ok", with the reason on
// "# " diagnostic lines before the result line; a transition the baseline
// certifies unchanged is "ok ... # SKIP". `skipped` as for toJunit;
// `objects` (gate --objects): one test per object, "not ok" with its
// findings when a site fails.
std::string toKtap(const RunResults&, const std::map<std::string, std::string>& skipped,
                   const std::vector<ObjectScan>& objects = {});

// The kselftest exit code for a patchcheck exit code: KSFT_PASS (0) for 0,
// KSFT_FAIL (1) for anything else. kselftest reads 2 and 3 as XFAIL and
// XPASS; patchcheck's 2 (bad input) and 3 (UNKNOWN) are neither. KSFT_SKIP
// (4) is never given: an undecided proof is a failure, not a skip.
int kselftestExit(int patchcheckExit);

}  // namespace patchcheck
