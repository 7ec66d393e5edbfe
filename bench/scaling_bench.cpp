// How the check of one transition grows with the words it writes (issue
// 16): k words, nop -> `daddiu at, at, 1` each, written one by one and
// then one flush, so every mix of old and new words is a state a pass may
// fetch (2^k of them today). One row per k = 2, 4, ..., 24 under the
// fetch models `weak` and `stale`; each spec is generated as TOML text and
// parsed by the spec loader, and each row is one `checkTransition` as
// `patchcheck check` runs it (the states alone not included), in a child
// process stopped after kRowSeconds. Times are the check's own (parsing
// and placing the site left out), wall and the child's CPU time; a
// stopped row's wall time counts from the fork. The execution budget
// (--max-executions) is lifted: time caps a row, not a count.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <variant>

#include "bench/ChildRun.h"
#include "bench/Measure.h"
#include "checker/explore/Checker.h"
#include "checker/explore/SiteInstance.h"

namespace patchcheck::bench {
namespace {

// Each row may take this long (wall time, parsing and placing the site
// included) before it is stopped; a model's column stops after a row that
// is stopped or UNKNOWN, since the next one could only be so too.
constexpr unsigned kRowSeconds = 20;
constexpr unsigned long kBudgetMiB = 4096;
constexpr unsigned kMaxWords = 24;

std::string quotedList(unsigned count, const std::string& item) {
  std::string s = "[";
  for (unsigned k = 0; k < count; ++k) s += (k ? ", \"" : "\"") + item + "\"";
  return s + "]";
}

// The spec a user would write for k words under `fetch`.
std::string specText(unsigned words, const char* fetch) {
  std::string steps = "[";
  for (unsigned k = 0; k < words; ++k) steps += "\"write " + std::to_string(k) + "\", ";
  steps += "\"flush\"]";
  std::string n = std::to_string(words);
  return "schema = 1\n"
         "name = \"scale-" + n + "\"\n"
         "[target]\nisa = \"mips64r2\"\nendian = \"big\"\nabi = \"n64\"\n"
         "[model]\nfetch = \"" + fetch + "\"\n"
         "[site]\nfunction = \"F\"\nwords = " + n + "\n"
         "[symbols]\nF = { in = \"kernel-text\", align = 4 }\n"
         "[states]\nold = " + quotedList(words, "nop") + "\nnew = " + quotedList(words, "daddiu at, at, 1") + "\n"
         "[behaviour]\nold = \"untraced\"\nnew = \"untraced\"\n"
         "[[transition]]\nfrom = \"old\"\nto = \"new\"\nsteps = " + steps + "\nexpect = \"safe\"\n";
}

struct Row {
  bool ran = false;        // false: the spec did not load (printed), or the child died
  bool timedOut = false;   // killed at kRowSeconds
  Verdict verdict = Verdict::Unknown;
  Counts counts;
  double cpu = 0, wall = 0;
  std::string unknownReason;
  bool capped() const { return timedOut || (ran && verdict == Verdict::Unknown); }
};

// The check itself; runs in the child process.
Row checkOne(unsigned words, const char* fetch) {
  Row row;
  std::string label = "scale-" + std::to_string(words) + "-" + fetch;
  auto parsed = parseSpec(specText(words, fetch), label);
  if (auto* d = std::get_if<Diagnostics>(&parsed)) {
    for (const Diagnostic& e : *d) std::printf("  %s\n", e.str().c_str());
    return row;
  }
  const Spec& spec = std::get<Spec>(parsed);
  z3::context ctx;  // one per checker run
  CheckOptions options;
  options.budget.maxSeconds = kRowSeconds;
  options.budget.maxMemoryMiB = kBudgetMiB;
  options.budget.maxExecutions = std::numeric_limits<unsigned>::max();  // time and memory cap a row, not a count
  auto site = SiteInstance::make(spec, targetsOf(spec, false).front(), ctx, options.limits.timeoutMs);
  if (auto* d = std::get_if<Diagnostics>(&site)) {
    for (const Diagnostic& e : *d) std::printf("  %s\n", e.str().c_str());
    return row;
  }
  double c0 = cpuSeconds();
  auto w0 = std::chrono::steady_clock::now();
  auto result = checkTransition(std::get<SiteInstance>(site), spec.transitions.front(), options);
  row.cpu = cpuSeconds() - c0;
  row.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  if (auto* d = std::get_if<Diagnostics>(&result)) {
    for (const Diagnostic& e : *d) std::printf("  %s\n", e.str().c_str());
    return row;
  }
  const TransitionResult& r = std::get<TransitionResult>(result);
  row.ran = true;
  row.verdict = r.verdict;
  row.counts = r.counts;
  row.unknownReason = r.unknownReason;
  return row;
}

// The row's figures as they cross the pipe from the child.
struct Wire {
  bool ran;
  Verdict verdict;
  Counts counts;
  double cpu, wall;
  char unknownReason[240];
};

Row checkCapped(unsigned words, const char* fetch) {
  auto start = std::chrono::steady_clock::now();
  auto bytes = inChild(kRowSeconds, [&] {
    Row r = checkOne(words, fetch);
    Wire w{r.ran, r.verdict, r.counts, r.cpu, r.wall, {}};
    std::snprintf(w.unknownReason, sizeof w.unknownReason, "%s", r.unknownReason.c_str());
    return std::string(reinterpret_cast<const char*>(&w), sizeof w);
  });
  Row row;
  if (!bytes) {
    row.timedOut = std::chrono::steady_clock::now() - start >= std::chrono::seconds(kRowSeconds);
    row.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return row;
  }
  if (bytes->size() != sizeof(Wire)) return row;
  Wire w;
  std::memcpy(&w, bytes->data(), sizeof w);
  row.ran = w.ran;
  row.verdict = w.verdict;
  row.counts = w.counts;
  row.cpu = w.cpu;
  row.wall = w.wall;
  row.unknownReason = w.unknownReason;
  return row;
}

void column(const char* fetch) {
  std::printf("fetch %s (each row stopped after %u s wall, or UNKNOWN past %lu MiB; ratio = time(k) / time(k-2))\n",
              fetch, kRowSeconds, kBudgetMiB);
  std::printf("  %3s %-8s %8s %10s %8s %8s %8s %8s %8s\n", "k", "verdict", "paths", "executions", "queries",
              "wall s", "cpu s", "wall x", "cpu x");
  double previous = 0, previousCpu = 0;  // times of the row before
  for (unsigned k = 2; k <= kMaxWords; k += 2) {
    Row r = checkCapped(k, fetch);
    if (!r.ran && !r.timedOut) {
      std::printf("  %3u error (above, or the child died); column stops\n", k);
      return;
    }
    char ratio[32] = "-", cpuRatio[32] = "-";
    // A stopped row's time is a lower bound of what the check would take.
    if (previous > 0) std::snprintf(ratio, sizeof ratio, r.capped() ? ">=%.1f" : "%.1f", r.wall / previous);
    if (previousCpu > 0 && !r.timedOut)
      std::snprintf(cpuRatio, sizeof cpuRatio, r.capped() ? ">=%.1f" : "%.1f", r.cpu / previousCpu);
    if (r.timedOut)
      std::printf("  %3u %-8s %8s %10s %8s %8.3f %8s %8s %8s\n", k, "timeout", "-", "-", "-", r.wall, "-", ratio,
                  cpuRatio);
    else
      std::printf("  %3u %-8s %8u %10u %8u %8.3f %8.3f %8s %8s\n", k, std::string(name(r.verdict)).c_str(),
                  r.counts.paths, r.counts.executions, r.counts.queries, r.wall, r.cpu, ratio, cpuRatio);
    if (r.capped()) {
      if (r.timedOut) std::printf("      stopped after %u s: no verdict (UNKNOWN)\n", kRowSeconds);
      else std::printf("      UNKNOWN: %s\n", r.unknownReason.c_str());
      if (k + 2 <= kMaxWords) std::printf("      k = %u .. %u not run: k = %u has no verdict\n", k + 2, kMaxWords, k);
      return;
    }
    previous = r.wall, previousCpu = r.cpu;
  }
}

}  // namespace

void scaling() {
  std::printf("== scaling: k words nop -> daddiu at, at, 1, steps write 0 .. write k-1, flush (mips64r2 n64 BE)\n");
  column("weak");
  column("stale");
}

}  // namespace patchcheck::bench
