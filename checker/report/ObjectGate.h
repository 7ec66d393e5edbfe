#pragma once
// gate --objects (docs/scan.md): a build's sites held to what the gate
// proved. A site that is an instance of a state the gate did not prove is
// a finding, as is every finding of the scan itself. A state is proven
// when a transition out of it was proven SAFE (or skipped as certified by
// the baseline) and no transition into or out of it, nor its own check, is
// UNKNOWN or other than the spec expects.
#include <map>
#include <string>
#include <vector>

#include "checker/explore/Scan.h"
#include "checker/report/Report.h"

namespace patchcheck {

// `specOf[i]` is the spec of rr.specs[i]; `skipped` is gate's map of
// transitions left out as unchanged since the certified table.
void holdSitesToProofs(std::vector<ObjectScan>&, const RunResults&, const std::vector<const Spec*>& specOf,
                       const std::map<std::string, std::string>& skipped);

}  // namespace patchcheck
