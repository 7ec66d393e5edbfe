// A third vote from LLVM 14's llvm-mc on the arm64 encoder: a sample of the
// differential instances of arm64_gnu_as_diff (Arm64Instances.h, every row
// of the A64 table, at a kernel and a module address) is assembled by
// `llvm-mc -triple=aarch64 -filetype=obj` (with the extensions of the
// hints esb, psb, tsb), linked by GNU ld (adrp
// resolves), and the .text words are compared with ours (which equal GNU
// as's: arm64_gnu_as_diff). Every disagreement must be recorded in
// tests/data/encoder/arm64-llvm-known-disagreements.txt with its reason;
// an unrecorded one fails, a recorded one that no longer occurs is reported.
#include <cstdio>
#include <random>
#include <set>
#include <stdexcept>

#include "encoder/Hex.h"
#include "encoder/arm64/Assembler.h"
#include "tests/oracle/support/Arm64Instances.h"
#include "tests/oracle/support/KnownDisagreements.h"
#include "tests/oracle/support/LlvmMc.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::arm64;
using namespace patchcheck::oracle;

namespace {

constexpr size_t kFirstLine = 1;  // the batch has no header
constexpr unsigned kPerRow = 45;  // instances of every row per base, as arm64_gnu_as_diff

// GNU as 2.40 takes esb, psb csync and tsb csync by default; LLVM 14 wants
// their extensions named (the kernel names them too, with .arch_extension
// or -march), so that LLVM votes on their encodings rather than refusing.
constexpr const char* kFeatures = "-mattr=+ras,+spe,+tracev8.4";

RunResult runMc(const std::string& mc, const std::string& source, const TempDir& dir) {
  writeFile(dir.file("in.s"), source);
  return run({mc, "-triple=aarch64", kFeatures, "-filetype=obj", dir.file("in.s"), "-o", dir.file("in.o")});
}

// Assembles one batch with llvm-mc; returns the words of the linked .text
// and the lines LLVM refused or failed on (replaced by nops in `b`).
std::vector<uint32_t> llvmWords(Arm64Batch& b, const std::string& mc, const Arm64Tools& tools,
                                std::set<size_t>& refused, Observed& seen) {
  TempDir dir;
  for (int round = 0;; ++round) {
    if (round == 20) throw std::runtime_error("llvm-mc still refuses lines after 20 rounds");
    RunResult r = runMc(mc, b.source(), dir);
    if (failsWithoutLine(r, kFirstLine)) {
      size_t i = firstFailingWithoutLine(b.lines.size(), kFirstLine, [&](size_t n) {
        Arm64Batch prefix{b.base, {b.lines.begin(), b.lines.begin() + long(n)}};
        return runMc(mc, prefix.source(), dir);
      });
      seen.add({"fails", "arm64", mnemonicOf(b.lines[i].text)}, b.lines[i].text);
      refused.insert(i);
      b.lines[i].text = "nop";
      continue;
    }
    auto errs = llvmErrors(r.err, kFirstLine);
    if (errs.empty()) {
      if (r.status != 0) throw std::runtime_error("llvm-mc failed: " + r.err);
      break;
    }
    for (auto& [i, msg] : errs) {
      if (i >= b.lines.size()) throw std::runtime_error("llvm-mc: " + msg);
      seen.add({"rejects", "arm64", mnemonicOf(b.lines[i].text)}, b.lines[i].text + "  (" + msg + ")");
      refused.insert(i);
      b.lines[i].text = "nop";
    }
  }
  return linkedWords(tools, dir.file("in.o"), b.base, dir);
}

}  // namespace

namespace patchcheck::oracle::llvm_mc_vote {

// This plug-in's part of oracle.llvm_mc_vote (tests/oracle/llvm_mc_vote.cpp runs every plug-in's).
int arm64Part([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    std::string mc = requireTool("llvm-mc-14", "llvm-14");
    Arm64Tools tools = requireArm64Tools();
    auto known = readKnownDisagreements(PATCHCHECK_TEST_DATA "/encoder/arm64-llvm-known-disagreements.txt");
    std::mt19937_64 rng(20240613);
    Observed seen;
    size_t sample = 0, agree = 0;
    std::set<const InstrDesc*> covered;
    // A kernel image address and a module address (linux arm64, 48-bit VA).
    for (uint64_t base : {0xffff800080000000ull, 0xffff800000400000ull}) {
      Arm64Batch b = makeArm64Batch(base, kPerRow, rng);
      AssemblyOptions o;
      o.base = Value::constant(int64_t(base));
      auto mine = assemble(b.source(), "batch.s", o);
      if (!std::holds_alternative<Assembly>(mine))
        throw std::runtime_error("our assembler refuses the sample: " + std::get<Diagnostics>(mine)[0].str());
      const auto& units = std::get<Assembly>(mine).units;
      std::vector<std::string> texts;
      for (const Arm64Instance& x : b.lines) texts.push_back(x.text), covered.insert(x.row);
      std::set<size_t> refused;
      std::vector<uint32_t> words = llvmWords(b, mc, tools, refused, seen);
      if (words.size() != b.lines.size())
        throw std::runtime_error("llvm-mc gave " + std::to_string(words.size()) + " words for " +
                                 std::to_string(b.lines.size()) + " lines");
      size_t here = 0, hereAgree = 0;
      for (size_t i = 0; i < b.lines.size(); ++i) {
        ++here;
        if (refused.count(i)) continue;
        uint32_t w = uint32_t(units[i].bits);
        if (words[i] == w) {
          ++hereAgree;
          continue;
        }
        seen.add({"encodes", "arm64", mnemonicOf(texts[i])},
                 texts[i] + "  (ours/GNU " + hex(w) + ", LLVM " + hex(words[i]) + ")");
      }
      std::printf("base %s: sample %4zu: %4zu agree, %3zu refused by LLVM\n", hex(base).c_str(), here, hereAgree,
                  refused.size());
      sample += here, agree += hereAgree;
    }
    size_t failed = 0;
    for (const InstrDesc& d : instructionTable())
      if (!covered.count(&d)) ++failed, std::printf("FAIL row '%s' has no instance\n", std::string(d.mnemonic).c_str());
    DisagreementTally d = reportDisagreements(seen, known);
    failed += d.unrecorded;
    std::printf("sample: %zu instances over %zu rows, %zu agree\n", sample, instructionTable().size(), agree);
    std::printf("disagreement classes: %zu recorded, %zu unrecorded\n", d.recorded, d.unrecorded);
    // Every agreeing instance passes; each class of disagreement passes when recorded.
    std::printf("%zu passed, %zu failed\n", agree + d.recorded, failed);
    return failed == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("error: %s\n0 passed, 1 failed\n", e.what());
    return 1;
  }
}

}  // namespace patchcheck::oracle::llvm_mc_vote
