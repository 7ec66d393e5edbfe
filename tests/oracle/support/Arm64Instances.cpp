#include "tests/oracle/support/Arm64Instances.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <regex>

#include "encoder/arm64/Bitmask.h"
#include "encoder/arm64/Decoder.h"
#include "encoder/arm64/Operands.h"
#include "encoder/arm64/Printer.h"
#include "encoder/arm64/SystemNames.h"
#include "tests/oracle/support/Tools.h"

namespace patchcheck::oracle {
namespace {

using namespace patchcheck::arm64;

bool isRegisterField(Opnd k, unsigned field) {
  if (field == 0 && registerKind(k)) return true;
  if ((k == Opnd::XnRm || k == Opnd::WnRm) && field == 1) return true;  // Rm, a copy of Rn in cinc
  // Rm of shifted and extended operands and of register offsets
  if ((k == Opnd::ShiftedX || k == Opnd::ShiftedW || k == Opnd::LogShiftedX || k == Opnd::LogShiftedW ||
       k == Opnd::ExtendedX || k == Opnd::ExtendedW) && field == 0)
    return true;
  return (k == Opnd::MemRegB || k == Opnd::MemRegH || k == Opnd::MemRegW || k == Opnd::MemRegX) && field == 1;
}

// Random field values for every operand of the row.
uint32_t randomWord(const InstrDesc& d, std::mt19937_64& rng) {
  uint32_t w = d.match;
  for (unsigned i = 0; i < d.operandCount(); ++i) {
    Opnd k = d.operands[i];
    Layout l = layoutOf(k);
    for (unsigned f = 0; f < l.count; ++f) {
      uint64_t v = rng();
      if (isRegisterField(k, f) && (v & 3) == 0) v = 31;  // sp and the zero register often
      else if (!isRegisterField(k, f) && (v & 7) == 0) v = 0;  // edges of immediates often
      else if (!isRegisterField(k, f) && (v & 7) == 1) v = ~0ull;
      if (k == Opnd::SysReg) {
        auto regs = systemRegisters();
        v = regs[v % regs.size()].encoding;
      }
      w |= l.fields[f].place(v);
    }
  }
  return w;
}

// Words the assembler refuses on purpose (GNU as warns): writeback to a
// transferred register, ldp of one register twice.
bool unpredictable(const InstrDesc& d, uint32_t w) {
  bool writeback = false, pair = false;
  for (Opnd k : d.operands) {
    writeback = writeback || isPreIndex(k) || isPostIndex(k);
    pair = pair || k == Opnd::Xt2 || k == Opnd::Wt2;
  }
  unsigned rt = rdOf(w), rt2 = rt2Of(w), rn = rnOf(w);
  if (writeback && rn != 31 && (rn == rt || (pair && rn == rt2))) return true;
  return pair && (d.flags & kLoad) && rt == rt2;
}

// A bitmask whose immr has bits above the element size: the CPU and
// objdump take it, but its text reassembles to the canonical encoding.
bool nonCanonicalBitmask(const InstrDesc& d, uint32_t w) {
  for (Opnd k : d.operands) {
    bool x = k == Opnd::BitmaskX || k == Opnd::MovBitmaskX;
    if (!x && k != Opnd::BitmaskW && k != Opnd::MovBitmaskW) continue;
    uint32_t field = (w >> 10) & 0x1fff;
    auto v = decodeBitmask(field, x ? 64 : 32);
    return !v || encodeBitmask(*v, x ? 64 : 32) != field;
  }
  return false;
}

// The decodable row an assembler-only row spells (same fixed bits and
// Op), whose printed text the instance starts from.
const InstrDesc* printedRow(const InstrDesc& d) {
  for (const InstrDesc& r : instructionTable())
    if (!(r.flags & kAsmOnly) && r.op == d.op && r.match == d.match && r.mask() == d.mask()) return &r;
  return nullptr;
}

// "mnemonic\top1, op2" -> mnemonic and operands.
std::vector<std::string> split(const std::string& text, std::string& mnemonic) {
  size_t tab = text.find('\t');
  mnemonic = text.substr(0, tab);
  std::vector<std::string> ops;
  if (tab == std::string::npos) return ops;
  std::string rest = text.substr(tab + 1);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= rest.size(); ++i) {
    if (i < rest.size() && rest[i] == '[') ++depth;
    if (i < rest.size() && rest[i] == ']') --depth;
    if (i == rest.size() || (rest[i] == ',' && depth == 0)) {
      std::string op = rest.substr(start, i - start);
      while (!op.empty() && op[0] == ' ') op.erase(0, 1);
      ops.push_back(op);
      start = i + 1;
    }
  }
  return ops;
}

std::string instanceText(const InstrDesc& d, const InstrDesc& printed, uint32_t w, uint64_t address) {
  std::string mnemonic;
  auto ops = split(disassemble(w, address), mnemonic);
  if (&d != &printed) {
    mnemonic = std::string(d.mnemonic);
    // tbz Xt, #0..31: the printer names the w register
    for (unsigned i = 0; i < d.operandCount() && i < ops.size(); ++i)
      if (d.operands[i] == Opnd::Xt && printed.operands[i] == Opnd::Wt && ops[i][0] == 'w') ops[i][0] = 'x';
  }
  // pc-relative targets (always the last operand) as `.+N`
  if (d.operandCount() && isLabelKind(d.operands[d.operandCount() - 1])) {
    uint64_t target = std::stoull(ops.back().substr(2), nullptr, 16);
    int64_t diff = int64_t(target - address);
    ops.back() = diff < 0 ? ".-" + std::to_string(-diff) : ".+" + std::to_string(diff);
  }
  std::string s = mnemonic;
  for (size_t i = 0; i < ops.size(); ++i) s += (i ? ", " : " ") + ops[i];
  return s;
}

}  // namespace

std::string Arm64Batch::source() const {
  std::string s;
  s.reserve(lines.size() * 32);
  for (const Arm64Instance& x : lines) s += x.text + "\n";
  return s;
}

Arm64Batch makeArm64Batch(uint64_t base, unsigned perRow, std::mt19937_64& rng) {
  Arm64Batch b;
  b.base = base;
  std::vector<std::pair<const InstrDesc*, uint32_t>> picks;
  for (const InstrDesc& d : instructionTable()) {
    const InstrDesc* printed = (d.flags & kAsmOnly) ? printedRow(d) : &d;
    if (!printed) throw std::logic_error("no printed row for assembler-only '" + std::string(d.mnemonic) + "'");
    for (unsigned n = 0; n < perRow; ++n) {
      for (unsigned tries = 0;; ++tries) {
        if (tries > 100000) throw std::logic_error("no instance of '" + std::string(d.mnemonic) + "'");
        uint32_t w = randomWord(d, rng);
        if (decode(w) != printed || unpredictable(d, w) || nonCanonicalBitmask(d, w)) continue;
        // tbz Xt, #0..31 spells what the w form decodes to: b5 = 0
        picks.push_back({&d, w});
        break;
      }
    }
  }
  std::shuffle(picks.begin(), picks.end(), rng);
  for (size_t i = 0; i < picks.size(); ++i) {
    const InstrDesc& d = *picks[i].first;
    const InstrDesc* printed = (d.flags & kAsmOnly) ? printedRow(d) : &d;
    b.lines.push_back({instanceText(d, *printed, picks[i].second, b.address(i)), &d, picks[i].second});
  }
  return b;
}

Arm64Tools requireArm64Tools() {
  const std::string pkg = "binutils-aarch64-linux-gnu";
  return {requireTool("aarch64-linux-gnu-as", pkg), requireTool("aarch64-linux-gnu-ld", pkg),
          requireTool("aarch64-linux-gnu-objcopy", pkg), requireTool("aarch64-linux-gnu-objdump", pkg)};
}

std::vector<uint32_t> linkedWords(const Arm64Tools& tools, const std::string& object, uint64_t base,
                                  const TempDir& dir) {
  char hexBase[32];
  snprintf(hexBase, sizeof hexBase, "0x%llx", (unsigned long long)base);
  RunResult ld = run({tools.ld, "-nostdlib", "-e", hexBase, "-Ttext=" + std::string(hexBase), object, "-o",
                      dir.file("out.elf")});
  if (ld.status != 0) throw std::runtime_error("ld failed: " + ld.err);
  RunResult oc = run({tools.objcopy, "-O", "binary", "-j", ".text", dir.file("out.elf"), dir.file("out.bin")});
  if (oc.status != 0) throw std::runtime_error("objcopy failed: " + oc.err);
  std::string bytes = readFile(dir.file("out.bin"));
  std::vector<uint32_t> words;
  for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
    uint32_t w = 0;
    for (unsigned k = 0; k < 4; ++k) w |= uint32_t(uint8_t(bytes[i + k])) << (8 * k);
    words.push_back(w);
  }
  return words;
}

std::vector<std::string> gasComplaints(const std::string& err, size_t lines) {
  std::vector<std::string> out(lines);
  static const std::regex line(R"(^[^:\n]*:(\d+): (Error|Warning): (.*)$)");
  size_t pos = 0;
  while (pos < err.size()) {
    size_t nl = err.find('\n', pos);
    if (nl == std::string::npos) nl = err.size();
    std::string l = err.substr(pos, nl - pos);
    std::smatch m;
    if (std::regex_match(l, m, line)) {
      size_t n = std::stoul(m[1]);
      if (n >= 1 && n <= lines) out[n - 1] += m[2].str() + ": " + m[3].str();
    }
    pos = nl + 1;
  }
  return out;
}

}  // namespace patchcheck::oracle
