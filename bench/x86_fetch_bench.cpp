// The cost of byte-granular exploration on x86 (issue 14): the explorer
// decodes each instruction a byte at a time and forks on every version of
// each byte the fetch model allows (checker/explore/PassExplorer.cpp,
// fetchBytes). Measured here: (a) one 5-byte site, nop -> call, with
// text_poke_bp and with a plain write; (b) how that grows with the
// instruction's length; (c) with the number of sites in one
// text_poke_bp_batch. Each figure is one check of one transition, the
// specs generated (bench/X86Sites.h) and parsed as files are.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "bench/Measure.h"
#include "bench/X86Sites.h"
#include "checker/explore/Checker.h"
#include "checker/explore/SiteInstance.h"

namespace patchcheck::bench {
namespace {

// Each exploration may take this long (--max-seconds) before it answers
// UNKNOWN; a series stops growing after a row that spent it.
constexpr unsigned kBudgetSeconds = 20;
// Series (c) adds sites while it has spent less than this.
constexpr double kBatchSeconds = 60;

struct Run {
  bool ran = false;     // false: the spec did not load (printed)
  Verdict verdict = Verdict::Unknown;
  double cpu = 0, wall = 0;
  Counts counts;
  std::string detail;   // the broken rule, or why UNKNOWN
  bool spent() const { return ran && verdict == Verdict::Unknown && wall >= kBudgetSeconds; }
};

// Checks transition `index` of the spec: one Z3 context each, as one
// `patchcheck check` run has.
Run check(const std::string& text, const std::string& label, size_t index) {
  Run run;
  auto parsed = parseSpec(text, label);
  if (auto* d = std::get_if<Diagnostics>(&parsed)) {
    for (const Diagnostic& e : *d) std::printf("  %s\n", e.str().c_str());
    return run;
  }
  const Spec& spec = std::get<Spec>(parsed);
  z3::context ctx;
  CheckOptions options;
  options.budget.maxSeconds = kBudgetSeconds;
  auto site = SiteInstance::make(spec, targetsOf(spec, false).front(), ctx, options.limits.timeoutMs);
  if (auto* d = std::get_if<Diagnostics>(&site)) {
    for (const Diagnostic& e : *d) std::printf("  %s\n", e.str().c_str());
    return run;
  }
  double c0 = cpuSeconds();
  auto w0 = std::chrono::steady_clock::now();
  auto result = checkTransition(std::get<SiteInstance>(site), spec.transitions.at(index), options);
  run.cpu = cpuSeconds() - c0;
  run.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  if (auto* d = std::get_if<Diagnostics>(&result)) {
    for (const Diagnostic& e : *d) std::printf("  %s\n", e.str().c_str());
    return run;
  }
  const TransitionResult& r = std::get<TransitionResult>(result);
  run.ran = true;
  run.verdict = r.verdict;
  run.counts = r.counts;
  run.detail = r.counterexample ? r.counterexample->rule : r.unknownReason;
  return run;
}

// Why each UNKNOWN was: printed once under its table.
class Notes {
 public:
  std::string mark(const Run& r) {
    if (!r.ran) return "error";
    std::string v(name(r.verdict));
    if (r.verdict != Verdict::Unknown) return v;
    auto [it, fresh] = seen_.insert(r.detail);
    if (fresh) order_.push_back(r.detail);
    size_t k = 0;
    while (order_[k] != r.detail) ++k;
    return v + "[" + std::to_string(k + 1) + "]";
  }
  void print() {
    for (size_t k = 0; k < order_.size(); ++k) std::printf("    [%zu] %s\n", k + 1, order_[k].c_str());
    seen_.clear(), order_.clear();
  }

 private:
  std::set<std::string> seen_;
  std::vector<std::string> order_;
};

void oneSite() {
  std::printf("(a) one 5-byte site: nop5 (x86_nops[5]) -> call T\n");
  X86Site site{{{x86Nop(5), "call T", 5}}, {"T"}, "untraced", "call T", "", {}};
  std::string text = specText(site, {textPokeBp(site), plainWrite(site)});
  std::printf("  %-34s %-10s %8s %8s %7s %10s %8s\n", "steps", "verdict", "cpu s", "wall s", "paths", "executions",
              "queries");
  const char* what[] = {"text_poke_bp", "write 0..4, sync_core"};
  Notes notes;
  for (size_t k = 0; k < 2; ++k) {
    Run r = check(text, "x86 (a)", k);
    std::printf("  %-34s %-10s %8.3f %8.3f %7u %10u %8u\n", what[k], notes.mark(r).c_str(), r.cpu, r.wall,
                r.counts.paths, r.counts.executions, r.counts.queries);
    if (r.verdict == Verdict::Unsafe) std::printf("    refuted by: %s\n", r.detail.c_str());
  }
  notes.print();
}

// To each NOP, an instruction of the same length that changes only r11
// (dead at entry under the SysV ABI) or the flags, so both states are
// `untraced` and only the bytes in between can go wrong: its fields
// constants...
std::string constantInstruction(unsigned length) {
  static const char* const table[13] = {
      nullptr,
      nullptr,
      "test %eax, %eax",
      "xor %r11d, %r11d",
      "lea 0x8(%r10), %r11",
      "test $0x12345678, %eax",
      "mov $0x12345678, %r11d",
      "mov $0x12345678, %r11",
      "lea 0x12345678(%r10,%r11,1), %r11",
      "cmpq $0x12345678, 0x8(%rsp)",
      "movabs $0x123456789abcdef0, %r11",
      "cmpl $0x12345678, 0x100(%rsp)",
      "cmpq $0x12345678, 0x100(%rsp)",
  };
  if (length < 13) return table[length] ? table[length] : "";
  // The 12-byte cmpq behind ds prefixes (ignored in 64-bit mode); the
  // assembler has no prefix syntax, so as bytes.
  std::string bytes = ".byte ";
  for (unsigned k = 12; k < length; ++k) bytes += "0x3e, ";
  return bytes + "0x48, 0x81, 0xbc, 0x24, 0x00, 0x01, 0x00, 0x00, 0x78, 0x56, 0x34, 0x12";
}

// ... or, where the subset has one, a field that holds a symbol's address
// (a call's rel32, a rip-relative displacement), which the placement
// decides: a torn fetch may read one of its bytes as an opcode.
std::string symbolInstruction(unsigned length) {
  static const char* const table[13] = {
      nullptr, nullptr, nullptr, nullptr, nullptr,
      "call T",
      "cmp %eax, T(%rip)",
      "cmpb $0x12, T(%rip)",
      "cmpw $0x12, T(%rip)",
      "cmpw $0x1234, T(%rip)",
      "cmpl $0x12345678, T(%rip)",
      "cmpq $0x12345678, T(%rip)",
      "cmpq $0x12345678, T(%r10,%r11,1)",
  };
  return length < 13 && table[length] ? table[length] : "";
}

// F's body after the site: a frame-pointer prologue, 14 bytes, so that a
// torn instruction of up to 15 bytes from F decodes from real bytes.
std::vector<std::string> prologue() {
  return {"push %rbp", "mov %rsp, %rbp", "push %r12", "push %rbx", "sub $0x20, %rsp", "mov %rdi, %rbx"};
}

void lengths() {
  std::printf("\n(b) instruction length L: NOP of L bytes (x86_nops[L]; 9-11 GNU as's; 12-15 with more 0x66)\n"
              "    -> another L-byte instruction, under text_poke_bp and under a plain write + sync_core\n"
              "    (bp: Linux's int3 handler emulates none of these but call, so their breakpoint runs with\n"
              "    int3_handler = \"skip\": what the exploration costs, not a patch Linux would queue);\n"
              "    F's body after the site: push %%rbp; mov %%rsp,%%rbp; push %%r12; push %%rbx; sub $0x20,%%rsp;\n"
              "    mov %%rdi,%%rbx (14 bytes)\n");
  std::printf("  %2s  %-34s | %-10s %8s %6s %7s | %-10s %8s %6s %7s\n", "L", "new instruction", "bp", "cpu s",
              "paths", "queries", "plain", "cpu s", "paths", "queries");
  Notes notes;
  bool skipped = false;
  // One row per length that has an instruction; a column stops after a
  // row that spent the budget.
  auto series = [&](const std::function<std::string(unsigned)>& instruction, bool symbolic) {
    bool stopped[2] = {false, false};
    for (unsigned length = 1; length <= 15; ++length) {
      std::string to = instruction(length);
      if (to.empty()) continue;
      X86Site site{{{x86Nop(length), to, length}}, {}, "untraced", "untraced", "", {}};
      site.body = prologue();
      if (symbolic) site.symbols = {"T"}, site.toBehaviour = to == "call T" ? "call T" : "untraced";
      // Linux's int3 handler emulates only call/jmp/jcc, ret and two nops
      // (the checker refuses the rest, as text_poke_loc_init BUG()s): the
      // others run with the pre-5.2 handler, which skips the instruction.
      if (to.rfind("call", 0) != 0) site.int3Handler = "skip";
      std::string text = specText(site, {textPokeBp(site), plainWrite(site)});
      std::string cells[2];
      for (size_t k = 0; k < 2; ++k) {
        char cell[64];
        if (stopped[k]) {
          std::snprintf(cell, sizeof cell, "%-10s %8s %6s %7s", "skipped", "", "", "");
          skipped = true;
        } else {
          Run r = check(text, "x86 (b) L=" + std::to_string(length), k);
          std::snprintf(cell, sizeof cell, "%-10s %8.3f %6u %7u", notes.mark(r).c_str(), r.cpu, r.counts.paths,
                        r.counts.queries);
          stopped[k] = r.spent();
        }
        cells[k] = cell;
      }
      std::printf("  %2u  %-34.34s | %s | %s\n", length, to.c_str(), cells[0].c_str(), cells[1].c_str());
    }
  };
  std::printf("  constant fields (L = 1 left out: no other 1-byte instruction of the subset keeps every live\n"
              "  register)\n");
  series(constantInstruction, false);
  std::printf("  a field holding T's address (L < 5: none; L > 12: a prefix before a relocated field, which\n"
              "  neither the assembler nor .byte can spell)\n");
  series(symbolInstruction, true);
  std::printf("  13-15: the 12-byte cmpq behind 1 to 3 ds prefixes (ignored in 64-bit mode), as .byte\n");
  if (skipped)
    std::printf("  skipped: not run once a shorter instruction spent the %u s budget (keeps the bench short)\n",
                kBudgetSeconds);
  notes.print();
}

void batch() {
  std::printf("\n(c) N sites in one text_poke_bp_batch: N x (nop5 -> jmp G), back to back in one 5N-byte region,\n"
              "    explored whole (what a batch falls back to when one copy is not SAFE; `batch` measures the\n"
              "    check itself, which proves one copy); a pass enters at F only and runs through the sites before\n"
              "    it; a call is left out: its return address would have to be the region's end\n");
  std::printf("  %4s  %-10s %8s %8s %7s %10s %8s %9s\n", "N", "verdict", "cpu s", "wall s", "paths", "executions",
              "queries", "peak MiB");
  Notes notes;
  double spent = 0;
  for (unsigned n : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u, 256u, 512u, 1024u}) {
    if (spent >= kBatchSeconds) {
      std::printf("  N = %u and more not run: the series has spent %.0f s (cap %.0f s)\n", n, spent, kBatchSeconds);
      break;
    }
    X86Site site{std::vector<X86Change>(n, X86Change{x86Nop(5), "jmp G", 5}), {"G"}, "untraced", "enter G", "", {}};
    Run r = check(specText(site, {textPokeBp(site)}), "x86 (c) N=" + std::to_string(n), 0);
    spent += r.wall;
    // The process's peak resident size so far (getrusage): it only grows,
    // so a row's figure bounds that row's own use.
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    std::printf("  %4u  %-10s %8.3f %8.3f %7u %10u %8u %9.0f\n", n, notes.mark(r).c_str(), r.cpu, r.wall,
                r.counts.paths, r.counts.executions, r.counts.queries, double(u.ru_maxrss) / 1024);
    if (r.spent()) {
      std::printf("  stopped: N = %u spent the %u s budget\n", n, kBudgetSeconds);
      break;
    }
  }
  notes.print();
}

}  // namespace

void x86Fetch() {
  std::printf("x86 byte-site exploration: one transition check per row (cpu: this thread's CPU time); each\n"
              "exploration capped at %u s, after which it answers UNKNOWN\n",
              kBudgetSeconds);
  auto t0 = std::chrono::steady_clock::now();
  oneSite();
  lengths();
  batch();
  std::printf("x86 byte-site exploration: %.1f s in all\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace patchcheck::bench
