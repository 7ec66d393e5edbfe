#include "tests/oracle/support/RiscvInstances.h"

#include <algorithm>
#include <cstdio>
#include <regex>
#include <stdexcept>

#include "encoder/riscv/Registers.h"

namespace patchcheck::oracle {
namespace {

using riscv::Opnd;
using riscv::Row;

constexpr const char* kSets[] = {"w", "r", "rw", "o", "ow", "or", "orw", "i", "iw", "ir", "irw", "io", "iow", "ior", "iorw"};
constexpr const char* kCsrs[] = {"sstatus", "mstatus", "satp", "cycle", "time", "sepc", "fcsr", "0x7c0", "0x123", "4095", "0"};

std::string hexText(uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

class Maker {
 public:
  Maker(const RiscvVariant& v, std::mt19937_64& rng) : v_(v), rng_(rng) {}

  int64_t between(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  std::string reg(unsigned lo = 0, unsigned hi = 31) {
    unsigned r = unsigned(between(lo, hi));
    return between(0, 4) ? std::string(riscv::gprName(r)) : "x" + std::to_string(r);
  }
  std::string freg(unsigned lo = 0, unsigned hi = 31) {
    unsigned r = unsigned(between(lo, hi));
    return between(0, 4) ? std::string(riscv::fprName(r)) : "f" + std::to_string(r);
  }

  // An instance of `row` as line `index` of `count` (branch targets stay inside the batch).
  std::string instance(const Row& row, size_t index, size_t count) {
    std::string out(row.mnemonic), first;
    bool any = false;
    for (Opnd k : row.operands) {
      if (k == Opnd::None || k == Opnd::LinkRa) continue;
      std::string v = operand(k, first, index, count);
      // The row's rules: GNU as refuses the reserved encodings they exclude.
      for (int again = 0; again < 100 && !allowed(row, k, v); ++again) v = operand(k, first, index, count);
      if (!any) first = v;
      out += (any ? ", " : " ") + v;
      any = true;
    }
    return out;
  }

  // li of a value of some magnitude, la/lla/call/tail/jump/j/jal of a
  // symbol, the %hi/%lo and %pcrel pairs.
  std::string pseudo(unsigned which) {
    static const char* const symbols[] = {"near_sym", "far_sym", "mid_sym"};
    std::string sym = symbols[between(0, 2)];
    std::string rd = reg(1, 31);
    switch (which % 12) {
      case 0: case 1: {
        int64_t n;
        switch (between(0, 4)) {
          case 0: n = between(-2048, 2047); break;
          case 1: n = int64_t(int32_t(uint32_t(rng_()))); break;
          case 2: n = int64_t(uint32_t(rng_())) << between(0, 12); break;
          case 3: n = v_.xlen == 64 ? int64_t(rng_()) : int64_t(int32_t(uint32_t(rng_()))); break;
          default: n = between(-64, 64) << between(0, v_.xlen == 64 ? 56 : 24); break;
        }
        if (v_.xlen == 32) n = int64_t(int32_t(uint32_t(n)));
        return "li " + rd + ", " + std::to_string(n);
      }
      case 2: return "la " + rd + ", " + sym + "+" + std::to_string(between(0, 64) * 4);
      case 3: return "lla " + rd + ", " + sym;
      case 4: return between(0, 1) ? "call " + sym : "call " + rd + ", " + sym;
      case 5: return "tail " + sym;
      case 6: return "jump " + sym + ", " + reg(1, 31);
      case 7: return std::string(between(0, 1) ? "j" : "jal") + " near_sym";
      case 8: return "lui " + rd + ", %hi(abs_sym)";
      case 9: return between(0, 1) ? "addi " + rd + ", " + rd + ", %lo(abs_sym)" : "lw " + rd + ", %lo(abs_sym)(" + rd + ")";
      case 10: {
        std::string l = std::to_string(between(1, 9));
        return l + ": auipc " + rd + ", %pcrel_hi(" + sym + "); addi " + rd + ", " + rd + ", %pcrel_lo(" + l + "b)";
      }
      default: {
        std::string l = std::to_string(between(1, 9));
        return l + ": auipc " + rd + ", %pcrel_hi(" + sym + "); " + (v_.xlen == 64 ? "sd " : "sw ") + reg() + ", %pcrel_lo(" +
               l + "b)(" + rd + ")";
      }
    }
  }

 private:
  const RiscvVariant& v_;
  std::mt19937_64& rng_;

  static bool allowed(const Row& row, Opnd k, const std::string& v) {
    auto r = riscv::parseGpr(v);
    if ((k == Opnd::Rd || k == Opnd::RdRs1 || k == Opnd::CRs1Hi) && (row.flags & riscv::kRdNonZero) && r == 0u) return false;
    if (k == Opnd::Rd && (row.flags & riscv::kRdNotSp) && r == 2u) return false;
    if (k == Opnd::CRs2 && (row.flags & riscv::kRs2NonZero) && r == 0u) return false;
    if ((row.flags & riscv::kImmNonZero) && riscv::layoutOf(k).count && v == "0") return false;
    return true;
  }

  std::string mem(int64_t offset, const std::string& base) { return std::to_string(offset) + "(" + base + ")"; }

  std::string operand(Opnd k, const std::string& first, size_t index, size_t count) {
    int64_t xlen = v_.xlen;
    switch (k) {
      case Opnd::Rd: case Opnd::Rs1: case Opnd::Rs2: case Opnd::RdRs1: case Opnd::CRs1Hi: case Opnd::CRs2: return reg();
      case Opnd::CRdP: case Opnd::CRs2P: case Opnd::CRdP9: case Opnd::CRs1P9: case Opnd::CRdRs1P9: return reg(8, 15);
      case Opnd::Same: return first;
      case Opnd::SpRd: case Opnd::SpRs1: return "sp";
      case Opnd::ZeroRs1: case Opnd::ZeroRs2: return "zero";
      case Opnd::ZeroImm: return "0";
      case Opnd::ImmI: return std::to_string(between(-2048, 2047));
      case Opnd::MemI: case Opnd::MemS: return mem(between(-2048, 2047), reg());
      case Opnd::ImmU: return hexText(uint64_t(between(0, 0xfffff)));
      case Opnd::Shamt: return std::to_string(between(0, xlen - 1));
      case Opnd::ShamtW: case Opnd::Zimm: return std::to_string(between(0, 31));
      case Opnd::Csr: return kCsrs[between(0, std::size(kCsrs) - 1)];
      case Opnd::Pred: case Opnd::Succ: return kSets[between(0, std::size(kSets) - 1)];
      case Opnd::AmoAddr: return between(0, 3) ? "(" + reg() + ")" : "0(" + reg() + ")";
      case Opnd::BrB: case Opnd::BrJ: case Opnd::CBr: case Opnd::CJmp: {
        // Every line before is at least 2 bytes, and so is every line after.
        int64_t reach = k == Opnd::CBr ? 254 : k == Opnd::CJmp ? 2046 : 4094;
        int64_t lo = std::max(-reach, -2 * int64_t(index)), hi = std::min(reach, 2 * int64_t(count - index - 1));
        int64_t off = 2 * between(lo / 2, hi / 2);
        return off < 0 ? ".-" + std::to_string(-off) : ".+" + std::to_string(off);
      }
      case Opnd::CImm6: return std::to_string(between(-32, 31));
      case Opnd::CShamt: return std::to_string(between(1, xlen - 1));
      case Opnd::CLui: return hexText(uint64_t(between(0, 1) ? between(1, 31) : between(0xfffe0, 0xfffff)));
      case Opnd::CAddi4spn: return std::to_string(4 * between(1, 255));
      case Opnd::CAddi16sp: {
        int64_t n = between(-32, 30);
        return std::to_string(16 * (n >= 0 ? n + 1 : n));
      }
      case Opnd::CMemLwsp: case Opnd::CMemSwsp: return mem(4 * between(0, 63), "sp");
      case Opnd::CMemLdsp: case Opnd::CMemSdsp: return mem(8 * between(0, 63), "sp");
      case Opnd::CMemW: return mem(4 * between(0, 31), reg(8, 15));
      case Opnd::CMemD: return mem(8 * between(0, 31), reg(8, 15));
      case Opnd::Fd: case Opnd::Fs1: case Opnd::Fs2: case Opnd::Fs3: case Opnd::FRs1Rs2: case Opnd::CFs2: return freg();
      case Opnd::CFdP: case Opnd::CFs2P: return freg(8, 15);
      case Opnd::Rm: {
        static const char* const modes[] = {"rne", "rtz", "rdn", "rup", "rmm", "dyn"};
        return modes[between(0, 5)];
      }
      default: throw std::logic_error("RiscvInstances: no instance for an operand kind");
    }
  }
};

}  // namespace

RiscvTools requireRiscvTools() {
  const char* pkg = "binutils-riscv64-linux-gnu";
  return {requireTool("riscv64-linux-gnu-as", pkg), requireTool("riscv64-linux-gnu-ld", pkg),
          requireTool("riscv64-linux-gnu-objdump", pkg), requireTool("riscv64-linux-gnu-objcopy", pkg)};
}

const std::vector<RiscvVariant>& riscvVariants() {
  static const std::vector<RiscvVariant> v = {
      {"rv64imac", 64, true},         {"rv64ima", 64, false},         {"rv32imac", 32, true},
      {"rv32ima", 32, false},         {"rv64imafdc", 64, true, true}, {"rv64imafd", 64, false, true},
      {"rv32imafdc", 32, true, true}, {"rv32imafd", 32, false, true}};
  return v;
}

std::string RiscvBatch::source() const {
  std::string s;
  for (const RiscvInstance& x : lines) s += x.text + "\n";
  return s;
}

RiscvBatch makeRiscvBatch(const RiscvVariant& v, uint64_t base, unsigned perRow, std::mt19937_64& rng) {
  Maker m(v, rng);
  std::vector<const Row*> rows;
  for (const Row& r : riscv::instructionTable())
    if (r.availableOn(v.xlen, v.rvc, v.fd))
      for (unsigned k = 0; k < perRow; ++k) rows.push_back(&r);
  std::vector<RiscvInstance> lines;
  for (const Row* r : rows) lines.push_back({r, ""});
  for (unsigned k = 0; k < 12 * perRow; ++k) lines.push_back({nullptr, m.pseudo(k)});
  std::shuffle(lines.begin(), lines.end(), rng);
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].row) lines[i].text = m.instance(*lines[i].row, i, lines.size());
  // Under .option norvc (GNU as then refuses the c.* names): a row that
  // would compress takes its 4-byte form.
  if (v.rvc)
    for (size_t i = 0; i < lines.size(); i += 7)
      if (lines[i].row && !(lines[i].row->flags & riscv::kCompressed))
        lines[i].text = ".option push; .option norvc; " + lines[i].text + "; .option pop";
  return {v, base, std::move(lines)};
}

std::map<std::string, uint64_t> riscvSymbols(const RiscvVariant& v, uint64_t base) {
  // near: within jal's +-1 MiB; mid: beyond it; far: within auipc's +-2 GiB
  // of both the kernel image and the module area.
  // abs: a sign-extended 32-bit address, which lui %hi + %lo form.
  if (v.xlen == 64)
    return {{"near_sym", base + 0x40000}, {"mid_sym", base - 0x123450}, {"far_sym", 0xffffffff40000000ull},
            {"abs_sym", 0xffffffff80012344ull}};
  return {{"near_sym", base + 0x40000}, {"mid_sym", base - 0x123450}, {"far_sym", 0xa0100000ull},
          {"abs_sym", 0x80012344ull}};
}

std::string riscvLinkedText(const RiscvTools& tools, const RiscvVariant& v, const std::string& object, uint64_t base,
                            const TempDir& dir) {
  std::vector<std::string> argv = {tools.ld, "--no-relax", "-nostdlib", "-m", v.xlen == 64 ? "elf64lriscv" : "elf32lriscv",
                                   "-e", hexText(base), "-Ttext=" + hexText(base)};
  for (const auto& [name, addr] : riscvSymbols(v, base)) argv.insert(argv.end(), {"--defsym", name + "=" + hexText(addr)});
  argv.insert(argv.end(), {object, "-o", dir.file("out.elf")});
  RunResult ld = run(argv);
  if (ld.status != 0) throw std::runtime_error("ld failed: " + ld.err);
  RunResult oc = run({tools.objcopy, "-O", "binary", "-j", ".text", dir.file("out.elf"), dir.file("out.bin")});
  if (oc.status != 0) throw std::runtime_error("objcopy failed: " + oc.err);
  return readFile(dir.file("out.bin"));
}

std::map<uint64_t, DumpedInstruction> parseRiscvObjdump(const std::string& out) {
  std::map<uint64_t, DumpedInstruction> m;
  static const std::regex line(R"(^\s*([0-9a-f]+):\t([0-9a-f]+)\s*\t(.*)$)");
  static const std::regex symbol(R"( <[^>]*>)");
  size_t pos = 0;
  while (pos < out.size()) {
    size_t nl = out.find('\n', pos);
    if (nl == std::string::npos) nl = out.size();
    std::string l = out.substr(pos, nl - pos);
    std::smatch x;
    if (std::regex_match(l, x, line)) {
      std::string t = std::regex_replace(std::string(x[3]), symbol, "");
      if (size_t c = t.find('#'); c != std::string::npos) t.erase(c);
      std::string collapsed;
      for (char c : t) {
        bool space = c == ' ' || c == '\t';
        if (space && (collapsed.empty() || collapsed.back() == ' ')) continue;
        collapsed += space ? ' ' : c;
      }
      while (!collapsed.empty() && collapsed.back() == ' ') collapsed.pop_back();
      m[std::stoull(x[1], nullptr, 16)] = {uint32_t(std::stoul(x[2], nullptr, 16)), unsigned(x[2].length() / 2), collapsed};
    }
    pos = nl + 1;
  }
  return m;
}

std::string comparableText(const std::string& ours) {
  std::string s;
  for (char c : ours) {
    bool space = c == ' ' || c == '\t';
    if (space && (s.empty() || s.back() == ' ')) continue;
    s += space ? ' ' : c;
  }
  // A transfer's target is its last operand: "j 0x1c", "beq a0,a1,0x1c".
  static const std::regex target(R"(^((j|jal|jr|beqz|bnez|blez|bgez|bltz|bgtz|beq|bne|blt|bge|bltu|bgeu|bgt|ble|bgtu|bleu|c\.j|c\.jal|c\.beqz|c\.bnez) (.*[ ,])?)0x([0-9a-f]+)$)");
  return std::regex_replace(s, target, "$1$4");
}

}  // namespace patchcheck::oracle
