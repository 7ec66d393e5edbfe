#pragma once
// verify-table --object OBJ (docs/scan.md): every site of the build is the
// table's initial state, the state its spec's [scan] says the compiler
// emits, which the table must hold certified SAFE on a target.
#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "checker/spec/Spec.h"

namespace patchcheck {

// The differences found (each printed on `out`), or an input error (exit 2)
// printed on `err`.
std::optional<unsigned> objectDifferences(const Spec&, const nlohmann::json& table, const std::vector<std::string>& objects,
                                          std::ostream& out, std::ostream& err);

}  // namespace patchcheck
