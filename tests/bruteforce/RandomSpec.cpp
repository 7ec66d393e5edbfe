#include "tests/bruteforce/RandomSpec.h"

#include <algorithm>
#include <vector>

namespace bruteforce {
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
      "nop", "lui at, %hi(T)", "lui t1, %hi(T)", "jalr t1, at", "jalr t2, t1", "jr at",
      "li t0, 0", "li t0, 1", "lui at, %hi(U)", "jalr t2, at",
  };
  static const std::vector<std::string> behaviours = {
      "untraced", "call T", "call T with t0 == 1", "call T | untraced", "enter U", "untraced | enter U",
      "call T with t0 == 0 | untraced",
  };
  static const std::vector<std::string> targets = {"mips32r2\"\nabi = \"o32", "mips64r2\"\nabi = \"n64",
                                                   "mips32r6\"\nabi = \"o32", "mips64r6\"\nabi = \"n64"};
  const unsigned n = 3;
  std::vector<std::string> a(n), b(n);
  for (unsigned i = 0; i < n; ++i) {
    a[i] = oneOf(rng, words);
    b[i] = chance(rng, 50) ? a[i] : oneOf(rng, words);
  }
  // The steps: every word that differs (sometimes also one that does not),
  // in random order, sometimes through an interim word, with barriers.
  std::vector<unsigned> order;
  for (unsigned i = 0; i < n; ++i)
    if (a[i] != b[i] || chance(rng, 15)) order.push_back(i);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::string> steps;
  auto barrier = [&] {
    unsigned k = unsigned(rng() % 10);
    if (k < 4) return;
    if (k < 6) steps.push_back("sync");
    else if (k < 9) steps.push_back("flush");
    else steps.push_back("flush"), steps.push_back("wait");
  };
  for (unsigned i : order) {
    if (chance(rng, 15)) {
      steps.push_back("write " + std::to_string(i) + " = \\\"" + oneOf(rng, words) + "\\\"");
      barrier();
    }
    steps.push_back("write " + std::to_string(i));
    barrier();
  }
  if (chance(rng, 80)) steps.push_back("flush");
  std::string when = chance(rng, 70) ? "live" : chance(rng, 70) ? "stop_machine" : "boot";

  std::string s;
  s += "schema = 1\nname = \"random-" + std::to_string(serial) + "\"\n\n";
  s += "[target]\nisa = \"" + oneOf(rng, targets) + "\"\nendian = \"" + (chance(rng, 50) ? "big" : "little") +
       "\"\n\n";
  s += "[site]\nfunction = \"F\"\nwords = 3\nallow_unpredictable = true\n\n";
  s += "[symbols]\nF = { in = \"kernel-text\", align = " + std::string(chance(rng, 30) ? "32" : "4") + " }\n";
  s += "T = { in = \"kernel-text\", align = 0x10000 }\nU = { in = \"module-text\", align = 0x10000 }\n\n";
  auto state = [&](const std::vector<std::string>& w) {
    std::string x = "[";
    for (unsigned i = 0; i < n; ++i) x += (i ? ", " : "") + quoted(w[i]);
    return x + "]";
  };
  s += "[states]\na = " + state(a) + "\nb = " + state(b) + "\n\n";
  s += "[behaviour]\na = " + quoted(oneOf(rng, behaviours)) + "\nb = " + quoted(oneOf(rng, behaviours)) + "\n\n";
  s += "[model]\nfetch = \"" + oneOf(rng, std::vector<std::string>{"sc", "weak", "stale"}) + "\"\n";
  s += "line_bytes = " + std::string(chance(rng, 50) ? "4" : "32") + "\n";
  s += "preemption = \"" + std::string(chance(rng, 50) ? "full" : "none") + "\"\n";
  s += "delay_slot_interrupts = " + std::string(chance(rng, 80) ? "true" : "false") + "\n\n";
  s += "[[transition]]\nfrom = \"a\"\nto = \"b\"\nwhen = \"" + when + "\"\nsteps = [";
  for (size_t i = 0; i < steps.size(); ++i) s += (i ? ", " : "") + quoted(steps[i]);
  s += "]\n";
  // A broad allowed set now and then, so that some transitions are SAFE.
  if (chance(rng, 30)) s += "allow = \"untraced | call T | enter U\"\n";
  return s;
}

}  // namespace bruteforce
