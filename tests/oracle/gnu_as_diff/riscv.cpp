// Differential test of the RISC-V encoder against GNU as and objdump 2.40
// (binutils-riscv64-linux-gnu), for each variant (rv64imac, rv64ima,
// rv32imac, rv32ima, and the same with F and D: rv64imafdc, ...):
//   - random instances of every row of the table and of the pseudo-
//     instructions (RiscvInstances.h), at a kernel and a module address,
//     assembled by GNU as and linked by GNU ld --no-relax with the symbols
//     defined: GNU as accepts every line without a warning, and so do we;
//     our bytes equal GNU's line by line at the same addresses; and our
//     printer's text for every instruction objdump -d prints equals
//     objdump's (modulo its `<symbol>`, `# comment`, spacing, and the 0x
//     our targets carry);
//   - every 16-bit encoding (C variants) and a sample of 32-bit encodings
//     (each row's fixed bits under random operand bits, and random words),
//     put in an object by `.insn`: our printer's text equals objdump's.
#include <cstdio>
#include <random>
#include <regex>
#include <set>
#include <stdexcept>

#include "encoder/Hex.h"
#include "encoder/riscv/Assembler.h"
#include "encoder/riscv/Printer.h"
#include "tests/oracle/support/RiscvInstances.h"

using namespace patchcheck;
using namespace patchcheck::oracle;

namespace {

constexpr unsigned kPerRow = 12;

class Failures {
 public:
  void add(const std::string& what) {
    if (++count_ <= 60) std::printf("FAIL %s\n", what.c_str());
  }
  size_t count() const { return count_; }

 private:
  size_t count_ = 0;
};

// GNU as's complaints by 1-based line ("in.s:12: Error: ...").
std::map<size_t, std::string> complaints(const std::string& err) {
  std::map<size_t, std::string> out;
  static const std::regex line(R"(\.s:(\d+): (.*))");
  for (auto it = std::sregex_iterator(err.begin(), err.end(), line); it != std::sregex_iterator(); ++it)
    out.emplace(std::stoul((*it)[1]), (*it)[2]);
  return out;
}

std::string bytesText(std::string_view b) {
  std::string s;
  char buf[4];
  for (unsigned char c : b) snprintf(buf, sizeof buf, "%02x", c), s += buf;
  return s;
}

size_t compareTexts(const RiscvTools& tools, const RiscvVariant& v, const std::string& elf, Failures& fails,
                    size_t& compared) {
  RunResult od = run({tools.objdump, "-d", elf});
  if (od.status != 0) throw std::runtime_error("objdump failed: " + od.err);
  size_t equal = 0;
  for (const auto& [addr, d] : parseRiscvObjdump(od.out)) {
    ++compared;
    std::string ours = comparableText(riscv::disassemble(d.bits, addr, v.xlen, v.rvc, riscv::Spelling::Aliases, v.fd));
    if (ours == d.text) ++equal;
    else fails.add(v.name + ": text of " + hex(d.bits) + " at " + hex(addr) + ": ours '" + ours + "', objdump '" + d.text + "'");
  }
  return equal;
}

// One batch: acceptance, bytes, texts. Returns the lines that passed.
size_t runBatch(const RiscvBatch& b, const RiscvTools& tools, Failures& fails, size_t& lines, size_t& texts,
                size_t& textsEqual) {
  TempDir dir;
  std::string source = b.source();
  writeFile(dir.file("in.s"), source);
  RunResult as = run({tools.as, "-march=" + b.variant.march(), "-mabi=" + b.variant.mabi(), dir.file("in.s"), "-o",
                      dir.file("in.o")});
  auto gnu = complaints(as.err);
  riscv::AssemblyOptions o;
  o.xlen = b.variant.xlen;
  o.rvc = b.variant.rvc;
  o.fd = b.variant.fd;
  o.base = Value::constant(int64_t(b.base));
  o.symbols = riscvSymbols(b.variant, b.base);
  auto mine = riscv::assemble(source, "in.s", o);
  std::set<size_t> refused;
  if (auto* errs = std::get_if<Diagnostics>(&mine))
    for (const Diagnostic& d : *errs) refused.insert(d.where.line);
  lines += b.lines.size();
  for (const auto& [line, msg] : gnu)
    fails.add(b.variant.name + ": GNU as complains about '" + b.lines.at(line - 1).text + "': " + msg);
  for (size_t line : refused)
    if (!gnu.count(line)) {
      std::string why;
      for (const Diagnostic& d : std::get<Diagnostics>(mine))
        if (d.where.line == line) why = d.message;
      fails.add(b.variant.name + ": we refuse '" + b.lines.at(line - 1).text + "': " + why);
    }
  if (as.status != 0 || !refused.empty()) return 0;
  std::string text = riscvLinkedText(tools, b.variant, dir.file("in.o"), b.base, dir);
  const riscv::Assembly& a = std::get<riscv::Assembly>(mine);
  std::vector<std::string> ours(b.lines.size() + 1);
  std::vector<uint64_t> at(b.lines.size() + 1, UINT64_MAX);
  for (const riscv::AssembledUnit& u : a.units) {
    size_t line = u.where.line;
    if (at[line] == UINT64_MAX) at[line] = uint64_t(u.address.addend);
    for (unsigned k = 0; k < u.bytes; ++k) ours[line] += char(u.bits >> (8 * k));
  }
  size_t passed = 0;
  for (size_t line = 1; line <= b.lines.size(); ++line) {
    if (ours[line].empty()) {
      ++passed;  // a directive
      continue;
    }
    uint64_t off = at[line] - b.base;
    std::string_view theirs = off <= text.size() ? std::string_view(text).substr(off, ours[line].size()) : "";
    if (theirs == ours[line]) {
      ++passed;
      continue;
    }
    fails.add(b.variant.name + ": bytes of '" + b.lines[line - 1].text + "' at " + hex(at[line]) + ": ours " +
              bytesText(ours[line]) + ", GNU as " + bytesText(theirs));
    return passed;  // the rest would only repeat a shift
  }
  if (a.units.empty() || uint64_t(a.units.back().address.addend) + a.units.back().bytes - b.base != text.size())
    fails.add(b.variant.name + ": the .text lengths differ");
  textsEqual += compareTexts(tools, b.variant, dir.file("out.elf"), fails, texts);
  return passed;
}

// Encodings put into an object with `.insn`, printed by objdump and by us.
size_t sweep(const RiscvTools& tools, const RiscvVariant& v, const std::vector<uint32_t>& encodings, Failures& fails,
             size_t& compared) {
  TempDir dir;
  // A CSR instruction makes GNU as record the privileged spec (1.11), whose
  // CSR names objdump then prints, as in an object of real code.
  std::string source = "csrr zero, 0\n";
  for (uint32_t e : encodings) source += ".insn " + hex(e) + "\n";
  writeFile(dir.file("s.s"), source);
  RunResult as = run({tools.as, "-march=" + v.march(), dir.file("s.s"), "-o", dir.file("s.o")});
  if (as.status != 0) throw std::runtime_error("GNU as refuses the sweep: " + as.err.substr(0, 300));
  return compareTexts(tools, v, dir.file("s.o"), fails, compared);
}

std::vector<uint32_t> sample32(std::mt19937_64& rng) {
  std::vector<uint32_t> out;
  for (const riscv::Row& r : riscv::instructionTable()) {
    if (r.flags & riscv::kCompressed) continue;
    for (int k = 0; k < 24; ++k) out.push_back((r.match & r.mask) | (uint32_t(rng()) & ~r.mask));
  }
  for (int k = 0; k < 6000; ++k) out.push_back(uint32_t(rng()) | 3);
  std::erase_if(out, [](uint32_t w) { return (w & 0x1c) == 0x1c; });  // a longer format
  return out;
}

}  // namespace

namespace patchcheck::oracle::gnu_as_diff {

// This plug-in's part of oracle.gnu_as_diff (tests/oracle/gnu_as_diff.cpp runs every plug-in's).
int riscvPart([[maybe_unused]] int argc, [[maybe_unused]] char** argv) {
  try {
    RiscvTools tools = requireRiscvTools();
    std::mt19937_64 rng(20261127);
    Failures fails;
    size_t lines = 0, passed = 0, texts = 0, textsEqual = 0;
    for (const RiscvVariant& v : riscvVariants()) {
      // The kernel image and the module area (Documentation/arch/riscv/vm-layout.rst; RV32: lowmem and vmalloc).
      std::vector<uint64_t> bases = v.xlen == 64 ? std::vector<uint64_t>{0xffffffff80200000ull, 0xffffffff01000000ull}
                                                 : std::vector<uint64_t>{0xc0200000ull, 0xa1000000ull};
      for (uint64_t base : bases) {
        RiscvBatch b = makeRiscvBatch(v, base, kPerRow, rng);
        size_t n = lines;
        size_t ok = runBatch(b, tools, fails, lines, texts, textsEqual);
        passed += ok;
        std::printf("%-10s base %s: %5zu lines, %5zu equal\n", v.name.c_str(), hex(base).c_str(), lines - n, ok);
      }
      std::vector<uint32_t> encodings;
      if (v.rvc)
        for (uint32_t p = 0; p < 0x10000; ++p)
          if ((p & 3) != 3) encodings.push_back(p);
      size_t before = texts;
      size_t equal = sweep(tools, v, encodings.empty() ? sample32(rng) : encodings, fails, texts);
      if (!encodings.empty()) equal += sweep(tools, v, sample32(rng), fails, texts);
      textsEqual += equal;
      std::printf("%-10s sweep: %5zu encodings printed, %5zu as objdump\n", v.name.c_str(), texts - before, equal);
    }
    std::printf("instances: %zu lines, %zu bytes-equal; texts: %zu compared, %zu equal\n", lines, passed, texts,
                textsEqual);
    std::printf("%zu passed, %zu failed\n", passed + textsEqual, fails.count());
    return fails.count() == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::printf("error: %s\n0 passed, 1 failed\n", e.what());
    return 1;
  }
}

}  // namespace patchcheck::oracle::gnu_as_diff
