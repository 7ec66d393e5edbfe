#pragma once
// What loading a trampoline needs of the site that calls it: the spec and
// target, the Z3 context, the site's symbol terms and placement constraints
// so far, and the bytes the site and its body span. A view, not the whole
// SiteInstance: SiteInstance::make loads its trampolines while it is being
// built, so Trampolines.h must not need SiteInstance.h.
#include <z3++.h>

#include <map>
#include <string>
#include <vector>

#include "checker/spec/Spec.h"
#include "encoder/Target.h"

namespace patchcheck {

struct TrampolineSite {
  const Spec& spec;
  const Target& target;
  z3::context& ctx;
  const std::map<std::string, z3::expr>& symbols;  // address terms of the spec's symbols, F included
  const std::vector<z3::expr>& constraints;        // the site's placement constraints
  // The bytes from F the site, its body and the unit after them span.
  int64_t regionStart = 0, regionEnd = 0;
  unsigned timeoutMs = 20000;  // --timeout for the placement questions
  bool encodingsChecked = false;  // an earlier load of the same spec and target found they fit (SiteChecks)

  z3::expr symbol(const std::string& name) const { return symbols.at(name); }
};

}  // namespace patchcheck
