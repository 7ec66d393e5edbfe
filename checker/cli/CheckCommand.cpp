// `patchcheck check`: prove each transition of each spec safe, or show why not.
#include <algorithm>
#include <iostream>
#include <set>

#include "checker/cli/FetchChoicesOption.h"
#include "checker/cli/Commands.h"
#include "checker/cli/LimitOptions.h"
#include "checker/cli/TargetOptions.h"
#include "checker/cli/TrampolineDirOption.h"
#include "checker/explore/CheckRun.h"
#include "checker/explore/Checker.h"
#include "checker/explore/Jobs.h"
#include "checker/report/Report.h"

namespace patchcheck {
namespace {

struct CheckArgs {
  std::vector<std::string> specs;
  std::string transition;
  bool times = true;
  bool matrix = false, json = false, verbose = false, summary = false, inlineTrampolines = false;
  Limits limits;
  Budget budget;
  FetchChoices fetchChoices = FetchChoices::Auto;
  unsigned jobs = defaultJobs();
  TargetOptions target;
  TrampolineDirOption trampolines;
};

// The targets a spec runs on: its [target] or matrix, with the command
// line's --isa/--endian/--abi over each (validated as the spec's own);
// targets the override made equal are checked once.
std::variant<std::vector<Target>, Diagnostics> targetsFor(const Spec& spec, const CheckArgs& a) {
  std::vector<Target> out;
  Diagnostics errors;
  for (const Target& base : targetsOf(spec, a.matrix)) {
    auto r = a.target.forSpec(spec, base);
    if (auto* e = std::get_if<Diagnostics>(&r)) {
      errors.insert(errors.end(), e->begin(), e->end());
      continue;
    }
    const Target& t = std::get<Target>(r);
    if (std::none_of(out.begin(), out.end(), [&](const Target& o) { return o.str() == t.str(); }))
      out.push_back(t);
  }
  if (!errors.empty()) return errors;
  return out;
}

// Prints each distinct diagnostic once, in order: a spec line that is wrong
// for every target is one error, not one per target.
void printDistinct(const Diagnostics& ds) {
  std::set<std::string> seen;
  for (const Diagnostic& d : ds)
    if (seen.insert(d.str()).second) std::cerr << d.str() << "\n";
}

int runCheck(const CheckArgs& a) {
  RunResults rr;
  for (auto p : {jobsProblem(a.jobs), a.trampolines.problem()})
    if (p) {
      std::cerr << "<command line>: error: " << *p << "\n";
      rr.errors.push_back({{"<command line>", 0, 0}, *p});
      if (a.json) std::cout << toJson(rr).dump(2) << "\n";
      return 2;
    }
  Progress progress("check");  // each target below is its own checker run with its own Z3 context
  // Every spec is loaded and its targets checked first, in order; the
  // targets of the specs before the first bad one are then checked as one
  // pool of jobs (checkSpecs: a spec with one target would leave a core
  // idle while its trampolines are proven) and printed in order, then that
  // spec's error: what a run one spec after the other prints.
  struct Item {
    Spec spec;
    std::vector<Target> targets;
    CheckOptions opt;
  };
  std::vector<Item> items;
  // The first bad input: stops the run, as a run one spec after the other
  // would; --json still prints a whole document carrying it.
  Diagnostics failure;
  for (const std::string& path : a.specs) {
    auto loaded = loadSpec(path);
    if (auto* e = std::get_if<Diagnostics>(&loaded)) {
      failure = *e;
      break;
    }
    Item item{std::get<Spec>(std::move(loaded)), {}, {}};
    a.trampolines.applyTo(item.spec);
    item.opt.limits = a.limits;
    item.opt.budget = a.budget;
    item.opt.fetchChoices = a.fetchChoices;
    item.opt.inlineTrampolines = a.inlineTrampolines;
    if (!a.transition.empty()) item.opt.transition = a.transition;
    auto targets = targetsFor(item.spec, a);
    if (auto* errors = std::get_if<Diagnostics>(&targets)) {
      failure = *errors;
      break;
    }
    item.targets = std::get<std::vector<Target>>(std::move(targets));
    items.push_back(std::move(item));
  }
  std::vector<SpecCheck> checks;
  for (const Item& item : items) checks.push_back({&item.spec, item.targets, item.opt});
  auto results = checkSpecs(checks, {a.jobs, &progress});
  progress.clear();
  std::vector<const Spec*> specOf;  // of each rr.specs entry
  std::vector<std::string> unchecked;  // specs whose matrix was left out
  for (size_t k = 0; k < items.size(); ++k) {
    if (auto* e = std::get_if<Diagnostics>(&results[k])) {
      failure = *e;
      break;
    }
    for (size_t i = 0; i < items[k].targets.size(); ++i) {
      rr.specs.push_back(std::get<std::vector<SpecResult>>(results[k])[i]);
      rr.targets.push_back(items[k].targets[i]);
      specOf.push_back(&items[k].spec);
      if (!a.json && !a.summary) printSpecResult(std::cout, rr.specs.back(), items[k].targets[i], a.verbose);
    }
    // A spec written for several targets, checked for one: say so, or a
    // SAFE here reads as SAFE everywhere.
    size_t all = targetsOf(items[k].spec, true).size();
    if (!a.matrix && all > items[k].targets.size())
      unchecked.push_back(items[k].spec.path + ": note: checked for " + items[k].targets.front().str() +
                          " alone; its [target] matrix has " + std::to_string(all) +
                          " targets (--matrix checks them all)");
  }
  if (!failure.empty()) {
    printDistinct(failure);
    std::set<std::string> seen;
    for (const Diagnostic& d : failure)
      if (seen.insert(d.str()).second) rr.errors.push_back(d);
    if (!a.json) return 2;
  }
  if (a.json) {
    nlohmann::json j = toJson(rr);
    if (!a.times) dropTimes(j);
    std::cout << j.dump(2) << "\n";
  } else if (a.summary) printSummaryTable(std::cout, rr);
  int code = exitCodeOf(rr);
  std::cout.flush();  // the notes come after the results, on a terminal too
  if (!a.json)
    for (const std::string& n : unchecked) std::cerr << n << "\n";
  if (!a.json && code != 0) {
    // As a compiler says it (file:line: error:), so editors and CI problem
    // matchers find the line; then the count.
    std::vector<std::string> ps = problemDiagnostics(rr, specOf);
    for (const std::string& p : ps) std::cout << p << "\n";
    std::cout << (code == 1 ? "FAIL: " : "UNDECIDED: ") << ps.size() << " item(s) not as expected\n";
  }
  return code;
}

}  // namespace

void addCheckCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand("check", "Prove the transitions of spec files safe, or show a counterexample");
  cmd->add_option("specs", args->specs, "spec files (TOML)")->required();
  cmd->add_option("--transition", args->transition, "only this transition, as FROM->TO");
  cmd->add_flag("--matrix", args->matrix, "every [target] matrix entry, in both endians");
  cmd->add_flag("--json", args->json, "JSON output (docs/json.md), a whole document on every exit code");
  cmd->add_flag("--no-times", [args](int64_t) { args->times = false; },
                "leave wall-clock times out of the JSON (byte-identical reports)");
  cmd->add_flag("--summary", args->summary, "one table row per transition and target");
  cmd->add_flag("-v,--verbose", args->verbose, "also list safe states and notes");
  cmd->add_flag("--inline-trampolines", args->inlineTrampolines,
                "run each trampoline's code inside every pass instead of using its proven contract");
  addLimitOptions(*cmd, args->limits);
  cmd->add_option("--max-executions", args->budget.maxExecutions,
                  "executions one exploration may take before it answers UNKNOWN (default: 200000, or 200 per unit "
                  "of a longer site)")
      ->each([args](const std::string&) { args->budget.executionsScale = false; });
  addFetchChoicesOption(*cmd, args->fetchChoices);
  cmd->add_option("--max-memory", args->budget.maxMemoryMiB, "resident memory (MiB) past which an exploration answers UNKNOWN");
  cmd->add_option("--max-seconds", args->budget.maxSeconds,
                  "wall-clock seconds one exploration may take before it answers UNKNOWN");
  cmd->add_option("-j,--jobs", args->jobs, "specs and matrix entries checked in parallel (default: cores)");
  args->target.addTo(*cmd);
  args->trampolines.addTo(*cmd);
  cmd->callback([args, &exitCode] { exitCode = runCheck(*args); });
}

}  // namespace patchcheck
