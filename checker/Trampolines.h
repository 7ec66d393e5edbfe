#pragma once
// The contracts of the trampolines a spec names ([trampolines]), for the
// targets it runs on. A trampoline file trampolines/<path> may carry its
// contract in a TOML file beside it (<path>.toml).
#include <z3++.h>

#include <map>
#include <string>
#include <variant>

#include "checker/Spec.h"
#include "checker/TrampolineContract.h"

namespace patchcheck {

std::variant<std::map<std::string, TrampolineContract>, Diagnostics> trampolineContracts(
    const Spec&, const mips::Target&, z3::context&);

}  // namespace patchcheck
