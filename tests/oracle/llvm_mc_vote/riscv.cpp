// A third vote from LLVM 14's llvm-mc on the RISC-V encoder: the
// differential instances of oracle.gnu_as_diff's RISC-V part
// (RiscvInstances.h: every row, the pseudo-instructions, .option norvc)
// for each variant, each line labelled and each branch target written as
// the label of a line (LLVM 14 takes no `.+N`), assembled by `llvm-mc-14
// --triple=riscv64|riscv32 -mattr=...` and linked by GNU ld --no-relax; the
// bytes of each line (between its label and the next) are compared with
// ours (which equal GNU as's: oracle.gnu_as_diff). A line LLVM refuses, or
// makes another length, is replaced by a nop in its batch and ours. Every disagreement class must be
// recorded in tests/data/encoder/riscv-llvm-known-disagreements.txt with its
// reason; an unrecorded one fails, a recorded one no longer seen is reported.
#include <climits>
#include <cstdio>
#include <random>
#include <regex>
#include <set>
#include <stdexcept>

#include "encoder/Hex.h"
#include "encoder/riscv/Assembler.h"
#include "tests/oracle/support/KnownDisagreements.h"
#include "tests/oracle/support/LlvmMc.h"
#include "tests/oracle/support/RiscvInstances.h"

using namespace patchcheck;
using namespace patchcheck::oracle;

namespace {

constexpr size_t kFirstLine = 1;  // the batch has no header
constexpr unsigned kPerRow = 4;

// Each line labelled L<i>, the end too.
std::string labelled(const RiscvBatch& b) {
  std::string s;
  for (size_t i = 0; i < b.lines.size(); ++i) s += "L" + std::to_string(i) + ": " + b.lines[i].text + "\n";
  return s + "L" + std::to_string(b.lines.size()) + ":\n";
}

// LLVM 14 refuses a branch to `.+N` or to a label plus an offset
// ("Unsupported relocation type"), so a target becomes the label of the
// line that starts nearest to it on the branch's side (as our assembler,
// which equals GNU as, lays the batch out): still in reach.
void targetsToLabels(RiscvBatch& b, const riscv::AssemblyOptions& o) {
  std::string source = b.source();
  auto mine = riscv::assemble(source, "in.s", o);
  if (!std::holds_alternative<riscv::Assembly>(mine))
    throw std::runtime_error("our assembler refuses the sample: " + std::get<Diagnostics>(mine)[0].str());
  std::vector<int64_t> at(b.lines.size() + 2, INT64_MIN);
  for (const riscv::AssembledUnit& u : std::get<riscv::Assembly>(mine).units)
    if (at[u.where.line] == INT64_MIN) at[u.where.line] = u.address.addend;
  for (size_t line = b.lines.size(); line >= 1; --line)  // a line without units starts where the next does
    if (at[line] == INT64_MIN) at[line] = at[line + 1] == INT64_MIN ? INT64_MAX : at[line + 1];
  static const std::regex dot(R"(([ ,])\.([+-]\d+))");
  for (size_t i = 0; i < b.lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_search(b.lines[i].text, m, dot)) continue;
    int64_t n = std::stoll(m[2]), target = at[i + 1] + n;
    size_t j = i;
    if (n >= 0)
      while (j + 1 < b.lines.size() && at[j + 2] <= target) ++j;
    else
      while (j > 0 && at[j] >= target) --j;
    b.lines[i].text = m.prefix().str() + m[1].str() + "L" + std::to_string(j) + m.suffix().str();
  }
}

RunResult runMc(const std::string& mc, const RiscvVariant& v, const std::string& source, const TempDir& dir) {
  writeFile(dir.file("in.s"), source);
  std::string attrs = std::string("-mattr=+m,+a") + (v.rvc ? ",+c" : "") + (v.fd ? ",+f,+d" : "");
  return run({mc, v.xlen == 64 ? "--triple=riscv64" : "--triple=riscv32", attrs, "-filetype=obj", dir.file("in.s"), "-o",
              dir.file("in.o")});
}

// Each label's address in the linked ELF.
std::vector<uint64_t> labelAddresses(const std::string& nm, const std::string& elf, size_t count) {
  RunResult r = run({nm, elf});
  if (r.status != 0) throw std::runtime_error("nm failed: " + r.err);
  std::vector<uint64_t> out(count + 1, UINT64_MAX);
  static const std::regex entry(R"(([0-9a-f]+) [tT] L(\d+))");
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), entry); it != std::sregex_iterator(); ++it) {
    size_t i = std::stoul((*it)[2]);
    if (i <= count) out[i] = std::stoull((*it)[1], nullptr, 16);
  }
  return out;
}

std::string bytesText(std::string_view b) {
  std::string s;
  char buf[4];
  for (unsigned char c : b) snprintf(buf, sizeof buf, "%02x", c), s += buf;
  return s;
}

}  // namespace

namespace patchcheck::oracle::llvm_mc_vote {

// This plug-in's part of oracle.llvm_mc_vote (tests/oracle/llvm_mc_vote.cpp runs every plug-in's).
int riscvPart([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    std::string mc = requireTool("llvm-mc-14", "llvm-14");
    RiscvTools tools = requireRiscvTools();
    std::string nm = requireTool("riscv64-linux-gnu-nm", "binutils-riscv64-linux-gnu");
    auto known = readKnownDisagreements(PATCHCHECK_TEST_DATA "/encoder/riscv-llvm-known-disagreements.txt");
    std::mt19937_64 rng(20261128);
    Observed seen;
    size_t sample = 0, agree = 0;
    for (const RiscvVariant& v : riscvVariants()) {
      uint64_t base = v.xlen == 64 ? 0xffffffff80200000ull : 0xc0200000ull;
      RiscvBatch b = makeRiscvBatch(v, base, kPerRow, rng);
      std::vector<std::string> original;
      for (const RiscvInstance& x : b.lines) original.push_back(x.text);
      TempDir dir;
      std::set<size_t> refused;
      riscv::AssemblyOptions o;
      o.xlen = v.xlen;
      o.rvc = v.rvc;
      o.fd = v.fd;
      o.base = Value::constant(int64_t(base));
      o.symbols = riscvSymbols(v, base);
      targetsToLabels(b, o);
      for (size_t i = 0; i < b.lines.size(); ++i) original[i] = b.lines[i].text;
      std::string text;
      std::vector<uint64_t> at;
      std::vector<std::string> ours;
      for (int round = 0;; ++round) {
        if (round == 200) throw std::runtime_error("llvm-mc still disagrees on lengths after 200 rounds");
        RunResult r = runMc(mc, v, labelled(b), dir);
        if (failsWithoutLine(r, kFirstLine)) {
          size_t i = firstFailingWithoutLine(b.lines.size(), kFirstLine, [&](size_t n) {
            RiscvBatch prefix{v, base, {b.lines.begin(), b.lines.begin() + long(n)}};
            return runMc(mc, v, labelled(prefix), dir);
          });
          seen.add({"fails", v.name, mnemonicOf(b.lines[i].text)}, b.lines[i].text);
          refused.insert(i);
          b.lines[i].text = "nop";
          continue;
        }
        auto errs = llvmErrors(r.err, kFirstLine);
        for (auto& [i, msg] : errs) {
          if (i >= b.lines.size()) throw std::runtime_error("llvm-mc: " + msg);
          seen.add({"rejects", v.name, mnemonicOf(b.lines[i].text)}, b.lines[i].text + "  (" + msg + ")");
          refused.insert(i);
          b.lines[i].text = "nop";
        }
        if (!errs.empty()) continue;
        text = riscvLinkedText(tools, v, dir.file("in.o"), base, dir);
        at = labelAddresses(nm, dir.file("out.elf"), b.lines.size());
        std::string source = labelled(b);
        auto mine = riscv::assemble(source, "in.s", o);
        if (!std::holds_alternative<riscv::Assembly>(mine))
          throw std::runtime_error("our assembler refuses the sample: " + std::get<Diagnostics>(mine)[0].str());
        ours.assign(b.lines.size() + 1, "");
        for (const riscv::AssembledUnit& u : std::get<riscv::Assembly>(mine).units)
          for (unsigned k = 0; k < u.bytes; ++k) ours[u.where.line] += char(u.bits >> (8 * k));
        // A line LLVM makes longer or shorter (another li sequence, a
        // compressed form GNU as does not pick) moves every address after
        // it: it is a disagreement of its own and becomes a nop in both.
        bool moved = false;
        for (size_t i = 0; i < b.lines.size() && !moved; ++i) {
          if (at[i] == UINT64_MAX || at[i + 1] == UINT64_MAX) throw std::runtime_error("a label of the batch is missing");
          if (at[i + 1] - at[i] == ours[i + 1].size()) continue;
          seen.add({"encodes", v.name, mnemonicOf(original[i])},
                   original[i] + "  (ours/GNU " + bytesText(ours[i + 1]) + ", LLVM " +
                       bytesText(text.substr(at[i] - base, at[i + 1] - at[i])) + ")");
          refused.insert(i);
          b.lines[i].text = "nop";
          moved = true;
        }
        if (!moved) break;
      }
      size_t here = 0, hereAgree = 0;
      for (size_t i = 0; i < b.lines.size(); ++i) {
        ++here;
        if (refused.count(i)) continue;
        std::string theirs = text.substr(at[i] - base, at[i + 1] - at[i]);
        if (theirs == ours[i + 1]) {
          ++hereAgree;
          continue;
        }
        seen.add({"encodes", v.name, mnemonicOf(original[i])},
                 original[i] + "  (ours/GNU " + bytesText(ours[i + 1]) + ", LLVM " + bytesText(theirs) + ")");
      }
      std::printf("%-10s sample %4zu: %4zu agree, %3zu refused by LLVM\n", v.name.c_str(), here, hereAgree, refused.size());
      sample += here, agree += hereAgree;
    }
    DisagreementTally d = reportDisagreements(seen, known);
    std::printf("sample: %zu instances, %zu agree\n", sample, agree);
    std::printf("disagreement classes: %zu recorded, %zu unrecorded\n", d.recorded, d.unrecorded);
    std::printf("%zu passed, %zu failed\n", agree + d.recorded, d.unrecorded);
    return d.unrecorded == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("error: %s\n0 passed, 1 failed\n", e.what());
    return 1;
  }
}

}  // namespace patchcheck::oracle::llvm_mc_vote
