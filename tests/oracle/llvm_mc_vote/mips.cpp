// A second vote from LLVM 14's llvm-mc on a sample of the differential
// instances (every row, each ISA and byte order) and on the hand-written
// corpus of inputs GNU as refuses. llvm-mc assembles each batch to an
// object, GNU ld links it (R6 branch and j/jal relocations resolve), and the
// .text bytes are compared with ours. Every disagreement must be recorded in
// tests/data/encoder/llvm-known-disagreements.txt with its reason; an
// unrecorded one fails, a recorded one that no longer occurs is reported.
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "encoder/mips/Assembler.h"
#include "tests/oracle/support/EncoderInstances.h"
#include "tests/oracle/support/KnownDisagreements.h"
#include "tests/oracle/support/LlvmMc.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::mips;
using namespace patchcheck::oracle;

namespace {

constexpr size_t kFirstLine = 3;  // after ".set noreorder" and ".set noat"

std::vector<std::string> llvmFlags(const mips::Target& t) {
  std::string triple = t.is64() ? "mips64" : "mips";
  if (t.endian == Endian::Little) triple += "el";
  return {"-triple=" + triple + "-linux-gnu", "-mcpu=" + std::string(name(t.isa)),
          "-target-abi=" + std::string(name(t.abi))};
}

struct Tools {
  std::string mc, ld, objcopy;
};

RunResult runMc(const Tools& tools, const mips::Target& t, const std::string& src, const TempDir& dir) {
  writeFile(dir.file("in.s"), src);
  std::vector<std::string> argv{tools.mc, "-filetype=obj"};
  for (auto& f : llvmFlags(t)) argv.push_back(f);
  argv.insert(argv.end(), {dir.file("in.s"), "-o", dir.file("in.o")});
  return run(argv);
}

// Assembles one batch with llvm-mc; returns the bytes of the linked .text
// and the lines LLVM refused or crashed on (replaced by nops in `b`).
std::string llvmBytes(Batch& b, const Tools& tools, std::set<size_t>& refused, Observed& seen) {
  TempDir dir;
  for (int round = 0; round < 20; ++round) {
    RunResult r = runMc(tools, b.target, b.source(), dir);
    auto errs = llvmErrors(r.err, kFirstLine);
    if (failsWithoutLine(r, kFirstLine)) {
      size_t i = firstFailingWithoutLine(b.lines.size(), kFirstLine, [&](size_t n) {
        Batch prefix{b.target, b.base, {b.lines.begin(), b.lines.begin() + long(n)}};
        return runMc(tools, b.target, prefix.source(), dir);
      });
      seen.add({"fails", std::string(name(b.target.isa)), mnemonicOf(b.lines[i].text)},
               b.lines[i].text);
      refused.insert(i);
      b.lines[i].text = "nop";
      continue;
    }
    if (errs.empty()) {
      if (r.status != 0) throw std::runtime_error("llvm-mc failed: " + r.err);
      break;
    }
    for (auto& [i, msg] : errs) {
      if (i >= b.lines.size()) throw std::runtime_error("llvm-mc: " + msg);
      seen.add({"rejects", std::string(name(b.target.isa)), mnemonicOf(b.lines[i].text)},
               b.lines[i].text + "  (" + msg + ")");
      refused.insert(i);
      b.lines[i].text = "nop";
    }
  }
  char base[32];
  snprintf(base, sizeof base, "0x%llx", (unsigned long long)b.base);
  RunResult ld = run({tools.ld, "-m", ldEmulation(b.target), "-nostdlib", "-e", base,
                      std::string("-Ttext=") + base, dir.file("in.o"), "-o", dir.file("out.elf")});
  if (ld.status != 0) throw std::runtime_error("ld failed: " + ld.err);
  RunResult oc = run({tools.objcopy, "-O", "binary", "-j", ".text", dir.file("out.elf"),
                      dir.file("out.bin")});
  if (oc.status != 0) throw std::runtime_error("objcopy failed: " + oc.err);
  return readFile(dir.file("out.bin"));
}

}  // namespace

namespace patchcheck::oracle::llvm_mc_vote {

// This plug-in's part of oracle.llvm_mc_vote (tests/oracle/llvm_mc_vote.cpp runs every plug-in's).
int mipsPart([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    Tools tools{requireTool("llvm-mc-14", "llvm-14"),
                requireTool("mips-linux-gnu-ld", "binutils-mips-linux-gnu"),
                requireTool("mips-linux-gnu-objcopy", "binutils-mips-linux-gnu")};
    std::string data = std::string(PATCHCHECK_TEST_DATA) + "/encoder/";
    auto known = readKnownDisagreements(data + "llvm-known-disagreements.txt");
    std::mt19937_64 rng(20240602);
    Observed seen;
    size_t sample = 0, agree = 0, corpus = 0, corpusAgree = 0;

    std::vector<mips::Target> targets;
    for (Isa isa : {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6})
      for (Endian e : {Endian::Big, Endian::Little}) targets.push_back({isa, e, defaultAbi(isa)});
    targets.push_back({Isa::Mips64R2, Endian::Little, Abi::N32});

    for (const mips::Target& t : targets) {
      // The sample: instances GNU as and we accept (gnu_as_diff checks that
      // for the same generator).
      Batch b = makeBatch(t, linkBase(t), t.abi == Abi::N32 ? 1 : 3, rng, /*irixNames=*/false);
      AssemblyOptions o;
      o.target = t;
      o.base = Value::constant(int64_t(b.base));
      auto mine = assemble(b.source(), "batch.s", o);
      if (!std::holds_alternative<Assembly>(mine))
        throw std::runtime_error("our assembler refuses the sample for " + t.str() + ": " +
                                 std::get<Diagnostics>(mine)[0].str());
      const auto& words = std::get<Assembly>(mine).words;
      std::vector<std::string> texts;
      for (const Instance& x : b.lines) texts.push_back(x.text);
      std::set<size_t> refused;
      std::string bytes = llvmBytes(b, tools, refused, seen);
      size_t here = 0, hereAgree = 0;
      for (size_t i = 0; i < b.lines.size(); ++i) {
        if (!b.lines[i].row) continue;
        ++here;
        if (refused.count(i)) continue;
        uint32_t w = 0;
        for (unsigned k = 0; k < 4 && 4 * i + k < bytes.size(); ++k) {
          uint32_t byte = uint8_t(bytes[4 * i + k]);
          w |= t.endian == Endian::Big ? byte << (24 - 8 * k) : byte << (8 * k);
        }
        if (w == words[i].bits) {
          ++hereAgree;
          continue;
        }
        char buf[64];
        snprintf(buf, sizeof buf, "  (ours/GNU %08x, LLVM %08x)", words[i].bits, w);
        seen.add({"encodes", std::string(name(t.isa)), mnemonicOf(texts[i])}, texts[i] + buf);
      }
      // The refusal corpus: inputs GNU as and we refuse.
      size_t corpusHere = 0, corpusAgreeHere = 0;
      if (t.endian == Endian::Big) {
        std::ifstream f(data + "gnu-as-rejects.txt");
        std::string line, section, want = std::string(name(t.isa)) + " " + std::string(name(t.abi));
        std::vector<std::string> cases;
        while (std::getline(f, line)) {
          std::string text = line.substr(0, line.find('#'));
          while (!text.empty() && std::isspace((unsigned char)text.back())) text.pop_back();
          if (text.empty()) continue;
          if (text[0] == '[') section = text.substr(1, text.find(']') - 1);
          else if (section == want) cases.push_back(text);
        }
        TempDir dir;
        std::string src = ".set noreorder\n.set noat\n";
        for (auto& c : cases) src += c + "\n";
        writeFile(dir.file("rej.s"), src);
        std::vector<std::string> argv{tools.mc, "-filetype=obj"};
        for (auto& fl : llvmFlags(t)) argv.push_back(fl);
        argv.insert(argv.end(), {dir.file("rej.s"), "-o", dir.file("rej.o")});
        auto errs = llvmErrors(run(argv).err, kFirstLine);
        for (size_t i = 0; i < cases.size(); ++i) {
          ++corpusHere;
          if (errs.count(i)) ++corpusAgreeHere;
          else seen.add({"accepts", std::string(name(t.isa)), mnemonicOf(cases[i])}, cases[i]);
        }
      }
      std::printf("%-22s sample %4zu: %4zu agree, %3zu refused by LLVM;  refusal corpus %3zu: %3zu agree\n",
                  t.str().c_str(), here, hereAgree, refused.size(), corpusHere, corpusAgreeHere);
      sample += here, agree += hereAgree, corpus += corpusHere, corpusAgree += corpusAgreeHere;
    }

    DisagreementTally d = reportDisagreements(seen, known);
    size_t passed = d.recorded, failed = d.unrecorded;
    std::printf("sample: %zu instances, %zu agree; refusal corpus: %zu inputs, %zu refused by LLVM too\n",
                sample, agree, corpus, corpusAgree);
    std::printf("disagreement classes: %zu recorded, %zu unrecorded\n", passed, failed);
    // Every agreeing instance passes; each class of disagreement passes when recorded.
    std::printf("%zu passed, %zu failed\n", agree + corpusAgree + passed, failed);
    return failed == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("error: %s\n0 passed, 1 failed\n", e.what());
    return 1;
  }
}

}  // namespace patchcheck::oracle::llvm_mc_vote
