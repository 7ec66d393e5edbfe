// `patchcheck table`: certified patch tables (C header and JSON with a
// certificate) for specs whose every state and transition is SAFE, or UNSAFE
// as its `expect = "unsafe"` says (a regression case, recorded apart).
#include <filesystem>
#include <iostream>

#include "checker/cli/Commands.h"
#include "checker/cli/LimitOptions.h"
#include "checker/cli/TrampolineDirOption.h"
#include "checker/explore/Jobs.h"
#include "checker/report/AtomicFile.h"
#include "checker/report/CHeader.h"
#include "checker/report/PatchTable.h"
#include "checker/report/Report.h"

namespace patchcheck {
namespace {

struct TableArgs {
  std::vector<std::string> specs;
  std::string outDir;
  bool matrix = false;
  Limits limits;
  unsigned jobs = defaultJobs();
  TrampolineDirOption trampolines;
};

int runTable(const TableArgs& a) {
  for (auto p : {jobsProblem(a.jobs), a.trampolines.problem()})
    if (p) {
      std::cerr << "<command line>: error: " << *p << "\n";
      return 2;
    }
  TableOptions opt;
  opt.matrix = a.matrix;
  opt.limits = a.limits;
  std::vector<std::pair<std::string, std::string>> files;  // path, bytes: written only when all are SAFE
  bool refused = false;
  Progress progress("table");
  for (const std::string& path : a.specs) {
    auto loaded = loadSpec(path);
    if (auto* e = std::get_if<Diagnostics>(&loaded)) {
      for (const auto& d : *e) std::cerr << d.str() << "\n";
      return 2;
    }
    Spec& spec = std::get<Spec>(loaded);
    a.trampolines.applyTo(spec);
    auto built = buildTable(spec, opt, {a.jobs, &progress});
    progress.clear();
    if (auto* e = std::get_if<Diagnostics>(&built)) {
      for (const auto& d : *e) std::cerr << d.str() << "\n";
      return 2;
    }
    const BuiltTable& b = std::get<BuiltTable>(built);
    if (!b.refusals.empty()) {
      refused = true;
      for (size_t i = 0; i < b.targets.size(); ++i) printSpecResult(std::cout, b.results[i], b.targets[i], false);
      for (const std::string& r : b.refusals) std::cerr << spec.path << ": not SAFE: " << r << "\n";
      continue;
    }
    std::string stem = tableStem(spec.name);
    std::filesystem::path dir(a.outDir);
    files.push_back({(dir / (stem + ".json")).string(), b.json.dump(2) + "\n"});
    files.push_back({(dir / (stem + ".h")).string(), cHeader(b.json, stem + ".json")});
  }
  if (refused) {
    std::cerr << "table: nothing written: every state and transition must be SAFE (or UNSAFE as its expect says)\n";
    return 1;
  }
  std::error_code ec;
  std::filesystem::create_directories(a.outDir, ec);
  for (const auto& [path, bytes] : files) {
    if (auto err = writeFileAtomically(path, bytes)) {
      std::cerr << "table: error: " << *err << "\n";
      return 2;
    }
    std::cout << "wrote " << path << "\n";
  }
  return 0;
}

}  // namespace

void addTableCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<TableArgs>();
  CLI::App* cmd = app.add_subcommand("table", "Write certified patch tables (C header, JSON with certificate)");
  cmd->add_option("specs", args->specs, "spec files (TOML)")->required();
  cmd->add_option("-o,--output", args->outDir, "output directory")->required();
  cmd->add_flag("--matrix", args->matrix, "every [target] matrix entry, in both endians");
  addLimitOptions(*cmd, args->limits);
  cmd->add_option("-j,--jobs", args->jobs, "checks in parallel (default: cores)");
  args->trampolines.addTo(*cmd);
  cmd->callback([args, &exitCode] { exitCode = runTable(*args); });
}

}  // namespace patchcheck
