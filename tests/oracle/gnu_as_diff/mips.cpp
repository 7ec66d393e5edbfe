// Differential test against GNU as 2.40: random instances of every row of
// the instruction table, for each ISA, byte order and ABI, assembled by one
// `mips-linux-gnu-as` run per batch and linked (so that R6 branch and j/jal
// relocations resolve); the .text bytes must equal ours. Every word is then
// disassembled by us: the text must reassemble to the same word (both
// spellings), and our no-aliases text must equal `objdump -M no-aliases`
// after normalising its target notation and synonyms.
#include <cstdio>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <stdexcept>

#include "encoder/mips/Assembler.h"
#include "encoder/mips/Printer.h"
#include "tests/oracle/support/EncoderInstances.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::mips;
using namespace patchcheck::oracle;

namespace {

struct Tools {
  std::string as, ld, objcopy, objdump;
};

struct Config {
  mips::Target target;
  unsigned perRow;
};

// Source lines start after ".set noreorder" and ".set noat".
constexpr unsigned kHeaderLines = 2;

struct Tally {
  size_t instances = 0, bytesOk = 0, textOk = 0, roundTripOk = 0, passed = 0;
};

// How many failures are printed in full (PATCHCHECK_SHOW overrides).
size_t shown() {
  static const size_t n = std::getenv("PATCHCHECK_SHOW") ? std::stoul(std::getenv("PATCHCHECK_SHOW")) : 60;
  return n;
}

class Failures {
 public:
  void add(const mips::Target& t, const std::string& what) {
    ++count_;
    if (count_ <= shown()) std::printf("FAIL [%s] %s\n", t.str().c_str(), what.c_str());
  }
  size_t count() const { return count_; }

 private:
  size_t count_ = 0;
};

// Line numbers (0-based instance index) GNU as complains about, with the text.
std::map<size_t, std::string> gasComplaints(const std::string& err) {
  std::map<size_t, std::string> out;
  static const std::regex line(R"(^[^:\n]*:(\d+): (Error|Warning): (.*)$)");
  size_t pos = 0;
  while (pos < err.size()) {
    size_t nl = err.find('\n', pos);
    if (nl == std::string::npos) nl = err.size();
    std::string l = err.substr(pos, nl - pos);
    std::smatch m;
    if (std::regex_match(l, m, line)) {
      size_t n = std::stoul(m[1]);
      if (n > kHeaderLines) out[n - kHeaderLines - 1] += m[2].str() + ": " + m[3].str();
    }
    pos = nl + 1;
  }
  return out;
}

std::variant<Assembly, Diagnostics> ours(const Batch& b) {
  AssemblyOptions o;
  o.target = b.target;
  o.base = Value::constant(int64_t(b.base));
  return assemble(b.source(), "batch.s", o);
}

std::optional<uint32_t> reassemble(const std::string& text, uint64_t address, const mips::Target& t) {
  AssemblyOptions o;
  o.target = t;
  o.base = Value::constant(int64_t(address));
  auto a = assemble(text, "roundtrip.s", o);
  if (!std::holds_alternative<Assembly>(a)) return std::nullopt;
  auto w = concreteWords(std::get<Assembly>(a));
  if (!std::holds_alternative<std::vector<uint32_t>>(w)) return std::nullopt;
  auto& v = std::get<std::vector<uint32_t>>(w);
  if (v.size() != 1) return std::nullopt;
  return v[0];
}

// objdump spells targets "80000010 <L3+0x4>" and a few mnemonics by their
// older names; we print "0x80000010" and the release 2 names.
std::string normaliseObjdump(std::string s) {
  if (size_t lt = s.find(" <"); lt != std::string::npos) {
    s.erase(lt);
    size_t start = s.find_last_of(",\t");
    start = start == std::string::npos ? 0 : start + 1;
    s.insert(start, "0x");
  }
  static const std::pair<const char*, const char*> synonyms[] = {
      {"ror\t", "rotr\t"}, {"rorv\t", "rotrv\t"}, {"dror\t", "drotr\t"},
      {"dror32\t", "drotr32\t"}, {"drorv\t", "drotrv\t"}};
  for (auto [from, to] : synonyms)
    if (s.rfind(from, 0) == 0) s = to + s.substr(std::string(from).size());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  // objdump prints jialc $31, 0 as `jalrc ra`, a spelling GNU as refuses.
  if (s == "jalrc\tra") s = "jialc\tra,0";
  // On MIPS64 objdump spells `ori rt, $0, imm` (hex) and `addiu rt, $0, imm`
  // (decimal) as the dli macro, even under no-aliases.
  if (s.rfind("dli\t", 0) == 0) {
    size_t comma = s.find(',');
    std::string rt = s.substr(4, comma - 4), imm = s.substr(comma + 1);
    bool hex = imm.rfind("0x", 0) == 0;
    s = std::string(hex ? "ori\t" : "addiu\t") + rt + ",zero," + imm;
  }
  return s;
}

// address -> (word, text) from `objdump -d -z -M no-aliases,cp0-names=numeric,hwr-names=numeric`.
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
      m[std::stoull(x[1], nullptr, 16)] = {uint32_t(std::stoul(x[2], nullptr, 16)),
                                           normaliseObjdump(x[3])};
    pos = nl + 1;
  }
  return m;
}

void runBatch(Batch b, const Tools& tools, Tally& tally, Failures& fails) {
  const mips::Target& t = b.target;
  TempDir dir;
  std::vector<bool> rejected(b.lines.size(), false);
  // Lines either assembler refuses are failures; they become nops so that
  // the rest of the batch can still be compared.
  for (int round = 0; round < 3; ++round) {
    std::set<size_t> bad;
    auto mine = ours(b);
    if (auto* errs = std::get_if<Diagnostics>(&mine))
      for (const Diagnostic& d : *errs) {
        size_t i = d.where.line - kHeaderLines - 1;
        if (i < b.lines.size() && !rejected[i]) {
          fails.add(t, "we reject what GNU as should accept: '" + b.lines[i].text + "': " + d.message);
          bad.insert(i);
        }
      }
    writeFile(dir.file("in.s"), b.source());
    std::vector<std::string> argv{tools.as};
    for (auto& f : gasFlags(t)) argv.push_back(f);
    argv.insert(argv.end(), {dir.file("in.s"), "-o", dir.file("in.o")});
    RunResult gas = run(argv);
    for (auto& [i, msg] : gasComplaints(gas.err))
      if (i < b.lines.size() && !rejected[i] && !bad.count(i)) {
        fails.add(t, "GNU as rejects or warns on '" + b.lines[i].text + "': " + msg);
        bad.insert(i);
      }
    if (bad.empty() && gas.status != 0) throw std::runtime_error("GNU as failed: " + gas.err);
    if (bad.empty()) break;
    for (size_t i : bad) rejected[i] = true, b.lines[i].text = "nop";
  }
  auto mine = ours(b);
  if (!std::holds_alternative<Assembly>(mine))
    throw std::runtime_error("our assembler still fails on the batch for " + t.str());
  const auto& words = std::get<Assembly>(mine).words;

  std::string hexBase = "0x" + [&] {
    char buf[32];
    snprintf(buf, sizeof buf, "%llx", (unsigned long long)b.base);
    return std::string(buf);
  }();
  RunResult ld = run({tools.ld, "-m", ldEmulation(t), "-nostdlib", "-e", hexBase,
                      "-Ttext=" + hexBase, dir.file("in.o"), "-o", dir.file("out.elf")});
  if (ld.status != 0) throw std::runtime_error("ld failed for " + t.str() + ": " + ld.err);
  RunResult oc = run({tools.objcopy, "-O", "binary", "-j", ".text", dir.file("out.elf"),
                      dir.file("out.bin")});
  if (oc.status != 0) throw std::runtime_error("objcopy failed: " + oc.err);
  std::string bytes = readFile(dir.file("out.bin"));
  RunResult od = run({tools.objdump, "-d", "-z", "-M", "no-aliases,cp0-names=numeric,hwr-names=numeric",
                      dir.file("out.elf")});
  if (od.status != 0) throw std::runtime_error("objdump failed: " + od.err);
  auto dump = parseObjdump(od.out);

  for (size_t i = 0; i < b.lines.size(); ++i) {
    if (!b.lines[i].row) continue;  // filler nops
    ++tally.instances;
    if (rejected[i]) continue;  // reported above
    const std::string& src = b.lines[i].text;
    uint64_t addr = b.address(i);
    uint32_t w = words[i].bits;
    bool ok = true;
    // Bytes exactly as GNU as laid them out, in the target's byte order.
    uint32_t gw = 0;
    bool have = 4 * i + 4 <= bytes.size();
    for (unsigned k = 0; have && k < 4; ++k) {
      uint32_t byte = uint8_t(bytes[4 * i + k]);
      gw |= t.endian == Endian::Big ? byte << (24 - 8 * k) : byte << (8 * k);
    }
    char buf[160];
    if (have && gw == w) {
      ++tally.bytesOk;
    } else {
      ok = false;
      snprintf(buf, sizeof buf, "word of '%s' at 0x%llx: ours %08x, GNU as %08x", src.c_str(),
               (unsigned long long)addr, w, gw);
      fails.add(t, buf);
    }
    // Our no-aliases text against objdump's.
    uint64_t dumpAddr = t.abi == Abi::N64 ? addr : (addr & 0xffffffffull);
    std::string text = disassemble(w, addr, t, Spelling::NoAliases);
    auto it = dump.find(dumpAddr);
    if (it != dump.end() && it->second.second == text) {
      ++tally.textOk;
    } else {
      ok = false;
      fails.add(t, "text of '" + src + "': ours '" + text + "', objdump '" +
                       (it == dump.end() ? std::string("<missing>") : it->second.second) + "'");
    }
    // Round trip: our text (the decoder's spelling) reassembles to the word.
    // (Not the no-aliases text: R6 `jr $0` is `jalr $0, $0` there, which GNU
    // as refuses as jalr with rd == rs.)
    std::string alias = disassemble(w, addr, t, Spelling::Aliases);
    auto back = reassemble(alias, addr, t);
    if (back == w) {
      ++tally.roundTripOk;
    } else {
      ok = false;
      snprintf(buf, sizeof buf, "round trip of %08x ('%s') gives %s", w, alias.c_str(),
               back ? ("0x" + std::to_string(*back)).c_str() : "an error");
      fails.add(t, buf);
    }
    if (ok) ++tally.passed;
  }
}

}  // namespace

namespace patchcheck::oracle::gnu_as_diff {

// This plug-in's part of oracle.gnu_as_diff (tests/oracle/gnu_as_diff.cpp runs every plug-in's).
int mipsPart([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    Tools tools{requireTool("mips-linux-gnu-as", "binutils-mips-linux-gnu"),
                requireTool("mips-linux-gnu-ld", "binutils-mips-linux-gnu"),
                requireTool("mips-linux-gnu-objcopy", "binutils-mips-linux-gnu"),
                requireTool("mips-linux-gnu-objdump", "binutils-mips-linux-gnu")};
    uint64_t seed = 20240601;
    if (const char* s = std::getenv("PATCHCHECK_SEED")) seed = std::stoull(s);
    std::printf("seed %llu (set PATCHCHECK_SEED to vary)\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);

    std::vector<Config> configs;
    for (Isa isa : {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6})
      for (Endian e : {Endian::Big, Endian::Little})
        configs.push_back({mips::Target{isa, e, defaultAbi(isa)}, 15});
    configs.push_back({mips::Target{Isa::Mips64R2, Endian::Big, Abi::N32}, 4});
    configs.push_back({mips::Target{Isa::Mips64R6, Endian::Little, Abi::N32}, 4});

    Failures fails;
    Tally total;
    std::set<const InstrDesc*> covered;
    for (const Config& c : configs) {
      Batch b = makeBatch(c.target, linkBase(c.target), c.perRow, rng);
      for (const Instance& x : b.lines) covered.insert(x.row);
      Tally tally;
      runBatch(std::move(b), tools, tally, fails);
      std::printf("%-22s %6zu instances: %6zu bytes equal, %6zu texts equal, %6zu round trips\n",
                  c.target.str().c_str(), tally.instances, tally.bytesOk, tally.textOk,
                  tally.roundTripOk);
      total.instances += tally.instances, total.bytesOk += tally.bytesOk;
      total.textOk += tally.textOk, total.roundTripOk += tally.roundTripOk;
      total.passed += tally.passed;
    }
    size_t rows = 0, missing = 0;
    for (const InstrDesc& d : instructionTable()) {
      ++rows;
      if (!covered.count(&d)) {
        ++missing;
        fails.add(mips::Target{}, "row '" + std::string(d.mnemonic) + "' has no instance");
      }
    }
    std::printf("%-22s %6zu instances: %6zu bytes equal, %6zu texts equal, %6zu round trips\n",
                "total", total.instances, total.bytesOk, total.textOk, total.roundTripOk);
    std::printf("rows covered: %zu of %zu\n", rows - missing, rows);
    size_t failed = total.instances - total.passed + missing;
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
