// A third vote from LLVM 14's llvm-mc on the x86-64 encoder: the
// differential instances of x86_gnu_as_diff (X86Instances.h, every row of
// the table, at a kernel and a module address; no .p2align, as LLVM pads
// with other nops) are assembled by `llvm-mc -triple=x86_64 -filetype=obj`,
// linked by GNU ld with the same external symbols, and each line's bytes
// (located through its label L<i>) are compared with ours (which equal GNU
// as's: x86_gnu_as_diff). GNU as is the reference. Every disagreement must
// be recorded in tests/data/encoder/x86-llvm-known-disagreements.txt with
// its reason; an unrecorded one fails, a recorded one no longer seen is
// reported. A line LLVM makes another length moves every label after it,
// and so the offsets of branches and %rip operands across it: it is
// recorded, then written as `.byte` of our bytes on both sides and the
// batch assembled again, until the lengths agree and the remaining
// differences are LLVM's own.
#include <algorithm>
#include <cstdio>
#include <random>
#include <set>
#include <stdexcept>

#include "encoder/Hex.h"
#include "encoder/x86_64/Assembler.h"
#include "tests/oracle/support/KnownDisagreements.h"
#include "tests/oracle/support/LlvmMc.h"
#include "tests/oracle/support/Tools.h"
#include "tests/oracle/support/X86Instances.h"

using namespace patchcheck;
using namespace patchcheck::x86_64;
using namespace patchcheck::oracle;

namespace {

constexpr size_t kFirstLine = 1;  // the batch has no header

// "L12: 1: {disp8} movq ..." -> "L12: 1: " and "{disp8} movq ...".
std::pair<std::string, std::string> splitLabels(const std::string& text) {
  size_t at = 0;
  for (;;) {
    size_t colon = text.find(':', at), space = text.find_first_of(" \t", at);
    if (colon == std::string::npos || colon > space) break;
    at = std::min(text.find_first_not_of(" \t", colon + 1), text.size());
    if (at == text.size()) break;
  }
  return {text.substr(0, at), text.substr(at)};
}

// "L12: 1: {disp8} movq ..." -> "movq"
std::string mnemonicOfLine(const std::string& text) {
  std::string t = splitLabels(text).second;
  if (!t.empty() && t[0] == '{') t = t.substr(t.find_first_not_of(" \t", t.find('}') + 1));
  return mnemonicOf(t);
}

RunResult runMc(const std::string& mc, const std::string& source, const TempDir& dir) {
  writeFile(dir.file("in.s"), source);
  return run({mc, "-triple=x86_64", "-filetype=obj", dir.file("in.s"), "-o", dir.file("in.o")});
}

// Assembles one batch with llvm-mc, replacing the lines LLVM refuses or
// fails on by `nop` (in `b`, so that we assemble the same text).
void llvmObject(X86Batch& b, const std::string& mc, const TempDir& dir, std::set<size_t>& refused, Observed& seen) {
  auto keepLabel = [](const std::string& text) { return splitLabels(text).first + "nop"; };
  for (int round = 0;; ++round) {
    if (round == 20) throw std::runtime_error("llvm-mc still refuses lines after 20 rounds");
    RunResult r = runMc(mc, b.source(), dir);
    if (failsWithoutLine(r, kFirstLine)) {
      size_t i = firstFailingWithoutLine(b.lines.size(), kFirstLine, [&](size_t n) {
        X86Batch prefix{b.base, {b.lines.begin(), b.lines.begin() + long(n)}};
        return runMc(mc, prefix.source(), dir);
      });
      seen.add({"fails", "x86_64", mnemonicOfLine(b.lines[i].text)}, b.lines[i].text);
      refused.insert(i);
      b.lines[i].text = keepLabel(b.lines[i].text);
      continue;
    }
    auto errs = llvmErrors(r.err, kFirstLine);
    if (errs.empty()) {
      if (r.status != 0) throw std::runtime_error("llvm-mc failed: " + r.err);
      return;
    }
    for (auto& [i, msg] : errs) {
      if (i >= b.lines.size()) throw std::runtime_error("llvm-mc: " + msg);
      seen.add({"rejects", "x86_64", mnemonicOfLine(b.lines[i].text)}, b.lines[i].text + "  (" + msg + ")");
      refused.insert(i);
      b.lines[i].text = keepLabel(b.lines[i].text);
    }
  }
}

std::string bytesText(const std::string& s) {
  std::string out;
  char buf[4];
  for (size_t i = 0; i < s.size(); ++i) snprintf(buf, sizeof buf, "%s%02x", i ? " " : "", uint8_t(s[i])), out += buf;
  return out;
}

struct Vote {
  size_t sample = 0, agree = 0, otherLength = 0, refused = 0;
};

// Our bytes and LLVM's for every line of `b`.
Vote vote(X86Batch& b, const std::string& mc, const X86Tools& tools, Observed& seen) {
  // Classes are named by the row (xchg, not xchgq or xchgb).
  std::vector<std::string> texts, rowNames;
  for (const X86Instance& x : b.lines)
    texts.push_back(x.text), rowNames.push_back(x.row ? std::string(x.row->mnemonic) : mnemonicOfLine(x.text));
  TempDir dir;
  std::set<size_t> refused, otherLength;
  size_t n = b.lines.size();
  std::vector<std::string> ours(n), theirs(n);
  for (int round = 0;; ++round) {
    if (round == 10) throw std::runtime_error("the lengths still disagree after 10 rounds");
    llvmObject(b, mc, dir, refused, seen);
    AssemblyOptions o;
    o.base = Value::constant(int64_t(b.base));
    for (const auto& [name, addr] : x86ExternalSymbols(b.base)) o.symbols[name] = addr;
    auto mine = assemble(b.source(), "batch.s", o);
    if (!std::holds_alternative<Assembly>(mine))
      throw std::runtime_error("our assembler refuses the sample: " + std::get<Diagnostics>(mine)[0].str());
    std::string text = linkedText(tools, dir.file("in.o"), b.base, dir);
    std::vector<uint64_t> at = lineAddresses(tools, dir.file("out.elf"), n);
    at[n] = b.base + text.size();
    std::fill(ours.begin(), ours.end(), std::string());
    for (const AssembledUnit& u : std::get<Assembly>(mine).units)
      ours.at(u.where.line - 1).append(u.bytes.begin(), u.bytes.end());
    bool again = false;
    for (size_t i = 0; i < n; ++i) {
      theirs[i] = text.substr(at[i] - b.base, at[i + 1] - at[i]);
      if (refused.count(i) || theirs[i].size() == ours[i].size()) continue;
      seen.add({"encodes", "x86_64", rowNames[i]},
               texts[i] + "  (ours/GNU " + bytesText(ours[i]) + ", LLVM " + bytesText(theirs[i]) + ")");
      otherLength.insert(i);
      std::string bytes;
      for (unsigned char c : ours[i]) bytes += (bytes.empty() ? "" : ",") + std::to_string(c);
      b.lines[i].text = splitLabels(b.lines[i].text).first + ".byte " + bytes;
      again = true;
    }
    if (!again) break;
  }
  size_t here = 0, hereAgree = 0;
  for (size_t i = 0; i < n; ++i) {
    ++here;
    if (refused.count(i) || otherLength.count(i)) continue;
    if (theirs[i] == ours[i]) {
      ++hereAgree;
      continue;
    }
    seen.add({"encodes", "x86_64", rowNames[i]},
             texts[i] + "  (ours/GNU " + bytesText(ours[i]) + ", LLVM " + bytesText(theirs[i]) + ")");
  }
  return {here, hereAgree, otherLength.size(), refused.size()};
}

}  // namespace

namespace patchcheck::oracle::llvm_mc_vote {

// This plug-in's part of oracle.llvm_mc_vote (tests/oracle/llvm_mc_vote.cpp runs every plug-in's).
int x86_64Part([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    std::string mc = requireTool("llvm-mc-14", "llvm-14");
    X86Tools tools = requireX86Tools();
    auto known = readKnownDisagreements(PATCHCHECK_TEST_DATA "/encoder/x86-llvm-known-disagreements.txt");
    std::mt19937_64 rng(20250302);
    Observed seen;
    size_t sample = 0, agree = 0, lengths = 0, refusedTotal = 0;
    std::set<const InstrDesc*> covered;
    for (uint64_t base : {0xffffffff81000000ull, 0xffffffffa0000000ull}) {
      X86Batch b = makeX86Batch(base, 11000, 20, false, rng);
      for (const X86Instance& x : b.lines) covered.insert(x.row);
      Vote v = vote(b, mc, tools, seen);
      std::printf("base %s: sample %5zu: %5zu agree, %3zu of another length, %3zu refused by LLVM\n", hex(base).c_str(),
                  v.sample, v.agree, v.otherLength, v.refused);
      sample += v.sample, agree += v.agree, lengths += v.otherLength, refusedTotal += v.refused;
    }
    // Corner cases and other spellings (tests/data/encoder/x86-spellings.txt).
    X86Batch spellings = readX86Batch(PATCHCHECK_TEST_DATA "/encoder/x86-spellings.txt", 0xffffffff81000000ull);
    Vote v = vote(spellings, mc, tools, seen);
    std::printf("spellings: %5zu: %5zu agree, %3zu of another length, %3zu refused by LLVM\n", v.sample, v.agree,
                v.otherLength, v.refused);
    sample += v.sample, agree += v.agree, lengths += v.otherLength, refusedTotal += v.refused;
    size_t failed = 0;
    for (const InstrDesc& d : instructionTable())
      if (!covered.count(&d)) ++failed, std::printf("FAIL row '%s' has no instance\n", std::string(d.mnemonic).c_str());
    DisagreementTally d = reportDisagreements(seen, known);
    failed += d.unrecorded;
    std::printf("total: %zu instances over %zu rows, %zu agree, %zu of another length, %zu refused by LLVM\n", sample,
                instructionTable().size(), agree, lengths, refusedTotal);
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
