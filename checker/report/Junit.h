#pragma once
// JUnit XML (the Ant/Surefire shape CI servers read): one test suite per
// spec and target, one test case per state check and per transition;
// UNSAFE is a failure, UNKNOWN an error, a transition the baseline already
// certifies is skipped.
#include <map>
#include <string>

#include "checker/explore/Scan.h"
#include "checker/report/Report.h"

namespace patchcheck {

// `skipped`: "SPEC TARGET TRANSITION" -> why it was not checked. Bad input
// (rr.errors) is one suite per file with one <error> test case. `objects`
// (gate --objects): one more suite, a case per object, failed by its
// findings. `times`: false leaves out the time attributes (byte-identical
// reports).
std::string toJunit(const RunResults&, const std::map<std::string, std::string>& skipped,
                    const std::vector<ObjectScan>& objects = {}, bool times = true);

std::string xmlEscape(const std::string&);

}  // namespace patchcheck
