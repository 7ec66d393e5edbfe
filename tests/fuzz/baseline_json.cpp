// The gate's baseline (checker/report/Baseline.h) on arbitrary bytes: parsed as a
// table file, then compared with the table of a shipped spec as
// `patchcheck gate --baseline` does. Properties: a rejection points at a
// line of the input; for an accepted baseline every change reported is
// about a transition of the current table, and a baseline without the
// spec's name lists every transition as changed. No solver runs: the
// current table is built once without verification results.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <set>

#include "checker/explore/Checker.h"
#include "checker/report/Baseline.h"
#include "checker/report/PatchTable.h"
#include "checker/report/TableFile.h"
#include "tests/fuzz/FuzzProperty.h"

using namespace patchcheck;
using json = nlohmann::json;

namespace {

struct Current {
  std::string specName;
  json table;
  std::set<std::string> keys;  // every "target transition"
};

const Current& current() {
  static const Current c = [] {
    auto loaded = loadSpec(std::string(PATCHCHECK_SOURCE_DIR) + "/specs/mips/mcount-module-64.toml");
    fuzz::require(std::holds_alternative<Spec>(loaded), "the shipped spec loads");
    const Spec& spec = std::get<Spec>(loaded);
    TableOptions opt;
    opt.matrix = true;
    std::vector<Target> targets = targetsOf(spec, opt.matrix);
    auto t = patchTable(spec, targets, std::vector<SpecResult>(targets.size()), opt);
    fuzz::require(std::holds_alternative<json>(t), "the shipped spec has a table");
    Current out{spec.name, std::get<json>(t), {}};
    for (const json& target : out.table["targets"])
      for (const json& tr : target["transitions"]) out.keys.insert(changeKey(target["target"], tr["name"]));
    fuzz::require(changesAgainst(&out.table, out.table).empty(), "a table has no changes against itself");
    return out;
  }();
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Current& now = current();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string path = "fuzz_baseline.json";
  auto parsed = parseTableFile(text, path);
  if (auto* e = std::get_if<Diagnostic>(&parsed)) {
    fuzz::requireLocated({*e}, path, text);
    return 0;
  }
  std::vector<json> baselines{std::get<json>(std::move(parsed))};
  const json* base = baselineFor(baselines, now.specName);
  (void)(base && (*base)["options"].value("matrix", false));  // as runGate reads it
  std::map<std::string, std::string> changes = changesAgainst(base, now.table);
  for (const auto& [key, why] : changes) {
    fuzz::require(now.keys.count(key) == 1, "a change names a transition of the current table", key);
    fuzz::require(!why.empty(), "a change says what changed", key);
  }
  if (!base) fuzz::require(changes.size() == now.keys.size(), "without a baseline every transition is checked");
  return 0;
}
