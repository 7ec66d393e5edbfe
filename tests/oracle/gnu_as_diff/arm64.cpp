// Differential test of the arm64 encoder against GNU as and objdump 2.40
// (binutils-aarch64-linux-gnu): random instances of every row of the A64
// table (Arm64Instances.h), assembled by one `aarch64-linux-gnu-as` run per
// batch and linked at a kernel or module address (so that adrp resolves).
// For every instance:
//   - GNU as accepts it without a warning, and so do we;
//   - our word equals GNU's, bit for bit, and (for a decodable row) equals
//     the word the instance was made from;
//   - our text for the word equals objdump's, modulo spacing, objdump's
//     `<symbol>` after a target and its `// ...` comments (docs/encoder-arm64.md);
//   - our text reassembles to the same word.
// Then tests/data/encoder/arm64-spellings.txt: other spellings GNU as takes
// (upper case, lr, hs/lo, #4096, no '#') must give GNU's words.
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <stdexcept>

#include "encoder/Hex.h"
#include "encoder/arm64/Assembler.h"
#include "encoder/arm64/Decoder.h"
#include "encoder/arm64/Operands.h"
#include "encoder/arm64/Printer.h"
#include "tests/oracle/support/Arm64Instances.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::arm64;
using namespace patchcheck::oracle;

namespace {

size_t shown() {
  static const size_t n = std::getenv("PATCHCHECK_SHOW") ? std::stoul(std::getenv("PATCHCHECK_SHOW")) : 60;
  return n;
}

class Failures {
 public:
  void add(const std::string& what) {
    if (++count_ <= shown()) std::printf("FAIL %s\n", what.c_str());
  }
  size_t count() const { return count_; }

 private:
  size_t count_ = 0;
};

struct Tally {
  size_t instances = 0, wordsEqual = 0, textsEqual = 0, roundTrips = 0, passed = 0;
};

std::string collapse(std::string s) {
  std::string out;
  for (char c : s) {
    bool space = c == ' ' || c == '\t';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// objdump's text without `<sym+off>` and `// comment`, its bare hex target
// (the last operand of a pc-relative row) spelled 0x.., spacing collapsed.
std::string normaliseObjdump(std::string s, const InstrDesc* row) {
  if (size_t c = s.find("//"); c != std::string::npos) s.erase(c);
  static const std::regex symbol(R"( <[^>]*>)");
  s = collapse(std::regex_replace(s, symbol, ""));
  if (row && row->operandCount() && isLabelKind(row->operands[row->operandCount() - 1])) {
    size_t last = s.find_last_of(" ");
    if (last != std::string::npos && s.compare(last + 1, 2, "0x") != 0) s.insert(last + 1, "0x");
  }
  return s;
}

// address -> (word, text) from `objdump -d`.
std::map<uint64_t, std::pair<uint32_t, std::string>> parseObjdump(const std::string& out) {
  std::map<uint64_t, std::pair<uint32_t, std::string>> m;
  static const std::regex line(R"(^\s*([0-9a-f]+):\t([0-9a-f]{8}) \t(.*)$)");
  size_t pos = 0;
  while (pos < out.size()) {
    size_t nl = out.find('\n', pos);
    if (nl == std::string::npos) nl = out.size();
    std::string l = out.substr(pos, nl - pos);
    std::smatch x;
    if (std::regex_match(l, x, line))
      m[std::stoull(x[1], nullptr, 16)] = {uint32_t(std::stoul(x[2], nullptr, 16)), x[3]};
    pos = nl + 1;
  }
  return m;
}

std::variant<Assembly, Diagnostics> ours(const std::string& source, uint64_t base) {
  AssemblyOptions o;
  o.base = Value::constant(int64_t(base));
  return assemble(source, "batch.s", o);
}

std::optional<uint32_t> reassemble(const std::string& text, uint64_t address) {
  auto a = ours(text, address);
  if (!std::holds_alternative<Assembly>(a)) return std::nullopt;
  const auto& units = std::get<Assembly>(a).units;
  if (units.size() != 1 || !units[0].isConcrete()) return std::nullopt;
  return uint32_t(units[0].bits);
}

// GNU as + ld + objcopy + objdump on `source` linked at `base`: the words
// and objdump's lines, or the complaints per line.
struct GnuResult {
  std::vector<std::string> complaints;
  std::vector<uint32_t> words;
  std::map<uint64_t, std::pair<uint32_t, std::string>> dump;
};

GnuResult gnu(const Arm64Tools& tools, const std::string& source, size_t lines, uint64_t base) {
  TempDir dir;
  writeFile(dir.file("in.s"), source);
  GnuResult r;
  RunResult as = run({tools.as, dir.file("in.s"), "-o", dir.file("in.o")});
  r.complaints = gasComplaints(as.err, lines);
  if (as.status != 0) return r;
  r.words = linkedWords(tools, dir.file("in.o"), base, dir);
  RunResult od = run({tools.objdump, "-d", dir.file("out.elf")});
  if (od.status != 0) throw std::runtime_error("objdump failed: " + od.err);
  r.dump = parseObjdump(od.out);
  return r;
}

void runBatch(const Arm64Batch& b, const Arm64Tools& tools, Tally& tally, Failures& fails) {
  std::string source = b.source();
  GnuResult g = gnu(tools, source, b.lines.size(), b.base);
  bool gasFailed = g.words.empty();
  auto mine = ours(source, b.base);
  std::set<size_t> refused;
  if (auto* errs = std::get_if<Diagnostics>(&mine))
    for (const Diagnostic& d : *errs) {
      refused.insert(d.where.line - 1);
      fails.add("we refuse '" + b.lines[d.where.line - 1].text + "': " + d.message);
    }
  for (size_t i = 0; i < b.lines.size(); ++i)
    if (!g.complaints[i].empty()) fails.add("GNU as complains about '" + b.lines[i].text + "': " + g.complaints[i]);
  if (gasFailed || !refused.empty()) {
    tally.instances += b.lines.size();
    if (!gasFailed && refused.empty()) throw std::runtime_error("GNU as failed without naming a line");
    return;
  }
  const auto& units = std::get<Assembly>(mine).units;
  for (size_t i = 0; i < b.lines.size(); ++i) {
    const Arm64Instance& x = b.lines[i];
    ++tally.instances;
    bool ok = g.complaints[i].empty();
    uint64_t addr = b.address(i);
    uint32_t w = uint32_t(units[i].bits), gw = i < g.words.size() ? g.words[i] : 0;
    bool sameAsMade = (x.row->flags & kAsmOnly) || gw == x.word;
    if (gw == w && sameAsMade) {
      ++tally.wordsEqual;
    } else {
      ok = false;
      fails.add("word of '" + x.text + "' at " + hex(addr) + ": ours " + hex(w) + ", GNU as " + hex(gw) +
                (sameAsMade ? "" : ", made from " + hex(x.word)));
    }
    std::string text = disassemble(w, addr);
    auto it = g.dump.find(addr);
    std::string theirs = it == g.dump.end() ? "<missing>" : normaliseObjdump(it->second.second, decode(w));
    if (collapse(text) == theirs) {
      ++tally.textsEqual;
    } else {
      ok = false;
      fails.add("text of " + hex(w) + " ('" + x.text + "'): ours '" + collapse(text) + "', objdump '" + theirs + "'");
    }
    auto back = reassemble(text, addr);
    if (back == w) {
      ++tally.roundTrips;
    } else {
      ok = false;
      fails.add("round trip of " + hex(w) + " ('" + text + "') gives " + (back ? hex(*back) : "an error"));
    }
    if (ok) ++tally.passed;
  }
}

// Spellings GNU as takes that the printer never produces; one per line,
// `#` starts a comment.
size_t checkSpellings(const Arm64Tools& tools, Failures& fails) {
  std::ifstream f(PATCHCHECK_TEST_DATA "/encoder/arm64-spellings.txt");
  if (!f) throw std::runtime_error("cannot read tests/data/encoder/arm64-spellings.txt");
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) {
    if (l.empty() || l[0] == '#') continue;
    lines.push_back(l);
  }
  std::string source;
  for (const auto& l : lines) source += l + "\n";
  const uint64_t base = 0xffff800080000000ull;
  GnuResult g = gnu(tools, source, lines.size(), base);
  auto mine = ours(source, base);
  size_t passed = 0;
  for (size_t i = 0; i < lines.size(); ++i)
    if (!g.complaints[i].empty()) fails.add("spelling '" + lines[i] + "': GNU as says " + g.complaints[i]);
  if (auto* errs = std::get_if<Diagnostics>(&mine)) {
    for (const Diagnostic& d : *errs) fails.add("spelling: we refuse '" + lines[d.where.line - 1] + "': " + d.message);
    return 0;
  }
  const auto& units = std::get<Assembly>(mine).units;
  for (size_t i = 0; i < lines.size() && i < g.words.size(); ++i) {
    if (units[i].bits == g.words[i]) ++passed;
    else fails.add("spelling '" + lines[i] + "': ours " + hex(units[i].bits) + ", GNU as " + hex(g.words[i]));
  }
  if (g.words.size() != lines.size()) fails.add("spellings: GNU as gave " + std::to_string(g.words.size()) + " words");
  return passed;
}

}  // namespace

namespace patchcheck::oracle::gnu_as_diff {

// This plug-in's part of oracle.gnu_as_diff (tests/oracle/gnu_as_diff.cpp runs every plug-in's).
int arm64Part([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    Arm64Tools tools = requireArm64Tools();
    uint64_t seed = 20240612;
    if (const char* s = std::getenv("PATCHCHECK_SEED")) seed = std::stoull(s);
    std::printf("seed %llu (set PATCHCHECK_SEED to vary)\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    Failures fails;
    Tally total;
    std::set<const InstrDesc*> covered;
    // A kernel image address and a module address (linux arm64, 48-bit VA).
    for (uint64_t base : {0xffff800080000000ull, 0xffff800000400000ull}) {
      Arm64Batch b = makeArm64Batch(base, 45, rng);
      for (const Arm64Instance& x : b.lines) covered.insert(x.row);
      Tally t;
      runBatch(b, tools, t, fails);
      std::printf("base %s: %6zu instances: %6zu words equal, %6zu texts equal, %6zu round trips\n",
                  hex(base).c_str(), t.instances, t.wordsEqual, t.textsEqual, t.roundTrips);
      total.instances += t.instances, total.wordsEqual += t.wordsEqual, total.textsEqual += t.textsEqual;
      total.roundTrips += t.roundTrips, total.passed += t.passed;
    }
    size_t rows = instructionTable().size(), missing = 0;
    for (const InstrDesc& d : instructionTable())
      if (!covered.count(&d)) ++missing, fails.add("row '" + std::string(d.mnemonic) + "' has no instance");
    size_t spellings = checkSpellings(tools, fails);
    std::printf("total: %zu instances: %zu words equal, %zu texts equal, %zu round trips; rows covered %zu of %zu; "
                "%zu spellings equal\n",
                total.instances, total.wordsEqual, total.textsEqual, total.roundTrips, rows - missing, rows, spellings);
    size_t failed = fails.count();
    if (total.instances < 20000) {
      std::printf("FAIL: only %zu instances (need 20000)\n", total.instances);
      ++failed;
    }
    if (fails.count() > shown()) std::printf("... %zu failures in all\n", fails.count());
    std::printf("%zu passed, %zu failed\n", total.passed, failed);
    return failed == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("error: %s\n0 passed, 1 failed\n", e.what());
    return 1;
  }
}

}  // namespace patchcheck::oracle::gnu_as_diff
