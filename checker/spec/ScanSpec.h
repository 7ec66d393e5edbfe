#pragma once
// A spec's [scan] table (docs/spec-format.md): how the sites of a compiled
// object relate to the spec, for `patchcheck scan` (docs/scan.md). The
// spec loader checks the table; this reads it back from the spec's text.
#include <map>
#include <optional>
#include <string>

#include "checker/spec/Spec.h"

namespace patchcheck {

struct ScanSpec {
  std::string compiled;  // the state the compiler emits at every site
  long long ip = 0;      // rec->ip, the address ftrace patches, in bytes from F
  // A spec symbol -> the name the object's relocations give it
  // (ftrace_caller = "_mcount": the compiler calls _mcount).
  std::map<std::string, std::string> symbols;
};

// Nothing when the spec has no [scan] table.
std::optional<ScanSpec> scanSpecOf(const Spec&);

}  // namespace patchcheck
