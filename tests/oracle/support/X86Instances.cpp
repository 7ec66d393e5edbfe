#include "tests/oracle/support/X86Instances.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <stdexcept>

namespace patchcheck::oracle {
namespace {

using x86_64::InstrDesc;
using x86_64::Opnd;

const char* const kRegs64[] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                               "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
const char* const kRegs32[] = {"eax", "ecx", "edx",  "ebx",  "esp",  "ebp",  "esi",  "edi",
                               "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"};
const char* const kRegs16[] = {"ax",  "cx",  "dx",   "bx",   "sp",   "bp",   "si",   "di",
                               "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"};
const char* const kRegs8[] = {"al",  "cl",  "dl",   "bl",   "spl",  "bpl",  "sil",  "dil",
                              "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"};

std::string hexOf(int64_t v) {
  char buf[32];
  if (v < 0)
    snprintf(buf, sizeof buf, "-0x%llx", (unsigned long long)(0 - uint64_t(v)));
  else
    snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

class Generator {
 public:
  Generator(uint64_t base, size_t lines, std::mt19937_64& rng) : base_(base), lines_(lines), rng_(rng) {}

  X86Instance instance(const InstrDesc& d, size_t line) {
    line_ = line;
    uint8_t size = pickSize(d.sizes);
    std::vector<std::string> ops(d.operandCount());
    bool registerShowsSize = false, memory = false;
    // The destination first: whether it is a register decides the immediate.
    destinationIsRegister_ = false;
    for (unsigned i = d.operandCount(); i-- > 0;) {
      Opnd k = d.operands[i];
      bool reg = false;
      ops[i] = operand(d, k, size, i, reg, memory);
      if (reg && (k == Opnd::R || k == Opnd::RM)) registerShowsSize = true;
      if (reg) destinationIsRegister_ = true;
    }
    std::string mnemonic = spelling(d);
    bool needsSuffix = (d.flags & x86_64::kSuffix) && !(d.flags & x86_64::kDefault64) && !registerShowsSize;
    if (d.flags & x86_64::kAlwaysSuffix) needsSuffix = true;
    bool maySuffix = (d.flags & (x86_64::kSuffix | x86_64::kDefault64)) && d.sizes;
    if (needsSuffix || (maySuffix && chance(0.3))) mnemonic += x86_64::suffixOf(size);
    std::string prefix;
    if (memory && chance(0.08)) prefix = chance(0.5) ? "{disp8} " : "{disp32} ";
    if ((d.flags & x86_64::kRelax) && chance(0.05)) prefix = "{disp32} ";
    std::string text = prefix + mnemonic;
    for (size_t i = 0; i < ops.size(); ++i)
      text += (i ? (chance(0.5) ? "," : ", ") : (chance(0.5) ? " " : "\t")) + ops[i];
    return {text, &d};
  }

 private:
  uint64_t base_;
  size_t lines_;
  std::mt19937_64& rng_;
  size_t line_ = 0;
  bool destinationIsRegister_ = false;

  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  uint64_t below(uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  int64_t between(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  template <class T, size_t N>
  const T& pick(const T (&a)[N]) {
    return a[below(N)];
  }

  uint8_t pickSize(uint8_t sizes) {
    if (!sizes) return 0;
    std::vector<uint8_t> v;
    for (uint8_t s : {x86_64::B, x86_64::W, x86_64::L, x86_64::Q})
      if (sizes & s) v.push_back(s);
    return v[below(v.size())];
  }

  std::string spelling(const InstrDesc& d) {
    std::string m(d.mnemonic);
    // Conditions also spelled GNU as's other ways (jz, setnae, cmovpe).
    for (std::string_view family : {"j", "set", "cmov"}) {
      if (!m.starts_with(family) || m == "jmp" || !chance(0.3)) continue;
      int cc = x86_64::conditionCode(std::string_view(m).substr(family.size()));
      if (cc < 0) continue;
      static const std::pair<const char*, int> aliases[] = {{"c", 2},    {"nae", 2}, {"nb", 3},  {"nc", 3},  {"z", 4},
                                                            {"nz", 5},   {"na", 6},  {"nbe", 7}, {"pe", 10}, {"po", 11},
                                                            {"nge", 12}, {"nl", 13}, {"ng", 14}, {"nle", 15}};
      for (auto [name, c] : aliases)
        if (c == cc && chance(0.6)) return std::string(family) + name;
    }
    return m;
  }

  std::string reg(unsigned bits) {
    switch (bits) {
      case 8: return std::string("%") + pick(kRegs8);
      case 16: return std::string("%") + pick(kRegs16);
      case 32: return std::string("%") + pick(kRegs32);
      default: return std::string("%") + pick(kRegs64);
    }
  }

  // A label line: near (rel8 reach), medium or far (rel32).
  std::string label() {
    int64_t spread = chance(0.5) ? 20 : chance(0.5) ? 120 : 4000;
    int64_t target = int64_t(line_) + between(-spread, spread);
    target = std::clamp<int64_t>(target, 0, int64_t(lines_) - 1);
    return "L" + std::to_string(target);
  }

  // `wide`: an address (a label) may stand here, a sign-extended disp32.
  std::string displacement(bool wide) {
    switch (below(wide ? 6 : 5)) {
      case 0: return chance(0.5) ? "0" : "0x0";
      case 1: return hexOf(between(-128, 127));
      case 2: return hexOf(std::vector<int64_t>{127, 128, -128, -129, 255, 256, -1}[below(7)]);
      case 3: return chance(0.5) ? std::to_string(between(-100000, 100000)) : hexOf(between(-0x8000, 0x7fff));
      case 4: return hexOf(between(-0x80000000ll, 0x7fffffffll));
      default: return chance(0.5) ? label() : label() + "+" + std::to_string(below(64));  // an address: disp32
    }
  }

  std::string baseRegister() {
    static const char* const favoured[] = {"rsp", "rbp", "r12", "r13"};
    return std::string("%") + (chance(0.4) ? pick(favoured) : pick(kRegs64));
  }
  std::string indexRegister() {
    static const char* const favoured[] = {"rbp", "r12", "r13", "rax"};
    std::string r;
    do r = std::string("%") + (chance(0.4) ? pick(favoured) : pick(kRegs64));
    while (r == "%rsp");
    return r;
  }

  // `addresses`: a label or symbol may be the displacement (not in a
  // 16- or 32-bit lea, where GNU as makes it R_X86_64_32).
  std::string memory(bool segment = true, bool addresses = true) {
    std::string seg = segment && chance(0.06) ? "%gs:" : "";
    static const char* const scales[] = {"1", "2", "4", "8"};
    switch (below(addresses ? 9 : 6)) {
      case 0: return seg + "(" + baseRegister() + ")";
      case 1:
      case 2: return seg + displacement(addresses) + "(" + baseRegister() + ")";
      case 3: {
        std::string d = chance(0.6) ? displacement(addresses) : "";
        std::string s = chance(0.85) ? std::string(",") + pick(scales) : "";
        return seg + d + "(" + baseRegister() + "," + indexRegister() + s + ")";
      }
      case 4: return seg + (chance(0.7) ? displacement(false) : "") + "(," + indexRegister() + "," + pick(scales) + ")";
      case 5: return seg + displacement(false) + "(%rip)";
      case 6:  // pc-relative: any label
        return seg + (chance(0.7) ? label() : std::string("ext_data")) + "(%rip)";
      case 7: return seg + hexOf(between(-0x80000000ll, 0x7fffffffll));  // an absolute address
      default: return seg + (chance(0.5) ? label() : std::string("ext_data")) + "(" + baseRegister() + ")";
    }
  }

  // $immediates of `bits`, the boundaries of each field width first.
  std::string immediate(unsigned bits, bool any64) {
    static const int64_t edges[] = {0,
                                    1,
                                    -1,
                                    0x7f,
                                    0x80,
                                    -0x80,
                                    -0x81,
                                    0xff,
                                    0x100,
                                    0x7fff,
                                    0x8000,
                                    -0x8000,
                                    0xffff,
                                    0x10000,
                                    0x7fffffff,
                                    -0x80000000ll,
                                    0xffffffffll,
                                    0x80000000ll,
                                    -0x80000001ll,
                                    0x123456789abcdefll,
                                    int64_t(0x8000000000000000ull)};
    int64_t lo = bits == 64 && !any64 ? -0x80000000ll : bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1));
    int64_t hi = bits == 64 && !any64 ? 0x7fffffffll : bits == 64 ? INT64_MAX : (int64_t(1) << bits) - 1;
    int64_t v;
    if (chance(0.5)) {
      do v = pick(edges);
      while (v < lo || v > hi);
    } else if (chance(0.5)) {
      v = between(std::max<int64_t>(lo, -300), std::min<int64_t>(hi, 300));
    } else {
      v = between(lo, hi);
    }
    return "$" + (chance(0.3) && v > -100000 && v < 100000 ? std::to_string(v) : hexOf(v));
  }

  std::string operand(const InstrDesc& d, Opnd k, uint8_t size, unsigned i, bool& isReg, bool& isMem) {
    unsigned bits = x86_64::sizeBits(size);
    auto regOrMem = [&](unsigned b) {
      if (chance(0.5)) {
        isReg = true;
        return reg(b);
      }
      isMem = true;
      return memory();
    };
    switch (k) {
      case Opnd::R: isReg = true; return reg(bits);
      case Opnd::M: {
        bool lea = d.zydis == ZYDIS_MNEMONIC_LEA;  // GNU as warns of %gs: on lea
        isMem = true;
        return memory(!lea, !lea || bits == 64);
      }
      case Opnd::RM: return regOrMem(bits);
      case Opnd::I: {
        // mov $imm,%r64 takes every 64-bit value; a symbol in a 64-bit
        // operation is a sign-extended imm32 (R_X86_64_32S).
        bool toReg64 = d.zydis == ZYDIS_MNEMONIC_MOV && bits == 64 && i == 0 && destinationIsRegister_;
        if (bits == 64 && chance(0.05)) return "$ext_data";
        return immediate(bits, toReg64 && chance(0.5));
      }
      case Opnd::I64: return chance(0.1) ? "$ext_data" : immediate(64, true);
      case Opnd::Count: return "$" + std::to_string(chance(0.9) ? below(64) : below(256));
      case Opnd::Cl: return "%cl";
      case Opnd::Rel: {
        if (chance(0.1)) return chance(0.5) ? "ext_near" : "ext_far";
        if (chance(0.05)) return hexOf(int64_t(base_ + below(0x100000)));  // an address
        if (chance(0.1)) return chance(0.5) && line_ >= 5 ? "1b" : line_ + 5 < lines_ ? "1f" : "1b";
        return label();
      }
      case Opnd::Ind:
        if (chance(0.4)) return "*" + reg(64);
        isMem = true;
        return "*" + memory();
      case Opnd::RM8: return regOrMem(8);
      case Opnd::RM16: return regOrMem(16);
      case Opnd::RM32: return regOrMem(32);
      case Opnd::None: break;
    }
    return "";
  }
};

}  // namespace

std::string X86Batch::source() const {
  std::string s;
  for (const X86Instance& x : lines) s += x.text + "\n";
  return s;
}

const std::map<std::string, uint64_t>& x86ExternalSymbols(uint64_t base) {
  static std::map<uint64_t, std::map<std::string, uint64_t>> cache;
  auto& m = cache[base];
  if (m.empty()) {
    m["ext_near"] = base + 0x1000000;  // 16 MiB on
    m["ext_far"] = base - 0x40000000;  // 1 GiB back: reached by rel32 only
    m["ext_data"] = base + 0x2000000;  // a sign-extended 32-bit address
    m["function_trace_op"] = base + 0x2000100;
  }
  return m;
}

X86Batch makeX86Batch(uint64_t base, size_t count, unsigned perRow, bool alignments, std::mt19937_64& rng) {
  auto table = x86_64::instructionTable();
  std::vector<const InstrDesc*> rows;
  for (const InstrDesc& d : table)
    for (unsigned k = 0; k < perRow; ++k) rows.push_back(&d);
  while (rows.size() < count) rows.push_back(&table[std::uniform_int_distribution<size_t>(0, table.size() - 1)(rng)]);
  std::shuffle(rows.begin(), rows.end(), rng);
  X86Batch b;
  b.base = base;
  Generator g(base, rows.size(), rng);
  std::uniform_real_distribution<double> u(0, 1);
  for (size_t i = 0; i < rows.size(); ++i) {
    X86Instance x;
    if (alignments && u(rng) < 0.005)
      x.text = ".p2align " + std::to_string(2 + i % 4);
    else
      x = g.instance(*rows[i], i);
    // Every line is a label; every fifth also the numeric local label 1.
    x.text = "L" + std::to_string(i) + ": " + (i % 5 == 0 ? "1: " : "") + x.text;
    b.lines.push_back(std::move(x));
  }
  return b;
}

X86Batch readX86Batch(const std::string& path, uint64_t base) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot read " + path);
  X86Batch b;
  b.base = base;
  for (std::string l; std::getline(f, l);) {
    if (l.empty() || l[0] == '#') continue;
    b.lines.push_back({"L" + std::to_string(b.lines.size()) + ": " + l, nullptr});
  }
  return b;
}

X86Tools requireX86Tools() {
  X86Tools t;
  t.as = requireTool("x86_64-linux-gnu-as", "binutils");
  t.ld = requireTool("x86_64-linux-gnu-ld", "binutils");
  t.objcopy = requireTool("x86_64-linux-gnu-objcopy", "binutils");
  t.objdump = requireTool("x86_64-linux-gnu-objdump", "binutils");
  t.nm = requireTool("x86_64-linux-gnu-nm", "binutils");
  return t;
}

std::string linkedText(const X86Tools& tools, const std::string& object, uint64_t base, const TempDir& dir) {
  char hexBase[32];
  snprintf(hexBase, sizeof hexBase, "0x%llx", (unsigned long long)base);
  std::vector<std::string> argv = {tools.ld, "-nostdlib", "-e", hexBase, "-Ttext=" + std::string(hexBase)};
  for (const auto& [name, addr] : x86ExternalSymbols(base)) {
    char def[96];
    snprintf(def, sizeof def, "%s=0x%llx", name.c_str(), (unsigned long long)addr);
    argv.insert(argv.end(), {"--defsym", def});
  }
  argv.insert(argv.end(), {object, "-o", dir.file("out.elf")});
  RunResult ld = run(argv);
  if (ld.status != 0) throw std::runtime_error("ld failed: " + ld.err);
  RunResult oc = run({tools.objcopy, "-O", "binary", "-j", ".text", dir.file("out.elf"), dir.file("out.bin")});
  if (oc.status != 0) throw std::runtime_error("objcopy failed: " + oc.err);
  return readFile(dir.file("out.bin"));
}

std::vector<uint64_t> lineAddresses(const X86Tools& tools, const std::string& elf, size_t lines) {
  RunResult nm = run({tools.nm, elf});
  if (nm.status != 0) throw std::runtime_error("nm failed: " + nm.err);
  std::vector<uint64_t> out(lines + 1, 0);
  std::vector<bool> seen(lines, false);
  static const std::regex entry(R"(^([0-9a-f]+) [tT] L(\d+)$)");
  size_t pos = 0;
  while (pos < nm.out.size()) {
    size_t nl = nm.out.find('\n', pos);
    if (nl == std::string::npos) nl = nm.out.size();
    std::string l = nm.out.substr(pos, nl - pos);
    std::smatch m;
    if (std::regex_match(l, m, entry)) {
      size_t i = std::stoul(m[2]);
      if (i < lines) out[i] = std::stoull(m[1], nullptr, 16), seen[i] = true;
    }
    pos = nl + 1;
  }
  for (size_t i = 0; i < lines; ++i)
    if (!seen[i]) throw std::runtime_error("nm: no symbol L" + std::to_string(i));
  return out;
}

std::vector<std::string> x86GasComplaints(const std::string& err, size_t lines) {
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
