#pragma once
// A batch's transition proven once, on one instance (Batch.h).
#include <optional>
#include <string>

#include "checker/explore/Checker.h"
#include "checker/explore/SiteInstance.h"

namespace patchcheck {

struct BatchAttempt {
  std::optional<TransitionResult> proven;  // SAFE for every instance
  std::string note;                        // what was tried: for the result's notes
};

// Nothing tried (no batch) when the site is not one; otherwise the
// transition proven for one instance at a symbolic offset, or why that
// proof is not SAFE (the caller then explores the whole site).
BatchAttempt proveBatch(const SiteInstance& site, const TransitionSpec&, const CheckOptions&);

// A state on its own, the same way: K copies of one segment are the
// state if one copy at F + d is (what it does where it leaves, and every
// declared behaviour done by some pass).
struct BatchStateAttempt {
  std::optional<StateResult> proven;
  std::string note;
};
BatchStateAttempt proveBatchState(const SiteInstance& site, const StateSpec&, const CheckOptions&);

}  // namespace patchcheck
