// Batches (issue 36): N jump-label sites of one key back to back, patched
// in one sequence, checked as `patchcheck check` checks a spec (the site
// made, the two states alone, the transition), on one thread. x86: N x
// (nop5 -> jmp G) through one text_poke_bp batch; MIPS: N x ([nop, nop] ->
// [j l_yes, nop]) then one flush; arm64: N x (nop -> b l_yes), each written
// and cleaned to the PoU, one dsb, each invalidated, one dsb, one IPI.
// A batch is proven on one copy (docs/model.md, Batches); the columns say
// how many paths and queries that took and what the process's resident
// size was.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "bench/Measure.h"
#include "bench/X86Sites.h"
#include "checker/explore/CheckRun.h"

namespace patchcheck::bench {
namespace {

constexpr unsigned kBudgetSeconds = 60;  // --max-seconds per exploration
constexpr double kSeriesSeconds = 120;   // a series stops adding sites past this

std::string quotedList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t k = 0; k < items.size(); ++k)
    out += (k ? ", " : "") + (items[k].find('"') == std::string::npos ? "\"" + items[k] + "\"" : "'" + items[k] + "'");
  return out + "]";
}

// The spec of N copies: `lines` per copy in each state, the steps as the
// ISA's batch takes them.
struct Shape {
  const char* name;
  std::string header;  // schema, [target], [site] without its size, [symbols]
  std::string sizeKey;  // "bytes" or "words"
  unsigned unitsPerCopy;
  std::vector<std::string> off, on;
  std::function<std::vector<std::string>(unsigned n)> steps;
};

std::string specText(const Shape& s, unsigned n) {
  std::vector<std::string> off, on;
  for (unsigned k = 0; k < n; ++k) {
    off.insert(off.end(), s.off.begin(), s.off.end());
    on.insert(on.end(), s.on.begin(), s.on.end());
  }
  std::string text = s.header;
  text += "[site]\n" + s.sizeKey + " = " + std::to_string(s.unitsPerCopy * n) + "\n";
  text += "[states]\noff = " + quotedList(off) + "\non = " + quotedList(on) + "\n";
  text += "[behaviour]\noff = \"untraced\"\non = \"enter l_yes\"\n";
  text += "[[transition]]\nname = \"enable\"\nfrom = \"off\"\nto = \"on\"\nsteps = " + quotedList(s.steps(n)) + "\n";
  return text;
}

std::vector<Shape> shapes() {
  // arm64: l_yes within 1 MiB of F, so every copy's b reaches it (128
  // MiB); MIPS: F and l_yes in one 256 MB region, as j needs, F's site
  // (64 KB at most) inside it.
  std::string symbols =
      "[symbols]\nF = { in = \"kernel-text\", align = 16 }\n"
      "l_yes = { in = \"kernel-text\", align = 16, near = \"F\", within = 1048576 }\n";
  std::string mipsText =
      "[regions]\nkernel-text = [\"0xffffffff80000000\", \"0xffffffff8fffffff\"]\n"
      "vmlinux-functions = [\"0xffffffff80000000\", \"0xffffffff8fff0000\"]\n"
      "[symbols]\nF = { in = \"vmlinux-functions\", align = 16 }\nl_yes = { in = \"vmlinux-functions\", align = 16 }\n";
  std::string x86Text =
      "[symbols]\nF = { in = \"kernel-text\", align = 16 }\nl_yes = { in = \"kernel-text\", align = 16 }\n";
  Shape x86{"x86-64 text_poke_bp", "schema = 1\n[target]\nisa = \"x86_64\"\n" + x86Text, "bytes", 5,
            {x86Nop(5)}, {"jmp l_yes"}, [](unsigned n) {
              std::vector<std::string> out;
              for (unsigned k = 0; k < n; ++k) out.push_back("write " + std::to_string(5 * k) + " = \"int3\"");
              out.push_back("sync_core");
              for (unsigned k = 0; k < n; ++k)
                out.push_back("write " + std::to_string(5 * k + 1) + ".." + std::to_string(5 * k + 4));
              out.push_back("sync_core");
              for (unsigned k = 0; k < n; ++k) out.push_back("write " + std::to_string(5 * k));
              out.push_back("sync_core");
              return out;
            }};
  Shape mips{"MIPS64r2 n64, one flush", "schema = 1\n[target]\nisa = \"mips64r2\"\nabi = \"n64\"\n" + mipsText, "words",
             2, {"nop", "nop"}, {"j l_yes", "nop"}, [](unsigned n) {
               std::vector<std::string> out;
               for (unsigned k = 0; k < n; ++k) out.push_back("write " + std::to_string(2 * k));
               out.push_back("flush");
               return out;
             }};
  Shape arm64{"arm64, dc/ic by address, one ipi", "schema = 1\n[target]\nisa = \"arm64\"\n" + symbols, "words", 1,
              {"nop"}, {"b l_yes"}, [](unsigned n) {
                std::vector<std::string> out;
                for (unsigned k = 0; k < n; ++k) {
                  out.push_back("write " + std::to_string(k));
                  out.push_back("dc cvau " + std::to_string(k));
                }
                out.push_back("dsb ish");
                for (unsigned k = 0; k < n; ++k) out.push_back("ic ivau " + std::to_string(k));
                out.push_back("dsb ish");
                out.push_back("ipi");
                return out;
              }};
  return {x86, mips, arm64};
}

void series(const Shape& shape) {
  std::printf("\n%s: N copies back to back, one batch\n", shape.name);
  std::printf("  %5s  %-8s %-8s %8s %8s %7s %8s %9s  %s\n", "N", "states", "enable", "cpu s", "wall s", "paths",
              "queries", "peak MiB", "how");
  double spent = 0;
  for (unsigned n : {1u, 8u, 32u, 64u, 128u, 256u, 1024u}) {
    if (spent >= kSeriesSeconds) {
      std::printf("  N = %u and more not run: the series has spent %.0f s (cap %.0f s)\n", n, spent, kSeriesSeconds);
      break;
    }
    auto parsed = parseSpec(specText(shape, n), std::string(shape.name) + " N=" + std::to_string(n));
    if (auto* d = std::get_if<Diagnostics>(&parsed)) {
      for (const Diagnostic& e : *d) std::printf("  %s\n", e.str().c_str());
      return;
    }
    const Spec& spec = std::get<Spec>(parsed);
    CheckOptions options;
    options.budget.maxSeconds = kBudgetSeconds;
    double c0 = processCpuSeconds();
    auto w0 = std::chrono::steady_clock::now();
    auto results = checkTargets(spec, {targetsOf(spec, false).front()}, options, RunControl{});
    double cpu = processCpuSeconds() - c0;
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    spent += wall;
    if (auto* d = std::get_if<Diagnostics>(&results)) {
      for (const Diagnostic& e : *d) std::printf("  %s\n", e.str().c_str());
      return;
    }
    const SpecResult& r = std::get<std::vector<SpecResult>>(results).front();
    Verdict states = Verdict::Safe;
    for (const StateResult& s : r.states)
      if (s.verdict != Verdict::Safe) states = s.verdict;
    const TransitionResult& t = r.transitions.front();
    bool once = false;
    for (const std::string& note : t.notes) once = once || note.rfind("batch: ", 0) == 0;
    rusage u{};
    getrusage(RUSAGE_SELF, &u);  // only grows: bounds this row's own use
    std::printf("  %5u  %-8s %-8s %8.3f %8.3f %7u %8u %9.0f  %s\n", n, std::string(name(states)).c_str(),
                std::string(name(t.verdict)).c_str(), cpu, wall, t.counts.paths, t.counts.queries,
                double(u.ru_maxrss) / 1024, n == 1 ? "one site" : once ? "one copy" : "whole site");
    if (t.verdict == Verdict::Unknown) std::printf("         UNKNOWN: %s\n", t.unknownReason.c_str());
  }
}

}  // namespace

void batch() {
  std::printf("Batches: a whole `check` of N sites (site, states alone, transition), one thread; budget %u s per\n"
              "exploration\n",
              kBudgetSeconds);
  for (const Shape& s : shapes()) series(s);
}

}  // namespace patchcheck::bench
