// Generated patch-table headers of arm64 specs, compiled by Debian's
// aarch64-linux-gnu-gcc and run under qemu-aarch64 (qemu-aarch64_be for a
// big-endian target): for several placements of F and T the program prints
// what each state's encoder computes (ADR, ADRP, ADD :lo12:, LDR literal,
// B, BL, B.cond, CBZ, TBZ, a .quad), the words of the state arrays and the
// byte order of each unit; each is compared with the arm64 plug-in's own
// assembler at the same concrete addresses. The program is freestanding
// (no C library), so the compiler and QEMU are the only outside tools.
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "checker/explore/CheckRun.h"
#include "checker/explore/Checker.h"
#include "checker/report/CHeader.h"
#include "checker/report/PatchTable.h"
#include "encoder/Hex.h"
#include "encoder/Isa.h"
#include "tests/oracle/support/Tools.h"

using namespace patchcheck;
using namespace patchcheck::oracle;
using json = nlohmann::json;

namespace {

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

// Addresses of the spec's symbols for one run of the program. `states`
// limits the placement to the states whose reach it fits (empty: all).
struct Placement {
  std::map<std::string, uint64_t> at;
  std::set<std::string> states;
};

struct Case {
  std::string spec;
  std::vector<Placement> placements;
};

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper((unsigned char)c));
  return s;
}

// Output without a C library: write(2) and exit(2) by system call.
const char* kRuntime = R"(
static void put(const char *s, unsigned long n)
{
	register long x0 __asm__("x0") = 1;
	register const char *x1 __asm__("x1") = s;
	register unsigned long x2 __asm__("x2") = n;
	register long x8 __asm__("x8") = 64;
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x8) : "memory");
}
static void hex(u64 v)
{
	char b[17];
	for (int i = 15; i >= 0; --i, v >>= 4)
		b[i] = "0123456789abcdef"[v & 15];
	b[16] = '\n';
	put(b, 17);
}
static void run(void);
void _start(void)
{
	run();
	register long x0 __asm__("x0") = 0;
	register long x8 __asm__("x8") = 93;
	__asm__ volatile("svc 0" : : "r"(x0), "r"(x8));
	for (;;) ;
}
)";

class Arm64Tables {
 public:
  Arm64Tables()
      : gcc_(requireTool("aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu")),
        qemuLittle_(requireTool("qemu-aarch64", "qemu-user")),
        qemuBig_(requireTool("qemu-aarch64_be", "qemu-user")) {}

  void check(const Case& c, Tally& tally) {
    auto loaded = loadSpec(c.spec);
    if (auto* e = std::get_if<Diagnostics>(&loaded)) throw std::runtime_error((*e)[0].str());
    const Spec& spec = std::get<Spec>(loaded);
    TableOptions opt;
    opt.matrix = true;
    auto built = buildTable(spec, opt, RunControl{1, nullptr});
    if (auto* e = std::get_if<Diagnostics>(&built)) throw std::runtime_error((*e)[0].str());
    const BuiltTable& b = std::get<BuiltTable>(built);
    if (!b.refusals.empty()) throw std::runtime_error("no table: " + b.refusals.front());
    std::string header = cHeader(b.json, "table.json");
    tally.check(header.find("#error") == std::string::npos, spec.name + ": the header has an #error");
    std::string prefix = b.json["spec"]["prefix"];
    for (size_t ti = 0; ti < b.targets.size(); ++ti) {
      const Target& t = b.targets[ti];
      const json& target = b.json["targets"][ti];
      std::string tp = prefix + "_" + cIdentifier(std::string(t.variantName()) + "_" + std::string(t.abiName()) +
                                                  (t.endian == Endian::Big ? "_be" : "_le"));
      for (const Placement& p : c.placements) {
        std::vector<std::string> expected, what;
        std::string body = program(spec, t, target, tp, p, expected, what);
        std::vector<std::string> got = runProgram(t, header, body);
        std::string where = spec.name + " " + t.str() + " F=" + hex(p.at.at(spec.function));
        tally.check(got.size() == expected.size(), where + ": " + std::to_string(got.size()) + " lines, expected " +
                                                       std::to_string(expected.size()));
        for (size_t i = 0; i < std::min(got.size(), expected.size()); ++i)
          tally.check(got[i] == expected[i], where + " " + what[i] + ": header " + got[i] + ", plug-in " + expected[i]);
      }
      std::cout << spec.name << " " << t.str() << ": " << c.placements.size() << " placements run\n";
    }
  }

 private:
  // The C body that prints, for placement `p`, every value the header gives;
  // `expected` gets the plug-in's value for each printed line.
  std::string program(const Spec& spec, const Target& t, const json& target, const std::string& tp,
                      const Placement& p, std::vector<std::string>& expected, std::vector<std::string>& what) {
    std::ostringstream body;
    body << "static void run(void)\n{\n";
    auto line = [&](const std::string& expr, uint64_t value, const std::string& label) {
      body << "\thex(" << expr << ");\n";
      char b[17];
      snprintf(b, sizeof b, "%016llx", (unsigned long long)value);
      expected.push_back(b);
      what.push_back(label);
    };
    bool first = true;
    for (const json& s : target["states"]) {
      std::string st = s["name"];
      if (!p.states.empty() && !p.states.count(st)) continue;
      std::vector<Unit> units = assemble(spec, t, s, p);
      if (units.size() != s["words"].size()) throw std::runtime_error(spec.name + " state " + st + ": unit count");
      for (const json& w : s["words"]) {
        unsigned i = w["index"];
        std::string label = "state " + st + " unit " + std::to_string(i) + " '" + w["text"].get<std::string>() + "'";
        // A state's array holds its words; a state with an encoded word has
        // none, but an initializer macro that takes the addresses.
        std::vector<std::string> params = stateParameters(s);
        if (params.empty()) {
          line(tp + "_" + cIdentifier(st) + "[" + std::to_string(i) + "]", units[i].bits, label + " array");
        } else {
          std::string args;
          for (const std::string& q : params) args += (args.empty() ? "" : ", ") + hex(p.at.at(q)) + "ull";
          line("((const u64[])" + upper(tp + "_" + cIdentifier(st) + "_words") + "(" + args + "))[" +
                   std::to_string(i) + "]",
               units[i].bits, label + " words macro");
        }
        if (!w.contains("word")) {
          const json& e = w["encoding"];
          std::string args = hex(p.at.at(e["symbol"])) + "ull";
          if (e.contains("slot_symbol") && e["slot_symbol"] != e["symbol"])
            args += ", " + hex(p.at.at(e["slot_symbol"])) + "ull";
          std::string fn = tp + "_" + cIdentifier(st) + "_w" + std::to_string(i);
          line(fn + "(" + args + ")", units[i].bits, label + " encoder " + e["kind"].get<std::string>());
          line(upper(fn) + "(" + args + ")", units[i].bits, label + " macro");
        }
        if (first && t.isa->byteOrder(units[i], t) != t.endian)
          line(tp + "_unit_little_endian[" + std::to_string(i) + "]",
               t.isa->byteOrder(units[i], t) == Endian::Little, label + " byte order");
      }
      first = false;
    }
    body << "}\n";
    return body.str();
  }

  // The state's units at concrete addresses, by the plug-in's assembler.
  std::vector<Unit> assemble(const Spec& spec, const Target& t, const json& state, const Placement& p) {
    std::string source;
    for (const json& w : state["words"]) source += w["text"].get<std::string>() + "\n";
    AssemblyOptions opt;
    opt.target = t;
    opt.symbols = p.at;
    opt.base = Value::constant(p.at.at(spec.function) + int64_t(state["words"][0]["offset"].get<int>()));
    auto a = t.isa->assemble(source, "state " + state["name"].get<std::string>(), opt);
    if (auto* e = std::get_if<Diagnostics>(&a)) throw std::runtime_error((*e)[0].str());
    return std::get<Program>(a).units;
  }

  std::vector<std::string> runProgram(const Target& t, const std::string& header, const std::string& body) {
    TempDir dir;
    writeFile(dir.file("table.h"), header);
    writeFile(dir.file("prog.c"), std::string("#include \"table.h\"\n") + kRuntime + body);
    bool big = t.endian == Endian::Big;
    RunResult cc = run({gcc_, "-O2", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-ffreestanding", "-nostdlib",
                        "-static", big ? "-mbig-endian" : "-mlittle-endian", "-o", dir.file("prog"), dir.file("prog.c")});
    if (cc.status != 0) throw std::runtime_error("aarch64-linux-gnu-gcc failed for " + t.str() + ": " + cc.err);
    RunResult q = run({big ? qemuBig_ : qemuLittle_, dir.file("prog")});
    if (q.status != 0) throw std::runtime_error("qemu exited " + std::to_string(q.status) + ": " + q.err);
    std::vector<std::string> lines;
    std::istringstream in(q.out);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  }

  std::string gcc_, qemuLittle_, qemuBig_;
};

}  // namespace

int main() {
  Tally tally;
  std::string dir = std::string(PATCHCHECK_TEST_DATA) + "/specs/tables/";
  // kernel-text is 0xffff800080000000..0xffff800087ffffff. Near placements
  // keep T within ADR's +-1 MiB of F, both signs, on and off page
  // boundaries; far ones need ADRP's pages, BL's 128 MiB or the literal.
  const uint64_t text = 0xffff800080000000ull;
  std::vector<Placement> calls = {
      {{{"F", text + 0x401000}, {"T", text + 0x401000 + 0x12344}}, {}},
      {{{"F", text + 0x400ff8}, {"T", text + 0x400ff8 - 0xffff0}}, {}},
      {{{"F", text + 0x7ff8}, {"T", text + 0x7ff8 + 0xffff4}}, {}},
      {{{"F", text + 0x123450}, {"T", text + 0x123450 - 0x10}}, {}},
      {{{"F", text + 0x10008}, {"T", text + 0x7fff004}}, {"off", "lit", "adrp", "bl"}},
      {{{"F", text + 0x7ffeff8}, {"T", text + 0x1000}}, {"off", "lit", "adrp", "bl"}},
  };
  // The branches' region: 16 KiB at 0xffff800080100000 (TBZ reaches 32 KiB).
  const uint64_t near = 0xffff800080100000ull;
  std::vector<Placement> branches = {
      {{{"F", near + 0x2000}, {"T", near + 0x3ffc}}, {}},
      {{{"F", near + 0x3ff8}, {"T", near}}, {}},
      {{{"F", near + 0x1234}, {"T", near + 0x1238}}, {}},
      {{{"F", near + 0x10}, {"T", near + 0x10}}, {}},
  };
  // The shipped CALL_OPS spec: its ops literal, BL in both directions, and
  // the arm64 steps (dc cvau, dsb, ic ivau) in the step arrays.
  auto ftrace = [&](uint64_t f, uint64_t caller) {
    return Placement{{{"F", f}, {"ftrace_caller", caller}, {"ftrace_nop_ops", text + 0x9000},
                      {"ftrace_list_ops", text + 0x9100}, {"ops_a", text + 0x9200}, {"ops_direct", text + 0x9300},
                      {"ftrace_stub_direct_tramp", caller + 0x40}},
                     {}};
  };
  std::vector<Placement> callOps = {ftrace(text + 0x100008, text + 0x2000), ftrace(text + 0x1000, text + 0x7fff000)};
  try {
    Arm64Tables tables;
    tables.check({dir + "arm64-calls.toml", calls}, tally);
    tables.check({dir + "arm64-branches.toml", branches}, tally);
    tables.check({std::string(PATCHCHECK_SOURCE_DIR) + "/specs/arm64/ftrace-call-ops.toml", callOps}, tally);
  } catch (const std::exception& e) {
    std::cout << "error: " << e.what() << "\n";
    ++tally.failed;
  }
  std::cout << tally.compared << " values compared\n";
  std::cout << (tally.compared - std::min(tally.compared, tally.failed)) << " passed, " << tally.failed << " failed\n";
  return tally.failed ? 1 : 0;
}
