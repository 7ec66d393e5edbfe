// The refusal side of the GNU as comparison for arm64. Corpus 1: every
// line GNU as 2.40 refuses with an Error must be refused by us too: the
// hand-written tests/data/encoder/arm64-rejects.txt (each must be a GNU
// error) and mutations of random valid instances (an immediate, offset or
// bit number replaced by an edge value, a register by the other width or
// by sp/xzr, a target moved off alignment or out of reach) of which GNU
// refuses many. Corpus 2: tests/data/encoder/arm64-patchcheck-only-rejects.txt,
// lines GNU as accepts (perhaps with a warning) that we refuse on purpose;
// GNU must accept each and we must refuse each, so the list stays true.
#include <cstdio>
#include <fstream>
#include <optional>
#include <random>
#include <regex>
#include <stdexcept>

#include "encoder/arm64/Assembler.h"
#include "tests/oracle/support/Arm64Instances.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::arm64;
using namespace patchcheck::oracle;

namespace {

constexpr uint64_t kBase = 0xffff800080000000ull;

std::vector<std::string> readLines(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::vector<std::string> out;
  for (std::string l; std::getline(f, l);)
    if (!l.empty() && l[0] != '#') out.push_back(l);
  return out;
}

// Our verdict on one line alone: the first error, or nothing.
std::optional<std::string> ourError(const std::string& line) {
  AssemblyOptions o;
  o.base = Value::constant(int64_t(kBase));
  auto r = assemble(line, "line.s", o);
  if (auto* e = std::get_if<Diagnostics>(&r)) return e->front().str();
  return std::nullopt;
}

// GNU as's complaint per line of `lines`, assembled as one file.
std::vector<std::string> gnuComplaints(const Arm64Tools& tools, const std::vector<std::string>& lines) {
  TempDir dir;
  std::string source;
  for (const auto& l : lines) source += l + "\n";
  writeFile(dir.file("in.s"), source);
  RunResult as = run({tools.as, dir.file("in.s"), "-o", dir.file("in.o")});
  return gasComplaints(as.err, lines.size());
}

// Variants of a valid instance that GNU as may refuse.
std::vector<std::string> mutations(const std::string& text, std::mt19937_64& rng) {
  static const char* immediates[] = {"#-1", "#4096", "#65536", "#0x100000000", "#3", "#7", "#64", "#32",
                                     "#-257", "#256", "#1024", "#-1024", "#5", "#0x8000", "#127", "#0"};
  static const std::regex imm(R"(#-?(0x)?[0-9a-f]+)"), reg(R"(\b([xw])([0-9]+|zr)\b|\bw?sp\b)"),
      label(R"(\.([+-])([0-9]+)$)");
  std::vector<std::string> out;
  auto replaceNth = [&](const std::regex& re, auto&& with) {
    std::vector<std::smatch> all;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
      all.push_back(*it);
    for (const std::smatch& m : all) {
      std::string r = with(m);
      if (r == m.str()) continue;
      out.push_back(text.substr(0, size_t(m.position())) + r + text.substr(size_t(m.position() + m.length())));
    }
  };
  replaceNth(imm, [&](const std::smatch&) { return std::string(immediates[rng() % std::size(immediates)]); });
  replaceNth(reg, [&](const std::smatch& m) -> std::string {
    std::string s = m.str();
    switch (rng() % 3) {
      case 0: return s[0] == 'x' ? "w" + s.substr(1) : s[0] == 'w' && s != "wsp" ? "x" + s.substr(1) : "xzr";
      case 1: return "sp";
      default: return s[0] == 'w' ? "wzr" : "wsp";
    }
  });
  replaceNth(label, [&](const std::smatch& m) -> std::string {
    int64_t n = std::stoll(m[2]) * (m[1] == "-" ? -1 : 1);
    int64_t moved = rng() % 2 ? n + 2 : n + (int64_t(1) << (27 + rng() % 2));
    return moved < 0 ? ".-" + std::to_string(-moved) : ".+" + std::to_string(moved);
  });
  return out;
}

}  // namespace

int main() {
  try {
    Arm64Tools tools = requireArm64Tools();
    uint64_t seed = 20240613;
    if (const char* s = std::getenv("PATCHCHECK_SEED")) seed = std::stoull(s);
    std::printf("seed %llu (set PATCHCHECK_SEED to vary)\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    size_t failed = 0, passed = 0;
    auto fail = [&](const std::string& what) {
      if (++failed <= 60) std::printf("FAIL %s\n", what.c_str());
    };

    // Corpus 1a: hand-written lines GNU as refuses.
    auto written = readLines(PATCHCHECK_TEST_DATA "/encoder/arm64-rejects.txt");
    auto complaints = gnuComplaints(tools, written);
    for (size_t i = 0; i < written.size(); ++i) {
      bool gnuError = complaints[i].find("Error:") != std::string::npos;
      auto mine = ourError(written[i]);
      if (!gnuError) fail("arm64-rejects.txt: GNU as accepts '" + written[i] + "'");
      else if (!mine) fail("we accept '" + written[i] + "', which GNU as refuses: " + complaints[i]);
      else ++passed;
    }
    size_t writtenRefused = passed;

    // Corpus 1b: mutations of random valid instances.
    Arm64Batch batch = makeArm64Batch(kBase, 6, rng);
    std::vector<std::string> candidates;
    for (const Arm64Instance& x : batch.lines)
      for (std::string& m : mutations(x.text, rng)) candidates.push_back(std::move(m));
    complaints = gnuComplaints(tools, candidates);
    size_t gnuRefused = 0;
    size_t stricter = 0;  // GNU accepts, we refuse: reported, not a failure (the diff test owns acceptance)
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (complaints[i].find("Error:") == std::string::npos) {
        if (complaints[i].empty() && ourError(candidates[i]) && ++stricter <= 10)
          std::printf("note: GNU as accepts, we refuse: %s\n", ourError(candidates[i])->c_str());
        continue;
      }
      ++gnuRefused;
      if (ourError(candidates[i])) ++passed;
      else fail("we accept '" + candidates[i] + "', which GNU as refuses: " + complaints[i]);
    }

    // Corpus 2: GNU as accepts, we refuse on purpose.
    auto ours = readLines(PATCHCHECK_TEST_DATA "/encoder/arm64-patchcheck-only-rejects.txt");
    complaints = gnuComplaints(tools, ours);
    size_t onlyOurs = 0;
    for (size_t i = 0; i < ours.size(); ++i) {
      bool gnuError = complaints[i].find("Error:") != std::string::npos;
      auto mine = ourError(ours[i]);
      if (gnuError) fail("arm64-patchcheck-only-rejects.txt: GNU as refuses '" + ours[i] + "': " + complaints[i]);
      else if (!mine) fail("arm64-patchcheck-only-rejects.txt: we accept '" + ours[i] + "'");
      else ++passed, ++onlyOurs;
    }
    std::printf("hand-written GNU rejects refused: %zu of %zu\n", writtenRefused, written.size());
    std::printf("mutations: %zu, GNU refuses %zu, we refuse those: %zu\n", candidates.size(), gnuRefused,
                passed - writtenRefused - onlyOurs);
    std::printf("mutations GNU as accepts and we refuse: %zu\n", stricter);
    std::printf("patchcheck-only refusals confirmed: %zu of %zu\n", onlyOurs, ours.size());
    if (gnuRefused < 1000) fail("only " + std::to_string(gnuRefused) + " mutations refused by GNU as (need 1000)");
    std::printf("%zu passed, %zu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("error: %s\n0 passed, 1 failed\n", e.what());
    return 1;
  }
}
