// `patchcheck gate`: the CI mode. Checks specs (with a baseline of certified
// tables, only the transitions that changed) and reports as text, JSON,
// SARIF 2.1.0 or JUnit XML; exit codes as for `check`.
#include <deque>
#include <iostream>
#include <sstream>

#include "checker/cli/FetchChoicesOption.h"
#include "checker/cli/Commands.h"
#include "checker/cli/LimitOptions.h"
#include "checker/cli/OutputFiles.h"
#include "checker/cli/TrampolineDirOption.h"
#include "checker/explore/Jobs.h"
#include "checker/report/Baseline.h"
#include "checker/report/Junit.h"
#include "checker/report/Ktap.h"
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
  OutputFiles files;
  bool matrix = false, kselftestExit = false;
  Limits limits;
  Budget budget;
  FetchChoices fetchChoices = FetchChoices::Auto;
  unsigned jobs = defaultJobs();
  TrampolineDirOption trampolines;
};

// What one gate run found: results, bad input and the baseline's verdicts.
struct GateRun {
  RunResults rr;
  std::deque<Spec> specs;  // stable addresses: specOf points into it
  std::vector<const Spec*> specOf;
  std::map<std::string, std::string> skipped, changed;  // "SPEC TARGET TRANSITION" -> why
  std::vector<ObjectScan> scans;  // --objects
  bool objectsFail = false;
};

void addErrors(RunResults& rr, const Diagnostics& ds) { rr.errors.insert(rr.errors.end(), ds.begin(), ds.end()); }

// Proves every spec that loads; a bad spec (or baseline) is recorded and the
// others are still checked, so every report carries both.
void prove(const GateArgs& a, GateRun& g) {
  RunResults& rr = g.rr;
  std::vector<nlohmann::json> baselines;
  bool useBaseline = false;
  if (!a.baselines.empty()) {
    auto b = loadBaselines(a.baselines);
    if (auto* e = std::get_if<Diagnostic>(&b)) rr.errors.push_back(*e);  // then every transition is checked
    else baselines = std::get<std::vector<nlohmann::json>>(std::move(b)), useBaseline = true;
  }
  Progress progress("gate");
  for (const std::string& path : a.specs) {
    auto loaded = loadSpec(path);
    if (auto* e = std::get_if<Diagnostics>(&loaded)) {
      addErrors(rr, *e);
      continue;
    }
    const Spec& spec = g.specs.emplace_back(std::get<Spec>(std::move(loaded)));
    a.trampolines.applyTo(g.specs.back());
    const nlohmann::json* base = useBaseline ? baselineFor(baselines, spec.name) : nullptr;
    TableOptions topt;
    topt.matrix = a.matrix || (base && (*base)["options"].value("matrix", false));
    topt.limits = a.limits;
    std::vector<Target> targets = targetsOf(spec, topt.matrix);
    std::map<std::string, std::string> changes;
    if (useBaseline && !base) {
      // Nothing to compare: every transition is checked, and a spec with no
      // table form (a RISC-V byte site) is checked as any other.
      for (const Target& t : targets)
        for (const TransitionSpec& tr : spec.transitions)
          changes[changeKey(t.str(), tr.name())] = "no certified table for this spec";
    } else if (useBaseline) {
      auto current = patchTable(spec, targets, std::vector<SpecResult>(targets.size()), topt);
      if (auto* e = std::get_if<Diagnostics>(&current)) {
        addErrors(rr, *e);
        continue;
      }
      changes = changesAgainst(base, std::get<nlohmann::json>(current));
      for (const Target& t : targets)
        for (const TransitionSpec& tr : spec.transitions)
          if (!changes.count(changeKey(t.str(), tr.name())))
            g.skipped[spec.name + " " + changeKey(t.str(), tr.name())] = "unchanged since the certified table";
    }
    TransitionFilter filter;
    if (useBaseline)
      filter = [&](const Target& t, const TransitionSpec& tr) { return changes.count(changeKey(t.str(), tr.name())) > 0; };
    CheckOptions opt;
    opt.limits = a.limits;
    opt.budget = a.budget;
    opt.fetchChoices = a.fetchChoices;
    auto results = checkTargets(spec, targets, opt, {a.jobs, &progress}, filter);
    if (auto* e = std::get_if<Diagnostics>(&results)) {
      addErrors(rr, *e);
      continue;
    }
    auto& rs = std::get<std::vector<SpecResult>>(results);
    for (size_t i = 0; i < targets.size(); ++i) {
      for (TransitionResult& t : rs[i].transitions) {
        auto it = changes.find(changeKey(targets[i].str(), t.transition));
        if (it != changes.end()) {
          t.notes.push_back("baseline: " + it->second);
          g.changed[spec.name + " " + it->first] = it->second;
        }
      }
      rr.specs.push_back(std::move(rs[i]));
      rr.targets.push_back(targets[i]);
      g.specOf.push_back(&spec);
    }
  }
  progress.clear();
}

// --objects: every site of the build must be an instance of a state proven
// SAFE above (docs/scan.md, "gate --objects"). A bad object is bad input of
// the run, as a bad spec is: the reports carry it.
void scanObjects(const GateArgs& a, GateRun& g) {
  if (a.objects.empty()) return;
  std::vector<const Spec*> withScan;
  for (const Spec& s : g.specs)
    if (scanSpecOf(s)) withScan.push_back(&s);
  if (withScan.empty()) {
    g.rr.errors.push_back({{"<command line>", 0, 0}, "--objects needs a spec with a [scan] table (docs/spec-format.md)"});
    return;
  }
  for (const std::string& path : a.objects) {
    auto elf = readElf(path);
    if (auto* e = std::get_if<ElfError>(&elf)) {
      char at[32];
      snprintf(at, sizeof at, "offset 0x%llx: ", (unsigned long long)e->offset);
      g.rr.errors.push_back({{e->file, 0, 0}, at + e->message});
      continue;
    }
    auto scan = scanObject(std::get<ElfObject>(elf), withScan);
    if (auto* e = std::get_if<std::string>(&scan)) {
      std::string prefix = path + ": error: ", why = *e;
      if (why.rfind(prefix, 0) == 0) why = why.substr(prefix.size());
      g.rr.errors.push_back({{path, 0, 0}, why});
      continue;
    }
    g.scans.push_back(std::get<ObjectScan>(std::move(scan)));
  }
  holdSitesToProofs(g.scans, g.rr, g.specOf, g.skipped);
  for (const ObjectScan& o : g.scans) g.objectsFail = g.objectsFail || o.failures() > 0;
}

// The run's exit code: a finding in the build fails it as an UNSAFE does.
int gateCode(const GateRun& g) {
  int code = exitCodeOf(g.rr);
  if (g.objectsFail && (code == 0 || code == 3)) code = 1;
  return code;
}

std::string render(const std::string& format, const GateRun& g, bool times) {
  int code = gateCode(g);
  if (format == "sarif") return toSarif(g.rr, g.specOf, g.scans).dump(2) + "\n";
  if (format == "junit") return toJunit(g.rr, g.skipped, g.scans, times);
  if (format == "ktap") return toKtap(g.rr, g.skipped, g.scans);
  if (format == "json") {
    nlohmann::json j = toJson(g.rr);
    j["gate"] = {{"checked_because", g.changed}, {"skipped", g.skipped}};
    if (!g.scans.empty()) j["gate"]["objects"] = scanJson(g.scans);
    j["exit_code"] = code;
    if (!times) dropTimes(j);
    return j.dump(2) + "\n";
  }
  std::ostringstream o;
  const RunResults& rr = g.rr;
  for (size_t i = 0; i < rr.specs.size(); ++i) printSpecResult(o, rr.specs[i], rr.targets[i], false);
  for (const auto& [key, why] : g.changed) o << "checked: " << key << ": " << why << "\n";
  if (!g.skipped.empty()) o << "skipped " << g.skipped.size() << " transition(s) unchanged since the certified table\n";
  if (!g.scans.empty()) printScanText(o, g.scans);
  o << "gate: " << (code == 0 ? "PASS" : code == 2 ? "ERROR" : code == 3 ? "UNDECIDED" : "FAIL");
  if (code == 2) o << " (" << rr.errors.size() << " input error(s), on standard error)";
  o << "\n";
  for (const std::string& p : problemDiagnostics(rr, g.specOf)) o << p << "\n";
  if (g.objectsFail) o << "the build's sites: see the findings above\n";
  return o.str();
}

int runGate(const GateArgs& a) {
  GateRun g;
  for (auto p : {jobsProblem(a.jobs), a.trampolines.problem()})
    if (p) g.rr.errors.push_back({{"<command line>", 0, 0}, *p});
  if (g.rr.errors.empty()) prove(a, g), scanObjects(a, g);
  for (const Diagnostic& d : g.rr.errors) std::cerr << d.str() << "\n";
  std::cout << render(a.format, g, a.files.times);
  int code = gateCode(g);
  bool written = a.files.write([&](const std::string& format) { return render(format, g, a.files.times); });
  if (!written) code = 2;
  return a.kselftestExit ? kselftestExit(code) : code;
}

}  // namespace

void addGateCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<GateArgs>();
  CLI::App* cmd = app.add_subcommand("gate", "CI mode: check specs (only what changed against a baseline); text, JSON, SARIF, JUnit");
  cmd->add_option("specs", args->specs, "spec files (TOML)")->required();
  cmd->add_option("--objects", args->objects,
                  "ELF objects or vmlinux: every patch site must be an instance of a state proven SAFE here "
                  "(specs with [scan])")
      ->type_name("OBJ ...");
  // One value each (repeat it for more): a vector option would take the
  // specs after it for baselines.
  cmd->add_option("--baseline", args->baselines, "certified tables (table JSON files or directories of them)")
      ->allow_extra_args(false)
      ->type_name("TABLE.json|DIR");
  cmd->add_option("--format", args->format, "what goes to standard output: text | json | sarif | junit | ktap")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit", "ktap"}))
      ->capture_default_str();
  args->files.addTo(*cmd);
  cmd->add_flag("--kselftest-exit", args->kselftestExit,
                "exit as a kselftest does: 0 (KSFT_PASS) when the gate passes, else 1 (KSFT_FAIL)");
  cmd->add_flag("--matrix", args->matrix, "every [target] matrix entry, in both endians");
  addLimitOptions(*cmd, args->limits);
  cmd->add_option("--max-executions", args->budget.maxExecutions,
                  "executions one exploration may take before it answers UNKNOWN (default: 200000, or 200 per unit "
                  "of a longer site)")
      ->each([args](const std::string&) { args->budget.executionsScale = false; });
  addFetchChoicesOption(*cmd, args->fetchChoices);
  cmd->add_option("--max-memory", args->budget.maxMemoryMiB, "resident memory (MiB) past which an exploration answers UNKNOWN");
  cmd->add_option("--max-seconds", args->budget.maxSeconds,
                  "wall-clock seconds one exploration may take before it answers UNKNOWN");
  cmd->add_option("-j,--jobs", args->jobs, "checks in parallel (default: cores)");
  args->trampolines.addTo(*cmd);
  cmd->callback([args, &exitCode] { exitCode = runGate(*args); });
}

}  // namespace patchcheck
