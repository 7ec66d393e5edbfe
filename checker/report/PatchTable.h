#pragma once
// A certified patch table: per target (ISA/endian/ABI) the words of each
// state and, per transition, the ordered writes with the barriers between,
// each transition's verification summary, and the certificate. Built from
// check results that are all SAFE, but for regression cases the spec
// expects UNSAFE (listed apart, not certified); the C header and the JSON file are two
// renderings of the same table (checker/report/CHeader.h renders the header from
// the JSON, so they cannot disagree).
#include <nlohmann/json.hpp>

#include <string>
#include <variant>
#include <vector>

#include "checker/explore/CheckRun.h"
#include "checker/explore/Verdict.h"

namespace patchcheck {

struct TableOptions {
  bool matrix = false;
  Limits limits;
};

// Why a run cannot become a table: each trampoline that is not SAFE, each
// state or transition that is neither SAFE nor UNSAFE as its `expect =
// "unsafe"` says. Those expected UNSAFE are the target's "regressions":
// named with their verdict, never certified (no words, no steps).
std::vector<std::string> tableRefusals(const std::vector<SpecResult>&, const std::vector<Target>&);

// The table as JSON (keys sorted, no timings: the same inputs give the same
// bytes). `results` has one entry per target; a transition without a result
// is listed without its verification.
std::variant<nlohmann::json, Diagnostics> patchTable(const Spec&, const std::vector<Target>&,
                                                     const std::vector<SpecResult>&, const TableOptions&);

// Checks a spec on its targets ([target], or the matrix) and makes its table;
// `refusals` lists what is not SAFE, and then `json` is empty.
struct BuiltTable {
  std::vector<Target> targets;
  std::vector<SpecResult> results;
  std::vector<std::string> refusals;
  nlohmann::json json;
};
std::variant<BuiltTable, Diagnostics> buildTable(const Spec&, const TableOptions&, const RunControl&);

// A transition's verification (its "verification" member) in one line:
// "SAFE: 3 intermediate states, 25 executions, 12 paths, 27 queries, all unsat".
std::string verificationText(const nlohmann::json& verification);

// File name stem and C identifier prefix from the spec's name.
std::string tableStem(const std::string& specName);

}  // namespace patchcheck
