// bruteforce_recheck's RISC-V runs: the shipped specs on every matrix
// target, and random specs (RiscvDifferential.h).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "checker/explore/Checker.h"
#include "tests/bruteforce/RiscvDifferential.h"

namespace bruteforce::rv {
namespace {

namespace fs = std::filesystem;

void compare(z3::context& c, const std::string& label, const patchcheck::Spec& spec, const patchcheck::Target& t,
             unsigned trials, uint64_t seed, Totals& totals, Tally& tally, const std::string& text = "") {
  auto start = std::chrono::steady_clock::now();
  uint64_t worlds0 = totals.worlds;
  patchcheck::CheckOptions opt;
  auto r = patchcheck::checkSpec(spec, t, c, opt);
  if (auto* e = std::get_if<patchcheck::Diagnostics>(&r)) {
    ++tally.failed;
    std::cout << "FAIL  " << label << ": the checker rejects it: " << (e->empty() ? "?" : e->front().str()) << "\n";
    return;
  }
  Comparison cmp = compareWithChecker(c, spec, t, std::get<patchcheck::SpecResult>(r), trials, seed, totals);
  bool ok = cmp.disagreements.empty();
  (ok ? tally.passed : tally.failed)++;
  tally.undecided += unsigned(cmp.undecided.size());
  double ms = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() * 1000;
  std::cout << (ok ? "ok    " : "FAIL  ") << label << ": " << cmp.safeConfirmed << " SAFE confirmed, "
            << cmp.unsafeReproduced << " UNSAFE reproduced, " << cmp.unknown << " unknown, " << cmp.undecided.size()
            << " not enumerated (" << int(ms) << " ms, " << totals.worlds - worlds0 << " worlds)\n";
  for (const auto& d : cmp.disagreements) std::cout << "      " << d << "\n";
  for (const auto& u : cmp.undecided) std::cout << "      not enumerated: " << u << "\n";
  if (!ok && !text.empty()) std::cout << text << "\n";
}

}  // namespace

void runShipped(z3::context& c, unsigned trials, uint64_t seed, Totals& totals, Tally& tally) {
  std::string dir = std::string(PATCHCHECK_SOURCE_DIR) + "/specs/riscv";
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (const std::string& path : files) {
    std::cout << "== " << path << "\n";
    auto r = patchcheck::loadSpec(path);
    if (auto* e = std::get_if<patchcheck::Diagnostics>(&r)) {
      ++tally.failed;
      std::cout << "FAIL  does not load: " << (e->empty() ? "?" : e->front().str()) << "\n";
      continue;
    }
    const patchcheck::Spec& spec = std::get<patchcheck::Spec>(r);
    for (const patchcheck::Target& t : patchcheck::targetsOf(spec, true))
      compare(c, fs::path(path).filename().string() + " [" + t.str() + "]", spec, t, trials, seed, totals, tally);
  }
}

void runRandom(z3::context& c, unsigned count, unsigned trials, uint64_t seed, Totals& totals, Tally& tally) {
  std::cout << "== " << count << " random RISC-V specs\n";
  std::mt19937_64 rng(seed);
  unsigned rejected = 0;
  // In the source tree, so that [trampolines] resolves as for a shipped spec.
  std::string dir = std::string(PATCHCHECK_SOURCE_DIR) + "/specs/riscv/";
  for (unsigned k = 0; k < count; ++k) {
    std::string text = randomSpec(rng, k);
    auto r = patchcheck::parseSpec(text, dir + "random-" + std::to_string(k) + ".toml");
    if (std::holds_alternative<patchcheck::Diagnostics>(r)) {
      ++rejected;
      continue;
    }
    const patchcheck::Spec& spec = std::get<patchcheck::Spec>(r);
    compare(c, "riscv-random-" + std::to_string(k), spec, spec.target, trials, seed, totals, tally, text);
  }
  std::cout << "random specs the loader rejected: " << rejected << "\n";
}

}  // namespace bruteforce::rv
