#pragma once
// JUnit XML (the Ant/Surefire shape CI servers read): one test suite per
// spec and target, one test case per state check and per transition;
// UNSAFE is a failure, UNKNOWN an error, a transition the baseline already
// certifies is skipped.
#include <map>
#include <string>

#include "checker/report/Report.h"

namespace patchcheck {

// `skipped`: "SPEC TARGET TRANSITION" -> why it was not checked. Bad input
// (rr.errors) is one suite per file with one <error> test case. `times`:
// false leaves out the time attributes (byte-identical reports).
std::string toJunit(const RunResults&, const std::map<std::string, std::string>& skipped, bool times = true);

std::string xmlEscape(const std::string&);

}  // namespace patchcheck
