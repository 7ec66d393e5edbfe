#pragma once
// The trampolines a spec names ([trampolines]), for one target: each
// assembly file under the spec's trampoline directory (Spec::trampolineDir:
// the trampolines/ of the spec's tree, or --trampolines DIR; see
// checker/spec/SpecTree.h) with its contract file beside it
// (docs/trampolines.md). A spec path "mips/T.S" picks "mips/T_32.S" or
// "mips/T_64.S" by the target's register width when such a file exists,
// else "mips/T.S" itself; the contract is the chosen file with ".toml"
// for ".S".
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checker/explore/TrampolineRun.h"
#include "checker/explore/TrampolineSite.h"
#include "checker/spec/Spec.h"
#include "checker/spec/TrampolineContract.h"

namespace patchcheck {

// Every entry of every trampoline of a spec, by contract key
// ("ftrace_regs_caller", "ftrace_caller+8").
using TrampolineSet = std::map<std::string, TrampolineCode>;

// The assembly file and contract file a [trampolines] path of `spec` stands
// for on `target` (as paths usable from the working directory); nothing
// when neither exists.
struct TrampolineFiles {
  std::string assembly, contract;
};
std::optional<TrampolineFiles> resolveTrampoline(const Spec&, const std::string& path, const Target&);

// Loads one trampoline's files and assembles it at the spec's symbol for
// the site's target: one TrampolineCode per contract entry.
// With `object` (Spec::trampolineObjects) the code is the object's and
// files.assembly, the source copy, is not read.
std::variant<std::vector<TrampolineCode>, Diagnostics> loadTrampoline(const TrampolineFiles&,
                                                                     const std::string& symbol,
                                                                     const TrampolineSite&,
                                                                     const Spec::TrampolineObject* object = nullptr);

// Every trampoline of the site's spec, assembled, not yet proven.
std::variant<TrampolineSet, Diagnostics> loadTrampolines(const TrampolineSite&);

// The contracts of a set, as loaded (unproven).
std::map<std::string, TrampolineContract> contractsOf(const TrampolineSet&);

}  // namespace patchcheck
