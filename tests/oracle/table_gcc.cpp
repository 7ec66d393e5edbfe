// Generated patch-table headers against the GNU toolchain: each header is
// compiled with Debian's mips-linux-gnu-gcc for every ISA/endian/ABI of the
// spec's matrix, the words are read back from the object (objdump -t for
// where each array lies, objcopy for the bytes), and compared with GNU as
// (+ ld, for the relocations) assembling the same states at sample
// addresses. A word that depends on an address is compared through the
// header's encoding macro instantiated at the sample address. A file that
// includes the header and uses no table compiles with -Wall -Wextra
// -Wunused-const-variable -Werror.
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "checker/report/CHeader.h"
#include "checker/report/PatchTable.h"
#include "checker/spec/Regions.h"
#include "encoder/Hex.h"
#include "tests/oracle/support/EncoderInstances.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::oracle;
using json = nlohmann::json;

namespace {

struct ToolSet {
  std::string gcc, as, ld, objcopy, objdump;
};

struct Tally {
  unsigned compared = 0, failed = 0;
  void check(bool ok, const std::string& what) {
    ++compared;
    if (!ok) {
      ++failed;
      std::cout << "FAIL: " << what << "\n";
    }
  }
};

uint32_t parseHex(const json& j) { return uint32_t(std::stoul(j.get<std::string>(), nullptr, 16)); }

std::string targetTag(const mips::Target& t) {
  return cIdentifier(std::string(mips::name(t.isa)) + "_" + std::string(mips::name(t.abi)) + "_" +
                     (t.endian == mips::Endian::Big ? "be" : "le"));
}

// Sample placements: F and every other symbol inside its region, aligned.
std::map<std::string, uint64_t> sampleAddresses(const Spec& spec, const mips::Target& t) {
  std::map<std::string, uint64_t> out;
  auto regions = regionsFor(spec, t);
  auto lo = [&](const std::string& r) {
    for (const RegionSpec& x : regions)
      if (x.name == r) return x.lo;
    return regions.front().lo;
  };
  unsigned k = 0;
  for (const SymbolSpec& s : spec.symbols) {
    if (s.value) out[s.name] = *s.value;
    else if (s.name == spec.function) out[s.name] = lo(s.region) + 0x101000;
    else out[s.name] = lo(s.region) + 0x120000 + 0x10000 * k++ + (s.align < 4 ? 0 : 0);
    if (!t.is64()) out[s.name] = uint64_t(int64_t(int32_t(uint32_t(out[s.name]))));
  }
  if (!out.count(spec.function)) out[spec.function] = lo("kernel-text") + 0x101000;
  return out;
}

uint32_t wordAt(const std::string& bytes, size_t at, bool big) {
  auto b = [&](size_t i) { return uint32_t(uint8_t(bytes[at + i])); };
  return big ? (b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3)) : (b(3) << 24 | b(2) << 16 | b(1) << 8 | b(0));
}

// The same line in the syntax GNU as takes: register names with their `$`
// (`lui at, ...` -> `lui $at, ...`); GNU as resolves `$t0` per -mabi as the
// spec's names are resolved.
std::string gnuSyntax(const std::string& line) {
  static const std::set<std::string> regs = {
      "zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "t0", "t1", "t2", "t3",
      "t4",   "t5", "t6", "t7", "t8", "t9", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "k0",
      "k1",   "gp", "sp", "fp", "ra", "ta0", "ta1", "ta2", "ta3"};
  std::string out;
  bool mnemonic = true;
  for (size_t i = 0; i < line.size();) {
    char c = line[i];
    if (std::isalpha((unsigned char)c) || c == '_' || c == '.') {
      size_t j = i;
      while (j < line.size() && (std::isalnum((unsigned char)line[j]) || line[j] == '_' || line[j] == '.')) ++j;
      std::string word = line.substr(i, j - i);
      bool afterSigil = i > 0 && (line[i - 1] == '$' || line[i - 1] == '%');
      if (!mnemonic && !afterSigil && regs.count(word)) out += '$';
      out += word;
      mnemonic = mnemonic && line[j - 1] == ':';  // a label comes before the mnemonic
      i = j;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

// GNU as + ld: the words of a state at its sample placement.
std::vector<uint32_t> gnuWords(const ToolSet& tools, const std::vector<std::string>& lines, const mips::Target& t,
                               const std::map<std::string, uint64_t>& at, const std::string& function) {
  TempDir dir;
  std::string src = ".set noreorder\n.set noat\n.text\n";
  for (const std::string& l : lines) src += "\t" + gnuSyntax(l) + "\n";
  writeFile(dir.file("s.s"), src);
  std::vector<std::string> argv{tools.as};
  for (const std::string& f : gasFlags(t)) argv.push_back(f);
  argv.insert(argv.end(), {"-non_shared", dir.file("s.s"), "-o", dir.file("s.o")});
  RunResult as = run(argv);
  if (as.status != 0) throw std::runtime_error("GNU as failed: " + as.err + "\n" + src);
  std::vector<std::string> ld{tools.ld, "-m", ldEmulation(t), "-nostdlib", "-e", hex(at.at(function)),
                              "-Ttext=" + hex(at.at(function))};
  for (const auto& [n, v] : at)
    if (n != function) ld.push_back("--defsym=" + n + "=" + hex(v));
  ld.insert(ld.end(), {dir.file("s.o"), "-o", dir.file("s.elf")});
  RunResult l = run(ld);
  if (l.status != 0) throw std::runtime_error("ld failed: " + l.err);
  RunResult oc = run({tools.objcopy, "-O", "binary", "-j", ".text", dir.file("s.elf"), dir.file("s.bin")});
  if (oc.status != 0) throw std::runtime_error("objcopy failed: " + oc.err);
  std::string bytes = readFile(dir.file("s.bin"));
  std::vector<uint32_t> out;
  for (size_t i = 0; i < lines.size() && 4 * i + 4 <= bytes.size(); ++i)
    out.push_back(wordAt(bytes, 4 * i, t.endian == mips::Endian::Big));
  return out;
}

struct ObjectSymbol {
  uint64_t offset = 0, size = 0;
  std::string section;
};

// Compiles `c` and returns .rodata and where each data symbol lies in it.
std::string compile(const ToolSet& tools, const mips::Target& t, const std::string& header, const std::string& c,
                    std::map<std::string, ObjectSymbol>& symbols) {
  TempDir dir;
  writeFile(dir.file("table.h"), header);
  writeFile(dir.file("t.c"), c);
  std::string abi = t.abi == mips::Abi::O32 ? "32" : t.abi == mips::Abi::N32 ? "n32" : "64";
  RunResult cc = run({tools.gcc, "-c", "-O2", "-std=gnu11", "-Wall", "-Werror", "-ffreestanding", "-G0",
                      "-mno-abicalls", "-fno-pic", "-march=" + std::string(mips::name(t.isa)), "-mabi=" + abi,
                      t.endian == mips::Endian::Big ? "-EB" : "-EL", "-I", dir.path(), dir.file("t.c"), "-o",
                      dir.file("t.o")});
  if (cc.status != 0) throw std::runtime_error("mips-linux-gnu-gcc failed for " + t.str() + ": " + cc.err);
  RunResult od = run({tools.objdump, "-t", dir.file("t.o")});
  std::istringstream in(od.out);
  std::string line;
  while (std::getline(in, line)) {
    // "00000000 l     O .rodata	0000000c name"
    std::istringstream ls(line);
    std::string addr, bind, type, section, size, name;
    if (!(ls >> addr >> bind)) continue;
    if (!(ls >> type) || type != "O") continue;
    if (!(ls >> section >> size >> name)) continue;
    symbols[name] = {std::stoull(addr, nullptr, 16), std::stoull(size, nullptr, 16), section};
  }
  RunResult oc = run({tools.objcopy, "-O", "binary", "-j", ".rodata", dir.file("t.o"), dir.file("r.bin")});
  if (oc.status != 0) throw std::runtime_error("objcopy failed: " + oc.err);
  return readFile(dir.file("r.bin"));
}

// A file that includes the header and uses none of its tables: no warning
// under -Wall -Wextra, nor with -Wunused-const-variable (level 2, as the
// kernel's W=1 builds use it, which also warns for headers): every array is
// marked unused.
void compileUnused(const ToolSet& tools, const mips::Target& t, const std::string& header, Tally& tally) {
  TempDir dir;
  writeFile(dir.file("table.h"), header);
  writeFile(dir.file("u.c"), "#include \"table.h\"\nint patchcheck_table_unused(void) { return 0; }\n");
  std::string abi = t.abi == mips::Abi::O32 ? "32" : t.abi == mips::Abi::N32 ? "n32" : "64";
  RunResult cc = run({tools.gcc, "-c", "-O2", "-std=gnu11", "-Wall", "-Wextra", "-Wunused-const-variable", "-Werror",
                      "-ffreestanding", "-G0",
                      "-mno-abicalls", "-fno-pic", "-march=" + std::string(mips::name(t.isa)), "-mabi=" + abi,
                      t.endian == mips::Endian::Big ? "-EB" : "-EL", "-I", dir.path(), dir.file("u.c"), "-o",
                      dir.file("u.o")});
  tally.check(cc.status == 0, t.str() + ": a file using no table: " + cc.err);
}

void checkSpec(const ToolSet& tools, const std::string& path, Tally& tally) {
  auto loaded = loadSpec(path);
  if (auto* e = std::get_if<Diagnostics>(&loaded)) throw std::runtime_error((*e)[0].str());
  const Spec& spec = std::get<Spec>(loaded);
  std::vector<patchcheck::Target> targets = targetsOf(spec, true);
  // The table exactly as `patchcheck table --matrix` makes it (proofs included).
  auto built = buildTable(spec, TableOptions{true, 20000}, RunControl{2, nullptr});
  if (auto* e = std::get_if<Diagnostics>(&built)) throw std::runtime_error((*e)[0].str());
  const BuiltTable& b = std::get<BuiltTable>(built);
  if (!b.refusals.empty()) throw std::runtime_error("no table: " + b.refusals.front());
  const json& tj = b.json;
  std::string header = cHeader(tj, "table.json");
  std::string prefix = tj["spec"]["prefix"];
  for (size_t ti = 0; ti < targets.size(); ++ti) {
    const mips::Target& t = targets[ti];
    const json& target = tj["targets"][ti];
    std::string tp = prefix + "_" + targetTag(t);
    auto at = sampleAddresses(spec, t);
    // The C file: keep every array, and instantiate each encoding macro.
    std::string c = "#include \"table.h\"\n";
    // A state with address-dependent words has no array: its initializer
    // macro, instantiated at the sample addresses, stands in for it.
    for (const json& s : target["states"]) {
      std::vector<std::string> params = stateParameters(s);
      if (params.empty()) continue;
      std::string st = tp + "_" + cIdentifier(s["name"]), args;
      for (const std::string& p : params) args += (args.empty() ? "" : ", ") + hex(at.at(p)) + "ull";
      std::string macro = st + "_words";
      for (char& ch : macro) ch = char(std::toupper((unsigned char)ch));
      c += "const u32 inst_" + st + "[] = " + macro + "(" + args + ");\n";
    }
    c += "const void *const keep[] = {\n";
    for (const json& s : target["states"])
      c += "\t" + std::string(stateParameters(s).empty() ? "" : "inst_") + tp + "_" + cIdentifier(s["name"]) + ",\n";
    for (const json& tr : target["transitions"])
      c += "\t" + tp + "_" + cIdentifier(tr["from"]) + "_to_" + cIdentifier(tr["to"]) + ",\n";
    c += "};\n";
    for (const json& s : target["states"])
      for (const json& w : s["words"]) {
        if (w.contains("word")) continue;
        std::string fn = tp + "_" + cIdentifier(s["name"]) + "_w" + std::to_string(w["index"].get<unsigned>());
        std::string macro = fn;
        for (char& ch : macro) ch = char(std::toupper((unsigned char)ch));
        const json& e = w["encoding"];
        std::string args = hex(at.at(e["symbol"])) + "ull";
        if (e["kind"] == "branch" && e["slot_symbol"] != e["symbol"]) args += ", " + hex(at.at(e["slot_symbol"])) + "ull";
        c += "const u32 enc_" + fn + " = " + macro + "(" + args + ");\n";
      }
    compileUnused(tools, t, header, tally);
    std::map<std::string, ObjectSymbol> syms;
    std::string rodata = compile(tools, t, header, c, syms);
    bool big = t.endian == mips::Endian::Big;
    for (const json& s : target["states"]) {
      std::string st = s["name"];
      std::vector<std::string> lines;
      for (const json& w : s["words"]) lines.push_back(w["text"]);
      std::vector<uint32_t> gnu = gnuWords(tools, lines, t, at, spec.function);
      auto it = syms.find((stateParameters(s).empty() ? "" : "inst_") + tp + "_" + cIdentifier(st));
      if (it == syms.end() || gnu.size() != lines.size()) {
        tally.check(false, t.str() + " state " + st + ": array or GNU words missing");
        continue;
      }
      for (const json& w : s["words"]) {
        unsigned i = w["index"];
        uint32_t compiled = wordAt(rodata, it->second.offset + 4 * i, big);
        std::string what = spec.name + " " + t.str() + " state " + st + " word " + std::to_string(i) + " '" +
                           w["text"].get<std::string>() + "'";
        if (w.contains("word")) {
          tally.check(compiled == gnu[i], what + ": header " + hex(compiled) + ", GNU as " + hex(gnu[i]));
        } else {
          std::string fn = tp + "_" + cIdentifier(st) + "_w" + std::to_string(i);
          auto e = syms.find("enc_" + fn);
          uint32_t encoded = e == syms.end() ? 0 : wordAt(rodata, e->second.offset, big);
          tally.check(e != syms.end() && encoded == gnu[i],
                      what + ": encoding macro " + hex(encoded) + ", GNU as " + hex(gnu[i]));
          tally.check(compiled == gnu[i], what + ": the state's words macro " + hex(compiled) + ", GNU as " + hex(gnu[i]));
        }
      }
    }
    for (const json& tr : target["transitions"]) {
      std::string name = tp + "_" + cIdentifier(tr["from"]) + "_to_" + cIdentifier(tr["to"]);
      auto it = syms.find(name);
      if (it == syms.end()) {
        tally.check(false, t.str() + " transition " + tr["name"].get<std::string>() + ": array missing");
        continue;
      }
      const json* to = nullptr;
      for (const json& s : target["states"])
        if (s["name"] == tr["to"]) to = &s;
      size_t k = 0;
      for (const json& step : tr["steps"]) {
        uint32_t op = wordAt(rodata, it->second.offset + 8 * k, big);
        uint32_t word = wordAt(rodata, it->second.offset + 8 * k + 4, big);
        std::string what = spec.name + " " + t.str() + " " + tr["name"].get<std::string>() + " step " + std::to_string(k);
        if (step["op"] == "write") {
          unsigned i = step["index"];
          tally.check((op & 0xffffff) == i, what + ": index");
          if (!step.value("interim", false) && to) {
            const json& w = (*to)["words"][i];
            tally.check(word == parseHex(w.contains("word") ? w["word"] : w["fixed"]), what + ": word " + hex(word));
          }
        } else {
          static const std::map<std::string, uint32_t> ops = {
              {"sync", 0x03000000u}, {"flush", 0x04000000u}, {"wait", 0x05000000u}};
          tally.check(op == ops.at(step["op"]), what + ": barrier " + step["op"].get<std::string>());
        }
        ++k;
      }
      tally.check(it->second.size == 8 * tr["steps"].size(), name + ": size");
    }
    std::cout << spec.name << " " << t.str() << ": compiled and compared\n";
  }
}

}  // namespace

int main() {
  Tally tally;
  try {
    ToolSet tools{requireTool("mips-linux-gnu-gcc", "gcc-mips-linux-gnu"),
                  requireTool("mips-linux-gnu-as", "binutils-mips-linux-gnu"),
                  requireTool("mips-linux-gnu-ld", "binutils-mips-linux-gnu"),
                  requireTool("mips-linux-gnu-objcopy", "binutils-mips-linux-gnu"),
                  requireTool("mips-linux-gnu-objdump", "binutils-mips-linux-gnu")};
    for (const char* spec : {"patchable-entry.toml", "patchable-entry-livepatch.toml"})
      checkSpec(tools, std::string(PATCHCHECK_SOURCE_DIR) + "/specs/mips/" + spec, tally);
  } catch (const std::exception& e) {
    std::cout << "error: " << e.what() << "\n";
    ++tally.failed;
  }
  std::cout << tally.compared << " words and steps compared\n";
  std::cout << (tally.compared - std::min(tally.compared, tally.failed)) << " passed, " << tally.failed << " failed\n";
  return tally.failed ? 1 : 0;
}
