// `patchcheck verify-table`: re-derives a patch table from its spec and
// sources (words, order, digests, verdicts) and fails on any difference.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "checker/CHeader.h"
#include "checker/Commands.h"
#include "checker/Jobs.h"
#include "checker/PatchTable.h"
#include "checker/TableFile.h"

namespace patchcheck {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct VerifyArgs {
  std::string table, spec;
  unsigned jobs = defaultJobs();
};

std::optional<std::string> readFile(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string shortValue(const json& j) {
  std::string s = j.dump();
  return s.size() > 70 ? s.substr(0, 67) + "..." : s;
}

int runVerify(const VerifyArgs& a) {
  auto read = loadTableFile(a.table);
  if (auto* e = std::get_if<Diagnostic>(&read)) {
    std::cerr << e->str() << "\n";
    return 2;
  }
  const json recorded = std::get<json>(std::move(read));
  // The members read here are there, of these types (checker/TableFile.h).
  const std::string recordedPath = recorded.at("spec").at("path").get<std::string>();
  std::string specPath = !a.spec.empty() ? a.spec : recordedPath;
  auto loaded = loadSpec(specPath);
  if (auto* e = std::get_if<Diagnostics>(&loaded)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  Spec spec = std::get<Spec>(std::move(loaded));
  spec.path = recordedPath;  // the table names the spec as it was given
  TableOptions opt;
  opt.matrix = recorded.at("options").at("matrix").get<bool>();
  opt.timeoutMs = recorded.at("certificate").at("model").at("solver_timeout_ms").get<unsigned>();
  Progress progress("verify-table");
  auto built = buildTable(spec, opt, {a.jobs, &progress});
  progress.clear();
  if (auto* e = std::get_if<Diagnostics>(&built)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  const BuiltTable& b = std::get<BuiltTable>(built);
  unsigned differences = 0;
  for (const std::string& r : b.refusals) {
    std::cout << "verdict differs: now not SAFE: " << r << "\n";
    ++differences;
  }
  if (b.refusals.empty()) {
    for (const json& op : json::diff(recorded, b.json)) {
      std::string path = op["path"];
      std::string what = op["op"];
      json was = recorded.contains(json::json_pointer(path)) ? recorded[json::json_pointer(path)] : json();
      if (what == "replace")
        std::cout << "differs at " << path << ": table has " << shortValue(was) << ", re-derived "
                  << shortValue(op["value"]) << "\n";
      else if (what == "add")
        std::cout << "missing from the table at " << path << ": " << shortValue(op["value"]) << "\n";
      else
        std::cout << "not re-derived at " << path << ": " << shortValue(was) << "\n";
      if (++differences >= 50) break;
    }
    fs::path header = fs::path(a.table).replace_extension(".h");
    if (auto h = readFile(header.string())) {
      if (*h != cHeader(b.json, fs::path(a.table).filename().string())) {
        std::cout << "differs: " << header.string() << " is not the header of the re-derived table\n";
        ++differences;
      }
    }
  }
  if (differences) {
    std::cout << a.table << ": FAILED: " << differences << " difference(s) from the re-derived table\n";
    return 1;
  }
  std::cout << a.table << ": OK: words, order, digests and verdicts re-derived from " << specPath << "\n";
  return 0;
}

}  // namespace

void addVerifyTableCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* cmd = app.add_subcommand("verify-table", "Re-derive a patch table from its spec and sources; fail on any difference");
  cmd->add_option("table", args->table, "the table's JSON file")->required();
  cmd->add_option("--spec", args->spec, "the spec file, when not at the path the table records");
  cmd->add_option("-j,--jobs", args->jobs, "checks in parallel (default: cores)");
  cmd->callback([args, &exitCode] { exitCode = runVerify(*args); });
}

}  // namespace patchcheck
