// `patchcheck litmus` against herd7 on the same tests: herdtools7's
// aarch64-ifetch catalogue (HERD7_CATALOGUE=<herdtools7>/catalogue/aarch64-ifetch),
// else the copies shipped in tests/data/litmus/ifetch. patchcheck runs
// every test as the command does (parsed, then run in the one Z3 context
// and litmus session of the run, whose creation and deletion the totals
// include);
// herd7 (HERD7=<binary>) runs once, as a child process, on exactly the
// tests patchcheck accepts, with the catalogue's model and configuration.
// Prints times (wall and CPU) and verdict disagreements by test name (the
// verdict as herd7 prints it: the Observation, Never, Sometimes or Always,
// of the condition the test states), and against kinds.txt when there is
// one (HERD7_KINDS=<file> names another).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/Herd7Catalogue.h"
#include "bench/Herd7Process.h"
#include "bench/Measure.h"
#include "checker/litmus/LitmusParser.h"
#include "checker/litmus/LitmusRun.h"

namespace patchcheck::bench {

namespace {

struct PatchcheckAnswer {
  std::string file, name;
  bool accepted = false;
  std::string quantifier;            // exists, ~exists, forall
  std::string verdict, observation;  // Allowed ..., Never ...
  unsigned positive = 0, negative = 0;
  std::string refusal;               // the first diagnostic's message
  double wall = 0, cpu = 0;
};

// As `patchcheck litmus FILE` does it (checker/cli/LitmusCommand.cpp).
PatchcheckAnswer answer(const std::string& file, litmus::LitmusSession& session) {
  PatchcheckAnswer a;
  a.file = file;
  double c0 = cpuSeconds();
  auto w0 = std::chrono::steady_clock::now();
  auto parsed = litmus::loadLitmus(file);
  std::variant<litmus::LitmusResult, Diagnostics> r = Diagnostics{};
  if (auto* d = std::get_if<Diagnostics>(&parsed)) {
    r = *d;
  } else {
    a.name = std::get<litmus::Test>(parsed).name;
    r = litmus::runLitmus(std::get<litmus::Test>(parsed), session);
  }
  a.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  a.cpu = cpuSeconds() - c0;
  if (auto* ok = std::get_if<litmus::LitmusResult>(&r)) {
    a.accepted = true;
    a.quantifier = ok->quantifier, a.verdict = ok->verdict, a.observation = ok->observation;
    a.positive = ok->positive, a.negative = ok->negative;
  } else if (!std::get<Diagnostics>(r).empty()) {
    a.refusal = std::get<Diagnostics>(r).front().message;
  }
  return a;
}

// A refusal's message with the instruction it starts with ('STR W0,[X1]')
// blanked, so refusals for the same reason count together.
std::string reason(const std::string& message) {
  std::string out = message;
  size_t close = out.find("' ", 1);
  if (out.rfind('\'', 0) == 0 && close != std::string::npos) out = "'...'" + out.substr(close + 1);
  return out.size() > 110 ? out.substr(0, 107) + "..." : out;
}

void printRefusals(const std::vector<PatchcheckAnswer>& all) {
  std::map<std::string, unsigned> counts;
  for (const PatchcheckAnswer& a : all)
    if (!a.accepted) ++counts[reason(a.refusal)];
  std::vector<std::pair<unsigned, std::string>> byCount;
  for (const auto& [r, n] : counts) byCount.push_back({n, r});
  std::sort(byCount.rbegin(), byCount.rend());
  for (size_t k = 0; k < byCount.size() && k < 8; ++k)
    std::printf("herd7:   refused %3u x %s\n", byCount[k].first, byCount[k].second.c_str());
  if (byCount.size() > 8) std::printf("herd7:   refused ... and %zu other reasons\n", byCount.size() - 8);
}

// The word herd7 prints after "Test NAME" for a condition's quantifier.
std::string herdKind(const std::string& quantifier) {
  return quantifier == "exists" ? "Allowed" : quantifier == "~exists" ? "Forbidden" : "Required";
}

// herd7's answers lined up with the files it was given: it answers in
// command-line order and prints nothing for a file it rejects. Names are
// not unique (two catalogue files share a header), so by position.
std::vector<const Herd7Answer*> lineUp(const std::vector<const PatchcheckAnswer*>& tests, const Herd7Run& run) {
  std::vector<const Herd7Answer*> out(tests.size(), nullptr);
  size_t next = 0;
  for (const Herd7Answer& h : run.answers) {
    size_t k = next;
    while (k < tests.size() && tests[k]->name != h.name) ++k;
    if (k == tests.size()) continue;
    out[k] = &h;
    next = k + 1;
  }
  return out;
}

void compareWithHerd7(const std::string& binary, const Herd7Catalogue& cat,
                      const std::vector<const PatchcheckAnswer*>& accepted, double pcWall, double pcCpu) {
  Herd7Run version = runHerd7(binary, {"-version"});
  std::vector<std::string> args = cat.herdFlags;
  for (const PatchcheckAnswer* a : accepted) args.push_back(a->file);
  Herd7Run run = runHerd7(binary, args);
  if (!run.started) {
    std::printf("herd7: herd7 not run (%s); patchcheck's figures only\n", run.error.c_str());
    return;
  }
  std::string flags;
  for (const std::string& f : cat.herdFlags) flags += " " + std::filesystem::path(f).filename().string();
  std::printf("herd7: herd7 %s (%s%s, one process): %zu answers in %.2f s wall, %.2f s CPU, exit %d\n",
              version.firstOtherLine.c_str(), binary.c_str(), flags.c_str(), run.answers.size(), run.wallSeconds,
              run.cpuSeconds, run.exitStatus);
  if (!run.firstOtherLine.empty()) std::printf("herd7:   herd7 also said: %s\n", run.firstOtherLine.c_str());
  std::printf("herd7: patchcheck / herd7 on the %zu accepted tests: %.2f (wall), %.2f (CPU)\n", accepted.size(),
              pcWall / run.wallSeconds, pcCpu / run.cpuSeconds);

  auto herd = lineUp(accepted, run);
  unsigned agree = 0, differ = 0, unanswered = 0;
  for (size_t k = 0; k < accepted.size(); ++k) {
    const PatchcheckAnswer& a = *accepted[k];
    if (!herd[k]) {
      ++unanswered;
      bool named = std::any_of(accepted.begin(), accepted.begin() + long(k),
                               [&](const PatchcheckAnswer* b) { return b->name == a.name; });
      std::printf("herd7:   no herd7 answer%s: %s\n",
                  named ? " (herd7 runs one test per name, and an earlier file has this one's)" : "", a.file.c_str());
    } else if (herd[k]->kind == herdKind(a.quantifier) && herd[k]->observation == a.observation) {
      ++agree;
    } else {
      ++differ;
      std::printf("herd7:   differ %s (%s): patchcheck %s %s %u %u, herd7 %s %s %u %u\n", a.name.c_str(),
                  a.file.c_str(), herdKind(a.quantifier).c_str(), a.observation.c_str(), a.positive, a.negative,
                  herd[k]->kind.c_str(), herd[k]->observation.c_str(), herd[k]->positive, herd[k]->negative);
    }
  }
  std::printf("herd7: verdicts against herd7: %u agree, %u differ, %u unanswered by herd7\n", agree, differ,
              unanswered);

  // The same herd7 on every test of the folder, for scale.
  std::vector<std::string> everything = cat.herdFlags;
  everything.insert(everything.end(), cat.files.begin(), cat.files.end());
  Herd7Run all = runHerd7(binary, everything);
  std::printf("herd7: herd7 on all %zu tests: %zu answers in %.2f s wall, %.2f s CPU\n", cat.files.size(),
              all.answers.size(), all.wallSeconds, all.cpuSeconds);
}

void compareWithKinds(const Herd7Catalogue& cat, const std::vector<const PatchcheckAnswer*>& accepted) {
  if (cat.kinds.empty()) {
    std::printf("herd7: no kinds.txt (tests/kinds.txt or HERD7_KINDS): verdicts not compared with herd7's published ones\n");
    return;
  }
  unsigned agree = 0, differ = 0, absent = 0;
  for (const PatchcheckAnswer* a : accepted) {
    auto it = cat.kinds.find(a->name);
    if (it == cat.kinds.end()) ++absent;
    else if (it->second == a->verdict) ++agree;
    else {
      ++differ;
      std::printf("herd7:   differ from kinds.txt %s (%s): patchcheck %s, kinds.txt %s\n", a->name.c_str(),
                  a->file.c_str(), a->verdict.c_str(), it->second.c_str());
    }
  }
  std::printf("herd7: verdicts against %s: %u agree, %u differ, %u not listed\n", cat.kindsPath.c_str(), agree,
              differ, absent);
}

}  // namespace

void herd7() {
  const char* dirEnv = std::getenv("HERD7_CATALOGUE");
  const char* kindsEnv = std::getenv("HERD7_KINDS");
  Herd7Catalogue cat = readHerd7Catalogue(dirEnv ? dirEnv : "tests/data/litmus/ifetch", kindsEnv ? kindsEnv : "");
  if (cat.files.empty()) {
    std::printf("herd7: no .litmus files under %s\n", cat.dir.c_str());
    return;
  }

  std::vector<PatchcheckAnswer> all;
  // The run's context, made and deleted in the timed span (as the command
  // does: checker/cli/LitmusCommand.cpp).
  double c0 = cpuSeconds();
  auto w0 = std::chrono::steady_clock::now();
  auto ctx = std::make_unique<z3::context>();
  double contextWall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  double contextCpu = cpuSeconds() - c0;
  auto session = std::make_unique<litmus::LitmusSession>(*ctx);
  for (const std::string& f : cat.files) all.push_back(answer(f, *session));
  c0 = cpuSeconds();
  w0 = std::chrono::steady_clock::now();
  session.reset();
  ctx.reset();
  contextWall += std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  contextCpu += cpuSeconds() - c0;
  std::vector<const PatchcheckAnswer*> accepted;
  double wall = contextWall, cpu = contextCpu, refusedWall = 0;
  std::vector<double> each;
  for (const PatchcheckAnswer& a : all) {
    if (!a.accepted) {
      refusedWall += a.wall;
      continue;
    }
    accepted.push_back(&a);
    wall += a.wall, cpu += a.cpu;
    each.push_back(a.wall);
  }
  std::sort(each.begin(), each.end());
  const PatchcheckAnswer* worst = nullptr;
  for (const PatchcheckAnswer* a : accepted)
    if (!worst || a->wall > worst->wall) worst = a;
  std::printf("herd7: %zu tests under %s: patchcheck accepts %zu, refuses %zu (%.2f s spent refusing)\n",
              cat.files.size(), cat.dir.c_str(), accepted.size(), all.size() - accepted.size(), refusedWall);
  printRefusals(all);
  if (accepted.empty()) return;
  std::printf("herd7: patchcheck litmus on the %zu accepted: %.2f s wall, %.2f s CPU (median %.1f ms, worst %.0f ms: %s; "
              "the run's Z3 context made and deleted: %.0f ms)\n",
              accepted.size(), wall, cpu, each[each.size() / 2] * 1000, worst->wall * 1000, worst->name.c_str(),
              contextWall * 1000);

  const char* binary = std::getenv("HERD7");
  if (!binary || !*binary) std::printf("herd7: HERD7 unset: herd7 not run; patchcheck's figures only\n");
  else if (!std::filesystem::is_regular_file(binary))
    std::printf("herd7: HERD7=%s: no such file: herd7 not run; patchcheck's figures only\n", binary);
  else compareWithHerd7(binary, cat, accepted, wall, cpu);
  compareWithKinds(cat, accepted);
}

}  // namespace patchcheck::bench
