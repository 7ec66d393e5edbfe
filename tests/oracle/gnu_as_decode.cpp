// The decoder against GNU objdump 2.40 on raw words: for every row of each
// ISA, words with the row's fixed bits and random operand bits (so also
// words that break the row's rs/rt rule and fall to another row), plus
// fully random words. Where we decode a word, our no-aliases text must equal
// objdump's; where we call a word reserved, objdump must not decode it as an
// instruction of our table either (objdump knows more instructions, FPU and
// DSP ones, which are out of our scope and listed by mnemonic below).
#include <cstdio>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <stdexcept>

#include "encoder/mips/Decoder.h"
#include "encoder/mips/Printer.h"
#include "tests/oracle/support/EncoderInstances.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::mips;
using namespace patchcheck::oracle;

namespace {

// objdump spells targets "0x80000010" already in raw mode; only synonyms
// and its dli spelling differ (see gnu_as_diff.cpp).
std::string normalise(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  static const std::pair<const char*, const char*> synonyms[] = {
      {"ror\t", "rotr\t"}, {"rorv\t", "rotrv\t"}, {"dror\t", "drotr\t"},
      {"dror32\t", "drotr32\t"}, {"drorv\t", "drotrv\t"}};
  for (auto [from, to] : synonyms)
    if (s.rfind(from, 0) == 0) s = to + s.substr(std::string(from).size());
  if (s == "jalrc\tra") s = "jialc\tra,0";
  if (s.rfind("dli\t", 0) == 0) {
    size_t comma = s.find(',');
    std::string rt = s.substr(4, comma - 4), imm = s.substr(comma + 1);
    s = std::string(imm.rfind("0x", 0) == 0 ? "ori\t" : "addiu\t") + rt + ",zero," + imm;
  }
  return s;
}

std::map<uint64_t, std::string> parseRaw(const std::string& out) {
  std::map<uint64_t, std::string> m;
  static const std::regex line(R"(^\s*([0-9a-f]+):\t([0-9a-f]{8}) \t(.*)$)");
  size_t pos = 0;
  while (pos < out.size()) {
    size_t nl = out.find('\n', pos);
    if (nl == std::string::npos) nl = out.size();
    std::string l = out.substr(pos, nl - pos);
    std::smatch x;
    if (std::regex_match(l, x, line)) m[std::stoull(x[1], nullptr, 16)] = normalise(x[3]);
    pos = nl + 1;
  }
  return m;
}

std::string mnemonicOf(const std::string& text) { return text.substr(0, text.find('\t')); }

}  // namespace

int main() {
  try {
    std::string objdump = requireTool("mips-linux-gnu-objdump", "binutils-mips-linux-gnu");
    std::mt19937_64 rng(11);
    size_t passed = 0, failed = 0, shown = 0;
    auto fail = [&](const mips::Target& t, const std::string& why) {
      ++failed;
      if (++shown <= 80) std::printf("FAIL [%s] %s\n", t.str().c_str(), why.c_str());
    };
    std::set<std::string> ours;
    for (const InstrDesc& d : instructionTable()) ours.insert(std::string(d.mnemonic));
    for (Isa isa : {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6}) {
      Endian e = (isa == Isa::Mips64R2 || isa == Isa::Mips32R6) ? Endian::Little : Endian::Big;
      mips::Target t{isa, e, defaultAbi(isa)};
      std::vector<uint32_t> words;
      for (const InstrDesc* d : rowsFor(isa)) {
        if (d->flags & kAsmOnly) continue;
        for (int i = 0; i < 40; ++i) words.push_back(d->match | (uint32_t(rng()) & ~d->mask()));
      }
      for (int i = 0; i < 3000; ++i) words.push_back(uint32_t(rng()));
      std::string bytes;
      for (uint32_t w : words)
        for (int k = 0; k < 4; ++k)
          bytes += char(e == Endian::Big ? w >> (24 - 8 * k) : w >> (8 * k));
      TempDir dir;
      writeFile(dir.file("raw.bin"), bytes);
      uint64_t base = linkBase(t);
      char vma[32];
      snprintf(vma, sizeof vma, "0x%llx", (unsigned long long)base);
      std::string arch = "mips:isa" + std::string(name(isa)).substr(4);
      RunResult od = run({objdump, "-D", "-z", "-b", "binary", "-m", arch,
                          e == Endian::Big ? "-EB" : "-EL", std::string("--adjust-vma=") + vma,
                          "-M", std::string("no-aliases,cp0-names=numeric,hwr-names=numeric,gpr-names=") +
                                    (t.is64() ? "64" : "32"),
                          dir.file("raw.bin")});
      if (od.status != 0) throw std::runtime_error("objdump failed: " + od.err);
      auto dump = parseRaw(od.out);
      size_t decoded = 0, reserved = 0, here = 0;
      for (size_t i = 0; i < words.size(); ++i) {
        uint32_t w = words[i];
        uint64_t addr = base + 4 * i;
        auto it = dump.find(t.abi == Abi::N64 ? addr : addr & 0xffffffffull);
        if (it == dump.end()) {
          fail(t, "objdump printed nothing at " + std::to_string(addr));
          continue;
        }
        const std::string& theirs = it->second;
        char buf[64];
        snprintf(buf, sizeof buf, "%08x", w);
        if (decode(w, isa)) {
          ++decoded;
          std::string mine = disassemble(w, addr, t, Spelling::NoAliases);
          if (mine != theirs) {
            fail(t, std::string(buf) + ": ours '" + mine + "', objdump '" + theirs + "'");
            continue;
          }
        } else {
          ++reserved;
          std::string m = mnemonicOf(theirs);
          // DAUI is a MIPS64 instruction; GNU 2.40 also decodes (and
          // assembles) it on mips32r6, see patchcheck-only-rejects.txt.
          bool known = isa == Isa::Mips32R6 && m == "daui";
          if (m != ".word" && ours.count(m) && !known) {
            fail(t, std::string(buf) + ": we call it reserved, objdump '" + theirs + "'");
            continue;
          }
        }
        ++passed, ++here;
      }
      std::printf("%-22s %5zu words: %5zu decoded, %5zu reserved for us, %5zu agree\n",
                  t.str().c_str(), words.size(), decoded, reserved, here);
    }
    // The classes disasm names for words we do not model (FPU, MSA, DSP...):
    // objdump, with the ASEs it needs an option for, decodes some random
    // words of each class entry, never as an instruction of our table (but
    // for DSP's accumulator forms of mult, madd, mfhi...).
    for (Isa isa : {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6}) {
      mips::Target t{isa, Endian::Big, defaultAbi(isa)};
      std::vector<std::pair<uint32_t, const ExcludedClass*>> words;
      for (const ExcludedClass& c : excludedClasses()) {
        if (!(c.isas & bit(isa))) continue;
        for (int i = 0; i < 64; ++i) {
          // Random operand bits, each 5-bit field zero half of the time
          // (many encodings of these classes want some fields zero).
          uint32_t r = uint32_t(rng());
          for (unsigned shift : {21u, 16u, 11u, 6u})
            if (rng() & 1) r &= ~(31u << shift);
          uint32_t w = c.match | (r & ~c.mask);
          if (excludedClassOf(w, isa) == &c) words.push_back({w, &c});
        }
      }
      std::string bytes;
      for (auto [w, c] : words)
        for (int k = 0; k < 4; ++k) bytes += char(w >> (24 - 8 * k));
      TempDir dir;
      writeFile(dir.file("raw.bin"), bytes);
      std::string arch = "mips:isa" + std::string(name(isa)).substr(4);
      RunResult od = run({objdump, "-D", "-z", "-b", "binary", "-m", arch, "-EB", "-M",
                          "no-aliases,msa,virt,xpa,ginv", dir.file("raw.bin")});
      if (od.status != 0) throw std::runtime_error("objdump failed: " + od.err);
      auto dump = parseRaw(od.out);
      std::map<const ExcludedClass*, size_t> known;
      size_t classified = 0;
      for (size_t i = 0; i < words.size(); ++i) {
        auto [w, c] = words[i];
        known[c];
        auto it = dump.find(4 * i);
        std::string m = it == dump.end() ? ".word" : mnemonicOf(it->second);
        if (m == ".word") continue;
        ++known[c];
        char buf[64];
        snprintf(buf, sizeof buf, "%08x", w);
        // DSP spells its accumulator forms with our mnemonics (mfhi s0,$ac1).
        bool accumulator = it->second.find("$ac") != std::string::npos;
        if (ours.count(m) && !accumulator) {
          fail(t, std::string(buf) + ": we call it " + std::string(c->name) + ", objdump '" + it->second + "'");
          continue;
        }
        ++classified, ++passed;
      }
      for (auto [c, n] : known)
        if (n == 0) {
          char buf[96];
          snprintf(buf, sizeof buf, "class %.*s (match %08x): objdump decodes none of its words",
                   int(c->name.size()), c->name.data(), c->match);
          fail(t, buf);
        }
      std::printf("%-22s %5zu words of %zu unmodelled class entries, %5zu decoded by objdump outside our table\n",
                  t.str().c_str(), words.size(), known.size(), classified);
    }
    std::printf("%zu passed, %zu failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("error: %s\n0 passed, 1 failed\n", e.what());
    return 1;
  }
}
