#pragma once
// SARIF 2.1.0 (OASIS) for code-scanning annotations: one result per state
// or transition that is not SAFE (or missed its `expect`), located at the
// spec line of the offending transition or step.
#include <nlohmann/json.hpp>

#include <vector>

#include "checker/explore/Scan.h"
#include "checker/report/Report.h"

namespace patchcheck {

// `specs[i]` is the spec of rr.specs[i] (for state lines).
// `objects` (gate --objects): a result per finding of their scans, at
// the object file and the function and offset (a logical location).
nlohmann::json toSarif(const RunResults&, const std::vector<const Spec*>& specs,
                       const std::vector<ObjectScan>& objects = {});

}  // namespace patchcheck
