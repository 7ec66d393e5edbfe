#pragma once
// What a CALL_OPS contract ([call_ops], docs/trampolines.md) lets a run
// assume of the struct ftrace_ops F's literal points to: ops->func holds the
// callback and ops->direct_call is 0 or the direct trampoline, the struct
// is kernel data apart from F's literal and from the 64 KiB below F's sp.
// One definition for both ways a site check treats the trampoline: the
// modular proof (for a symbolic struct) and `check --inline-trampolines`
// (for each struct the site's literal names), so that they assume the same.
#include <z3++.h>

#include <string>
#include <vector>

#include "checker/explore/AddressFacts.h"
#include "checker/explore/TrampolineRun.h"
#include "model/MachineState.h"

namespace patchcheck {

struct CallOpsFacts {
  std::vector<z3::expr> assumptions;  // for the prover
  std::vector<ApartRanges> apart;     // the same ranges, for AddressFacts (assumed too)
};

// Writes the struct at `ops` into each of `states` (as F's own memory: no
// candidate for an exception's clobbering) and returns what must be
// assumed with it. `name` tells this struct's fresh direct_call apart.
CallOpsFacts storeCallOps(const TrampolineCode& code, const z3::expr& ops, const std::string& name,
                          const std::vector<MachineState*>& states, const z3::expr& entrySp, unsigned pointerBytes);

}  // namespace patchcheck
