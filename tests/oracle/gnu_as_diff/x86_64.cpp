// Differential test of the x86-64 encoder against GNU as and objdump 2.40
// (binutils): random instances of every row of the x86-64 table
// (X86Instances.h), assembled by one `x86_64-linux-gnu-as` run per batch
// and linked at a kernel and a module address with the external symbols
// defined. For every instance (line L<i>, located through the symbol table):
//   - GNU as accepts it without a warning, and so do we;
//   - our bytes equal GNU's, byte for byte, at the same address;
// and for every instruction objdump -d prints, our text for GNU's bytes
// equals objdump's, modulo spacing, its `<symbol>` after a target and its
// `# address` comment after a %rip operand (docs/encoder-x86.md).
// Then tests/data/encoder/x86-spellings.txt the same way: corner cases,
// other spellings, directives and an ftrace_caller.
#include <cstdio>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <stdexcept>

#include "encoder/Hex.h"
#include "encoder/x86_64/Assembler.h"
#include "encoder/x86_64/Printer.h"
#include "tests/oracle/support/Tools.h"
#include "tests/oracle/support/X86Instances.h"

using namespace patchcheck;
using namespace patchcheck::x86_64;
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
  size_t instances = 0, bytesEqual = 0, instructions = 0, textsEqual = 0, passed = 0;
};

std::string collapse(const std::string& s) {
  std::string out;
  for (char c : s) {
    bool space = c == ' ' || c == '\t';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// objdump's text without `<sym+off>` and `# comment`, spacing collapsed.
std::string normaliseObjdump(std::string s) {
  if (size_t c = s.find('#'); c != std::string::npos) s.erase(c);
  static const std::regex symbol(R"( <[^>]*>)");
  return collapse(std::regex_replace(s, symbol, ""));
}

// address -> text of every instruction `objdump -d` prints.
std::map<uint64_t, std::string> parseObjdump(const std::string& out) {
  std::map<uint64_t, std::string> m;
  static const std::regex line(R"(^\s*([0-9a-f]+):\t[0-9a-f ]+\t(.*)$)");
  size_t pos = 0;
  while (pos < out.size()) {
    size_t nl = out.find('\n', pos);
    if (nl == std::string::npos) nl = out.size();
    std::string l = out.substr(pos, nl - pos);
    std::smatch x;
    if (std::regex_match(l, x, line)) m[std::stoull(x[1], nullptr, 16)] = x[2];
    pos = nl + 1;
  }
  return m;
}

std::string bytesText(const uint8_t* b, size_t n) {
  std::string s;
  char buf[4];
  for (size_t i = 0; i < n; ++i) snprintf(buf, sizeof buf, "%s%02x", i ? " " : "", b[i]), s += buf;
  return s;
}

void runBatch(const X86Batch& b, const X86Tools& tools, Tally& tally, Failures& fails) {
  std::string source = b.source();
  size_t n = b.lines.size();
  TempDir dir;
  writeFile(dir.file("in.s"), source);
  if (const char* keep = std::getenv("PATCHCHECK_KEEP"))
    writeFile(std::string(keep) + "/x86-" + hex(b.base) + ".s", source);
  RunResult as = run({tools.as, "--64", dir.file("in.s"), "-o", dir.file("in.o")});
  std::vector<std::string> complaints = x86GasComplaints(as.err, n);
  for (size_t i = 0; i < n; ++i)
    if (!complaints[i].empty()) fails.add("GNU as complains about '" + b.lines[i].text + "': " + complaints[i]);
  AssemblyOptions o;
  o.base = Value::constant(int64_t(b.base));
  for (const auto& [name, addr] : x86ExternalSymbols(b.base)) o.symbols[name] = addr;
  auto mine = assemble(source, "batch.s", o);
  std::set<size_t> refused;
  if (auto* errs = std::get_if<Diagnostics>(&mine))
    for (const Diagnostic& d : *errs) {
      refused.insert(d.where.line - 1);
      fails.add("we refuse '" + b.lines[d.where.line - 1].text + "': " + d.str());
    }
  if (as.status != 0 || !refused.empty()) {
    tally.instances += n;
    if (as.status != 0 && std::all_of(complaints.begin(), complaints.end(), [](auto& c) { return c.empty(); }))
      throw std::runtime_error("GNU as failed without naming a line: " + as.err);
    return;
  }
  std::string text = linkedText(tools, dir.file("in.o"), b.base, dir);
  std::vector<uint64_t> at = lineAddresses(tools, dir.file("out.elf"), n);
  at[n] = b.base + text.size();
  RunResult od = run({tools.objdump, "-d", dir.file("out.elf")});
  if (od.status != 0) throw std::runtime_error("objdump failed: " + od.err);
  auto dump = parseObjdump(od.out);

  // Our units by line.
  std::vector<std::vector<const AssembledUnit*>> byLine(n);
  for (const AssembledUnit& u : std::get<Assembly>(mine).units) byLine.at(u.where.line - 1).push_back(&u);
  std::vector<bool> ok(n, true);
  for (size_t i = 0; i < n; ++i) {
    ++tally.instances;
    if (!complaints[i].empty()) ok[i] = false;
    std::vector<uint8_t> ours;
    uint64_t ourAddress = byLine[i].empty() ? at[i] : uint64_t(byLine[i][0]->address.addend);
    for (const AssembledUnit* u : byLine[i]) ours.insert(ours.end(), u->bytes.begin(), u->bytes.end());
    size_t from = at[i] - b.base, len = at[i + 1] - at[i];
    auto theirs = reinterpret_cast<const uint8_t*>(text.data()) + from;
    if (ourAddress == at[i] && ours.size() == len && std::equal(ours.begin(), ours.end(), theirs)) {
      ++tally.bytesEqual;
    } else {
      ok[i] = false;
      fails.add("bytes of '" + b.lines[i].text + "' at " + hex(at[i]) + ": ours " +
                bytesText(ours.data(), ours.size()) + (ourAddress != at[i] ? " at " + hex(ourAddress) : "") +
                ", GNU as " + bytesText(theirs, len));
    }
  }
  // Every instruction objdump prints, attributed to the line it lies in.
  for (const auto& [addr, theirText] : dump) {
    size_t line = size_t(std::upper_bound(at.begin(), at.begin() + long(n), addr) - at.begin()) - 1;
    // objdump decodes data words as whatever they spell, or not at all.
    if (std::regex_search(b.lines[line].text, std::regex(R"(\.(quad|long|short|word)\b)"))) continue;
    size_t off = addr - b.base;
    size_t len = std::min<size_t>(15, text.size() - off);
    std::string mineText = collapse(disassemble({reinterpret_cast<const uint8_t*>(text.data()) + off, len}, addr));
    std::string expected = normaliseObjdump(theirText);
    ++tally.instructions;
    if (mineText == expected) {
      ++tally.textsEqual;
    } else {
      ok[line] = false;
      fails.add("text at " + hex(addr) + " ('" + b.lines[line].text + "'): ours '" + mineText + "', objdump '" +
                expected + "'");
    }
  }
  for (size_t i = 0; i < n; ++i) tally.passed += ok[i];
}

}  // namespace

namespace patchcheck::oracle::gnu_as_diff {

// This plug-in's part of oracle.gnu_as_diff (tests/oracle/gnu_as_diff.cpp runs every plug-in's).
int x86_64Part([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    X86Tools tools = requireX86Tools();
    uint64_t seed = 20250301;
    if (const char* s = std::getenv("PATCHCHECK_SEED")) seed = std::stoull(s);
    std::printf("seed %llu (set PATCHCHECK_SEED to vary)\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    Failures fails;
    Tally total;
    std::set<const InstrDesc*> covered;
    // The kernel image (text at -2 GiB + 16 MiB) and the module area.
    for (uint64_t base : {0xffffffff81000000ull, 0xffffffffa0000000ull}) {
      X86Batch b = makeX86Batch(base, 11000, 20, true, rng);
      for (const X86Instance& x : b.lines) covered.insert(x.row);
      Tally t;
      runBatch(b, tools, t, fails);
      std::printf("base %s: %6zu instances: %6zu bytes equal; %6zu instructions: %6zu texts equal\n", hex(base).c_str(),
                  t.instances, t.bytesEqual, t.instructions, t.textsEqual);
      total.instances += t.instances, total.bytesEqual += t.bytesEqual, total.instructions += t.instructions;
      total.textsEqual += t.textsEqual, total.passed += t.passed;
    }
    // Corner cases and other spellings (tests/data/encoder/x86-spellings.txt).
    X86Batch spellings = readX86Batch(PATCHCHECK_TEST_DATA "/encoder/x86-spellings.txt", 0xffffffff81000000ull);
    Tally sp;
    runBatch(spellings, tools, sp, fails);
    std::printf("spellings: %zu statements: %zu bytes equal; %zu instructions: %zu texts equal\n", sp.instances,
                sp.bytesEqual, sp.instructions, sp.textsEqual);
    total.passed += sp.passed;
    size_t rows = instructionTable().size(), missing = 0;
    for (const InstrDesc& d : instructionTable())
      if (!covered.count(&d)) ++missing, fails.add("row '" + std::string(d.mnemonic) + "' has no instance");
    std::printf("total: %zu instances, %zu bytes equal; %zu instructions, %zu texts equal; rows covered %zu of %zu\n",
                total.instances, total.bytesEqual, total.instructions, total.textsEqual, rows - missing, rows);
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
