// The refusal side of the GNU as comparison. Corpus 1: inputs GNU as 2.40
// refuses (a hand-written list plus generated cases: every mnemonic on an ISA
// that lacks it, every immediate one past its range, registers that do not
// exist); each must be an Error in GNU as and an error for us. Corpus 2:
// inputs GNU as accepts but patchcheck refuses on purpose (macros that
// expand into several words, two-word li, relaxed branches, a jump out of
// its 256 MB region...); GNU as must accept each and we must refuse each,
// so the list stays true. One GNU as run per target and corpus: it reports
// every failing line by number.
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "encoder/mips/Assembler.h"
#include "encoder/mips/Fields.h"
#include "tests/oracle/support/EncoderInstances.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::mips;
using namespace patchcheck::oracle;

namespace {

constexpr unsigned kHeaderLines = 2;  // .set noreorder, .set noat

struct Case {
  std::string text;
  std::string origin;  // "file:line" or "generated: why"
};

// A corpus file: `[isa abi]` sections of one input per line; `# ...` ends a
// line's text. In the patchcheck-only file a line `lenient NAME` says that
// GNU as takes more for NAME on that ISA than the instruction (a macro,
// folded or wrapped operands), so generated cases leave NAME out.
struct Corpus {
  std::map<std::string, std::vector<Case>> byTarget;  // "isa abi" -> cases
  std::map<std::string, std::set<std::string>> lenient;
};

Corpus readCorpus(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  Corpus c;
  std::string line, section;
  unsigned n = 0;
  while (std::getline(f, line)) {
    ++n;
    std::string text = line.substr(0, line.find('#'));
    while (!text.empty() && std::isspace((unsigned char)text.back())) text.pop_back();
    while (!text.empty() && std::isspace((unsigned char)text.front())) text.erase(0, 1);
    if (text.empty()) continue;
    if (text.front() == '[') {
      section = text.substr(1, text.find(']') - 1);
      continue;
    }
    if (section.empty()) throw std::runtime_error(path + ":" + std::to_string(n) + ": no [isa abi] yet");
    if (text.rfind("lenient ", 0) == 0) {
      c.lenient[section].insert(text.substr(8));
      continue;
    }
    c.byTarget[section].push_back({text, path.substr(path.rfind('/') + 1) + ":" + std::to_string(n)});
  }
  return c;
}

std::string sectionOf(const mips::Target& t) {
  return std::string(name(t.isa)) + " " + std::string(name(t.abi));
}

// The operands of a generated instance, split at the top-level ", ".
std::vector<std::string> splitInstance(const std::string& text, std::string& mnemonic) {
  size_t sp = text.find(' ');
  mnemonic = text.substr(0, sp);
  std::vector<std::string> ops;
  if (sp == std::string::npos) return ops;
  std::string rest = text.substr(sp + 1);
  size_t pos = 0;
  while (true) {
    size_t c = rest.find(", ", pos);
    ops.push_back(rest.substr(pos, c - pos));
    if (c == std::string::npos) break;
    pos = c + 2;
  }
  return ops;
}

std::string join(const std::string& mnemonic, const std::vector<std::string>& ops) {
  std::string s = mnemonic;
  for (size_t i = 0; i < ops.size(); ++i) s += (i ? ", " : " ") + ops[i];
  return s;
}

bool isLoad(Op op) {
  switch (op) {
    case Op::Lb: case Op::Lbu: case Op::Lh: case Op::Lhu: case Op::Lw: case Op::Lwu:
    case Op::Ld: case Op::Lwl: case Op::Lwr: case Op::Ldl: case Op::Ldr: case Op::Ll:
    case Op::Lld:
      return true;
    default:
      return false;
  }
}

// Generated cases GNU as must refuse on `t`.
std::vector<Case> generated(const mips::Target& t, const std::set<std::string>& lenient,
                            std::mt19937_64& rng) {
  std::vector<Case> out;
  uint64_t base = linkBase(t);
  // Every mnemonic with no row in this ISA, spelled as the other ISAs take it.
  std::set<std::string> here, done;
  for (const InstrDesc& d : instructionTable())
    if (t.has(d.isas)) here.insert(std::string(d.mnemonic));
  for (const InstrDesc& d : instructionTable()) {
    std::string m(d.mnemonic);
    if (here.count(m) || lenient.count(m) || done.count(m)) continue;
    done.insert(m);
    Isa other = Isa::Mips32R2;
    for (Isa i : {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6})
      if (d.isas & bit(i)) other = i;
    std::string text = loneInstance(d, mips::Target{other, t.endian, defaultAbi(other)}, base, rng);
    out.push_back({text, "generated: '" + m + "' is not in " + std::string(name(t.isa))});
  }
  // Every immediate of every row one past the range that any row of the
  // same mnemonic and arity takes there (dsll takes 0..63 through dsll32).
  // Loads are left out: GNU expands a wide offset through rt.
  for (const InstrDesc& d : instructionTable()) {
    if (!t.has(d.isas) || (d.flags & kAsmOnly) || lenient.count(std::string(d.mnemonic))) continue;
    for (unsigned i = 0; i < d.operandCount(); ++i) {
      Opnd k = d.operands[i];
      auto r = immediateRange(k);
      if (!r || (isMemoryKind(k) && isLoad(d.op)) || k == Opnd::Cp0Reg) continue;
      Range all = *r;
      for (const InstrDesc& o : instructionTable())
        if (o.mnemonic == d.mnemonic && t.has(o.isas) && o.operandCount() == d.operandCount())
          if (auto ro = immediateRange(o.operands[i]))
            all.lo = std::min(all.lo, ro->lo), all.hi = std::max(all.hi, ro->hi);
      for (int64_t v : {all.lo - 1, all.hi + 1}) {
        // GNU takes size 0 for ins/dins when pos > 0 (msb < lsb, UNPREDICTABLE):
        // refused on purpose, see patchcheck-only-rejects.txt.
        if (isInsertSizeKind(k) && v < all.lo) continue;
        std::string m;
        auto ops = splitInstance(loneInstance(d, t, base, rng), m);
        if (isMemoryKind(k)) ops[i] = std::to_string(v) + ops[i].substr(ops[i].rfind('('));
        else ops[i] = std::to_string(v);
        out.push_back({join(m, ops), "generated: operand " + std::to_string(i + 1) + " of '" + m +
                                         "' out of range"});
      }
    }
  }
  // A register that does not exist, in every register position of every row.
  // (Not the second operand of a trap, nor a memory base: GNU also has
  // `teq rs, imm` and `lw rt, address` macros, where an unknown `$name` reads
  // as a symbol.)
  static const char* badRegs[] = {"$32", "$t10", "$k2", "$s8x", "$99"};
  for (const InstrDesc& d : instructionTable()) {
    if (!t.has(d.isas) || lenient.count(std::string(d.mnemonic))) continue;
    bool trap = d.op == Op::Teq || d.op == Op::Tne || d.op == Op::Tge || d.op == Op::Tgeu ||
                d.op == Op::Tlt || d.op == Op::Tltu;
    for (unsigned i = 0; i < d.operandCount(); ++i) {
      Opnd k = d.operands[i];
      if (!isRegisterKind(k) || (trap && i == 1)) continue;
      std::string m;
      auto ops = splitInstance(loneInstance(d, t, base, rng), m);
      std::string bad = badRegs[std::uniform_int_distribution<size_t>(0, 4)(rng)];
      ops[i] = bad;
      out.push_back({join(m, ops), "generated: bad register in '" + m + "'"});
    }
  }
  return out;
}

// Error lines (0-based case index) in GNU as's stderr, with the message.
std::map<size_t, std::string> gasErrors(const std::string& err) {
  std::map<size_t, std::string> out;
  static const std::regex line(R"(^[^:\n]*:(\d+): Error: (.*)$)");
  std::istringstream in(err);
  std::string l;
  while (std::getline(in, l)) {
    std::smatch m;
    if (std::regex_match(l, m, line)) {
      size_t n = std::stoul(m[1]);
      if (n > kHeaderLines) out[n - kHeaderLines - 1] = m[2];
    }
  }
  return out;
}

std::optional<std::string> ourError(const std::string& text, const mips::Target& t) {
  AssemblyOptions o;
  o.target = t;
  o.base = Value::constant(int64_t(linkBase(t)));
  auto a = assemble(text, "case.s", o);
  if (auto* e = std::get_if<Diagnostics>(&a)) return (*e)[0].message;
  auto w = concreteWords(std::get<Assembly>(a));
  if (auto* e = std::get_if<Diagnostics>(&w)) return (*e)[0].message;
  return std::nullopt;
}

std::map<size_t, std::string> runGas(const std::string& as, const mips::Target& t,
                                     const std::vector<Case>& cases) {
  TempDir dir;
  std::string src = ".set noreorder\n.set noat\n";
  for (const Case& c : cases) src += c.text + "\n";
  writeFile(dir.file("in.s"), src);
  std::vector<std::string> argv{as};
  for (auto& f : gasFlags(t)) argv.push_back(f);
  argv.insert(argv.end(), {dir.file("in.s"), "-o", dir.file("in.o")});
  return gasErrors(run(argv).err);
}

struct Counts {
  size_t passed = 0, failed = 0;
  void fail(const mips::Target& t, const Case& c, const std::string& why) {
    ++failed;
    if (failed <= 80)
      std::printf("FAIL [%s] '%s' (%s): %s\n", t.str().c_str(), c.text.c_str(), c.origin.c_str(),
                  why.c_str());
  }
};

}  // namespace

int main() {
  try {
    std::string as = requireTool("mips-linux-gnu-as", "binutils-mips-linux-gnu");
    std::string dir = std::string(PATCHCHECK_TEST_DATA) + "/encoder/";
    Corpus rejects = readCorpus(dir + "gnu-as-rejects.txt");
    Corpus ours = readCorpus(dir + "patchcheck-only-rejects.txt");
    std::mt19937_64 rng(7);
    Counts total;
    size_t rejectCases = 0, oursCases = 0;
    for (Isa isa : {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6}) {
      for (Endian e : {Endian::Big, Endian::Little}) {
        mips::Target t{isa, e, defaultAbi(isa)};
        std::string sec = sectionOf(t);
        // Corpus 1: GNU as and we both refuse.
        std::vector<Case> cases = rejects.byTarget[sec];
        for (Case& c : generated(t, ours.lenient[sec], rng)) cases.push_back(std::move(c));
        auto errs = runGas(as, t, cases);
        Counts here;
        for (size_t i = 0; i < cases.size(); ++i) {
          auto mine = ourError(cases[i].text, t);
          if (!errs.count(i)) here.fail(t, cases[i], "GNU as accepts it (corpus is wrong?)");
          else if (!mine) here.fail(t, cases[i], "we accept it; GNU as: " + errs[i]);
          else ++here.passed;
        }
        // Corpus 2: GNU as accepts, we refuse on purpose.
        const std::vector<Case>& mineOnly = ours.byTarget[sec];
        auto errs2 = runGas(as, t, mineOnly);
        for (size_t i = 0; i < mineOnly.size(); ++i) {
          auto mine = ourError(mineOnly[i].text, t);
          if (errs2.count(i)) here.fail(t, mineOnly[i], "GNU as refuses it too: move it to gnu-as-rejects.txt (" + errs2[i] + ")");
          else if (!mine) here.fail(t, mineOnly[i], "we accept it, but the list says we refuse it");
          else ++here.passed;
        }
        std::printf("%-22s %4zu refused by both, %3zu refused by patchcheck only: %zu ok, %zu failed\n",
                    t.str().c_str(), cases.size(), mineOnly.size(), here.passed, here.failed);
        rejectCases += cases.size(), oursCases += mineOnly.size();
        total.passed += here.passed, total.failed += here.failed;
      }
    }
    std::printf("total: %zu refused by both, %zu by patchcheck only\n", rejectCases, oursCases);
    std::printf("%zu passed, %zu failed\n", total.passed, total.failed);
    return total.failed == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("error: %s\n0 passed, 1 failed\n", e.what());
    return 1;
  }
}
