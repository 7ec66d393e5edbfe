// `patchcheck gate`: the CI mode. Checks specs (with a baseline of certified
// tables, only the transitions that changed) and reports as text, JSON,
// SARIF 2.1.0 or JUnit XML; exit codes as for `check`.
#include <iostream>

#include "checker/cli/FetchChoicesOption.h"
#include "checker/cli/Commands.h"
#include "checker/cli/LimitOptions.h"
#include "checker/cli/TrampolineDirOption.h"
#include "checker/explore/Jobs.h"
#include "checker/report/Baseline.h"
#include "checker/report/Junit.h"
#include "checker/report/ObjectGate.h"
#include "checker/report/ScanReport.h"
#include "checker/spec/ScanSpec.h"
#include "checker/report/PatchTable.h"
#include "checker/report/Report.h"
#include "checker/report/Sarif.h"

namespace patchcheck {
namespace {

struct GateArgs {
  std::vector<std::string> specs, baselines, objects;
  std::string format = "text";
  bool matrix = false;
  Limits limits;
  Budget budget;
  FetchChoices fetchChoices = FetchChoices::Auto;
  unsigned jobs = defaultJobs();
  TrampolineDirOption trampolines;
};

void fail(const Diagnostics& ds) {
  for (const auto& d : ds) std::cerr << d.str() << "\n";
}

int runGate(const GateArgs& a) {
  for (auto p : {jobsProblem(a.jobs), a.trampolines.problem()})
    if (p) {
      std::cerr << "<command line>: error: " << *p << "\n";
      return 2;
    }
  std::vector<nlohmann::json> baselines;
  if (!a.baselines.empty()) {
    auto b = loadBaselines(a.baselines);
    if (auto* e = std::get_if<Diagnostic>(&b)) {
      std::cerr << e->str() << "\n";
      return 2;
    }
    baselines = std::get<std::vector<nlohmann::json>>(std::move(b));
  }
  std::vector<Spec> specs;
  for (const std::string& path : a.specs) {
    auto loaded = loadSpec(path);
    if (auto* e = std::get_if<Diagnostics>(&loaded)) return fail(*e), 2;
    specs.push_back(std::get<Spec>(std::move(loaded)));
    a.trampolines.applyTo(specs.back());
  }
  RunResults rr;
  std::vector<const Spec*> specOf;
  std::map<std::string, std::string> skipped, changed;  // "SPEC TARGET TRANSITION" -> why
  Progress progress("gate");
  for (const Spec& spec : specs) {
    const nlohmann::json* base = baselineFor(baselines, spec.name);
    TableOptions topt;
    topt.matrix = a.matrix || (base && (*base)["options"].value("matrix", false));
    topt.limits = a.limits;
    std::vector<Target> targets = targetsOf(spec, topt.matrix);
    std::map<std::string, std::string> changes;
    if (!a.baselines.empty()) {
      auto current = patchTable(spec, targets, std::vector<SpecResult>(targets.size()), topt);
      if (auto* e = std::get_if<Diagnostics>(&current)) return fail(*e), 2;
      changes = changesAgainst(base, std::get<nlohmann::json>(current));
      for (const Target& t : targets)
        for (const TransitionSpec& tr : spec.transitions)
          if (!changes.count(changeKey(t.str(), tr.name())))
            skipped[spec.name + " " + changeKey(t.str(), tr.name())] = "unchanged since the certified table";
    }
    TransitionFilter filter;
    if (!a.baselines.empty())
      filter = [&](const Target& t, const TransitionSpec& tr) { return changes.count(changeKey(t.str(), tr.name())) > 0; };
    CheckOptions opt;
    opt.limits = a.limits;
    opt.budget = a.budget;
    opt.fetchChoices = a.fetchChoices;
    auto results = checkTargets(spec, targets, opt, {a.jobs, &progress}, filter);
    if (auto* e = std::get_if<Diagnostics>(&results)) return fail(*e), 2;
    auto& rs = std::get<std::vector<SpecResult>>(results);
    for (size_t i = 0; i < targets.size(); ++i) {
      for (TransitionResult& t : rs[i].transitions) {
        auto it = changes.find(changeKey(targets[i].str(), t.transition));
        if (it != changes.end()) {
          t.notes.push_back("baseline: " + it->second);
          changed[spec.name + " " + it->first] = it->second;
        }
      }
      rr.specs.push_back(std::move(rs[i]));
      rr.targets.push_back(targets[i]);
      specOf.push_back(&spec);
    }
  }
  progress.clear();
  // --objects: every site of the build must be an instance of a state
  // proven SAFE above (docs/scan.md, "gate --objects").
  std::vector<ObjectScan> scans;
  bool objectsFail = false;
  if (!a.objects.empty()) {
    std::vector<const Spec*> withScan;
    for (const Spec& s : specs)
      if (scanSpecOf(s)) withScan.push_back(&s);
    if (withScan.empty()) {
      std::cerr << "<command line>: error: --objects needs a spec with a [scan] table (docs/spec-format.md)\n";
      return 2;
    }
    for (const std::string& path : a.objects) {
      auto elf = readElf(path);
      if (auto* e = std::get_if<ElfError>(&elf)) return std::cerr << e->str() << "\n", 2;
      auto scan = scanObject(std::get<ElfObject>(elf), withScan);
      if (auto* e = std::get_if<std::string>(&scan)) return std::cerr << *e << "\n", 2;
      scans.push_back(std::get<ObjectScan>(std::move(scan)));
    }
    holdSitesToProofs(scans, rr, specOf, skipped);
    for (const ObjectScan& o : scans) objectsFail = objectsFail || o.failures() > 0;
  }
  int code = exitCodeOf(rr);
  if (objectsFail && (code == 0 || code == 3)) code = 1;
  if (a.format == "sarif") {
    std::cout << toSarif(rr, specOf, scans).dump(2) << "\n";
  } else if (a.format == "junit") {
    std::cout << toJunit(rr, skipped, scans);
  } else if (a.format == "json") {
    nlohmann::json j = toJson(rr);
    j["gate"] = {{"checked_because", changed}, {"skipped", skipped}};
    if (!scans.empty()) j["gate"]["objects"] = scanJson(scans), j["exit_code"] = code;
    std::cout << j.dump(2) << "\n";
  } else {
    for (size_t i = 0; i < rr.specs.size(); ++i) printSpecResult(std::cout, rr.specs[i], rr.targets[i], false);
    for (const auto& [key, why] : changed) std::cout << "checked: " << key << ": " << why << "\n";
    if (!skipped.empty())
      std::cout << "skipped " << skipped.size() << " transition(s) unchanged since the certified table\n";
    if (!scans.empty()) printScanText(std::cout, scans);
    std::cout << "gate: " << (code == 0 ? "PASS" : code == 3 ? "UNDECIDED" : "FAIL") << "\n";
    for (const std::string& p : problems(rr)) std::cout << "  " << p << "\n";
    if (objectsFail) std::cout << "  the build's sites: see the findings above\n";
  }
  return code;
}

}  // namespace

void addGateCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<GateArgs>();
  CLI::App* cmd = app.add_subcommand("gate", "CI mode: check specs (only what changed against a baseline); text, JSON, SARIF, JUnit");
  cmd->add_option("specs", args->specs, "spec files (TOML)")->required();
  cmd->add_option("--objects", args->objects,
                  "ELF objects or vmlinux: every patch site must be an instance of a state proven SAFE here "
                  "(specs with [scan])");
  cmd->add_option("--baseline", args->baselines, "certified tables (table JSON files or directories of them)");
  cmd->add_option("--format", args->format, "text | json | sarif | junit")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit"}));
  cmd->add_flag("--matrix", args->matrix, "every [target] matrix entry, in both endians");
  addLimitOptions(*cmd, args->limits);
  cmd->add_option("--max-executions", args->budget.maxExecutions,
                  "executions one exploration may take before it answers UNKNOWN");
  addFetchChoicesOption(*cmd, args->fetchChoices);
  cmd->add_option("--max-memory", args->budget.maxMemoryMiB, "resident memory (MiB) past which an exploration answers UNKNOWN");
  cmd->add_option("--max-seconds", args->budget.maxSeconds,
                  "wall-clock seconds one exploration may take before it answers UNKNOWN");
  cmd->add_option("-j,--jobs", args->jobs, "checks in parallel (default: cores)");
  args->trampolines.addTo(*cmd);
  cmd->callback([args, &exitCode] { exitCode = runGate(*args); });
}

}  // namespace patchcheck
