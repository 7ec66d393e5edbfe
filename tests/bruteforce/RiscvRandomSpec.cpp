// Random RISC-V specs for the differential (RiscvDifferential.h).
#include <algorithm>
#include <vector>

#include "tests/bruteforce/RiscvDifferential.h"

namespace bruteforce::rv {
namespace {

template <class T>
const T& oneOf(std::mt19937_64& rng, const std::vector<T>& v) {
  return v[rng() % v.size()];
}

bool chance(std::mt19937_64& rng, unsigned percent) { return rng() % 100 < percent; }

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

}  // namespace

std::string randomSpec(std::mt19937_64& rng, unsigned serial) {
  static const std::vector<std::string> words = {
      "nop", "auipc t0, %pcrel_hi(ftrace_caller)", "jalr t0, %pcrel_lo(F)(t0)", "jal t0, ftrace_caller",
      "j U", "li t0, 1", "mv t0, ra", "jalr t0, 0(t0)", "addi sp, sp, -16",
  };
  static const std::vector<std::string> literals = {"ftrace_nop_ops", "ops_a"};
  static const std::vector<std::string> behaviours = {
      "untraced", "call ftrace_caller", "untraced | call ftrace_caller", "enter U", "untraced | enter U",
  };
  static const std::vector<std::string> barriers = {"fence w,w", "fence rw,rw", "fence w,o", "fence.i",
                                                    "ipi",       "flush_icache_all", "wait"};
  // Two words: ftrace_caller finds the literal at t0 - 16 (its contract's
  // [call_ops]), so a call from a longer site breaks it by construction.
  const unsigned n = 2;
  std::vector<std::string> a(n), b(n);
  // Mostly the CALL_OPS shape: auipc at F, then a random word or two.
  for (unsigned i = 0; i < n; ++i) {
    a[i] = i == 0 && chance(rng, 60) ? words[1] : oneOf(rng, words);
    b[i] = chance(rng, 50) ? a[i] : oneOf(rng, words);
  }
  std::string la = oneOf(rng, literals), lb = chance(rng, 50) ? la : oneOf(rng, literals);
  // The writes: the literal (index -1) and every word that differs, some
  // that do not, in random order, some through an interim, with barriers.
  std::vector<int> order;
  if (la != lb || chance(rng, 20)) order.push_back(-1);
  for (unsigned i = 0; i < n; ++i)
    if (a[i] != b[i] || chance(rng, 15)) order.push_back(int(i));
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::string> steps;
  auto barrier = [&] {
    if (chance(rng, 45)) steps.push_back(oneOf(rng, barriers));
    if (chance(rng, 15)) steps.push_back(oneOf(rng, barriers));
  };
  for (int i : order) {
    if (i >= 0 && chance(rng, 15)) {
      steps.push_back("write " + std::to_string(i) + " = \\\"" + oneOf(rng, words) + "\\\"");
      barrier();
    }
    steps.push_back("write " + std::to_string(i));
    barrier();
  }
  if (chance(rng, 70)) steps.push_back(chance(rng, 80) ? "flush_icache_all" : "ipi");
  std::string when = chance(rng, 70) ? "live" : chance(rng, 70) ? "stop_machine" : "boot";

  std::string s = "schema = 1\nname = \"riscv-random-" + std::to_string(serial) + "\"\n\n";
  s += "[target]\nisa = \"rv64ima\"\n\n";
  s += "[model]\nfetch = \"" + std::string(chance(rng, 50) ? "ziccif" : "ziccid") + "\"\n";
  s += "preemption = \"" + std::string(chance(rng, 50) ? "full" : "none") + "\"\n\n";
  s += "[regions]\nkernel-text = [\"0xffffffff80000000\", \"0xffffffffbfffffff\"]\n\n";
  s += "[site]\nfunction = \"F\"\nbefore = [8]\nwords = " + std::to_string(n) + "\n\n";
  s += "[symbols]\nF = { in = \"kernel-text\", align = 8 }\n";
  s += "ftrace_caller = { in = \"kernel-text\", align = 8, near = \"F\", within = 0x80000 }\n";
  s += "U = { in = \"kernel-text\", align = 4, near = \"F\", within = 0x80000 }\n";
  s += "ftrace_nop_ops = { in = \"kernel-text\", align = 8 }\nops_a = { in = \"kernel-text\", align = 8 }\n\n";
  s += "[trampolines]\nftrace_caller = \"riscv/ftrace_caller.S\"\n\n";
  auto state = [&](const std::string& lit, const std::vector<std::string>& w) {
    std::string x = "[" + quoted(".quad " + lit);
    for (unsigned i = 0; i < n; ++i) x += ", " + quoted(w[i]);
    return x + "]";
  };
  s += "[states]\na = " + state(la, a) + "\nb = " + state(lb, b) + "\n\n";
  s += "[behaviour]\na = " + quoted(oneOf(rng, behaviours)) + "\nb = " + quoted(oneOf(rng, behaviours)) + "\n\n";
  s += "[[transition]]\nfrom = \"a\"\nto = \"b\"\nwhen = \"" + when + "\"\nsteps = [";
  for (size_t i = 0; i < steps.size(); ++i) s += (i ? ", " : "") + quoted(steps[i]);
  s += "]\n";
  if (chance(rng, 20)) s += "publish = \"synchronised\"\n";
  if (chance(rng, 30)) s += "allow = \"untraced | call ftrace_caller | enter U\"\n";
  return s;
}

}  // namespace bruteforce::rv
