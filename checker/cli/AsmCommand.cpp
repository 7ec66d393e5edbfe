// `patchcheck asm`: assemble a file to words.
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "checker/cli/Commands.h"
#include "checker/cli/TargetOptions.h"
#include "checker/report/AtomicFile.h"
#include "checker/cli/Input.h"
#include "encoder/Isa.h"

namespace patchcheck {
namespace {

struct AsmArgs {
  TargetOptions target;
  std::vector<std::string> syms;
  std::string base = "0";
  std::string format = "hex";
  std::string output;
  std::string file;
  bool allowUnpredictable = false;
};

// A unit's value, two digits per byte (a 4-byte word: 8 digits; .quad: 16).
std::string unitHex(const Unit& u) {
  char buf[32];
  snprintf(buf, sizeof buf, "%0*llx", int(2 * u.bytes), (unsigned long long)u.bits);
  return buf;
}

// A concrete unit's bytes in memory order. `bits` holds at most 8 bytes;
// a longer unit (an x86 instruction) is read from its term.
std::vector<uint8_t> memoryBytes(const Unit& u, const Target& t) {
  std::vector<uint8_t> out(u.bytes);
  if (u.bytes <= 8) {
    bool big = t.isa->byteOrder(u, t) == Endian::Big;
    for (unsigned i = 0; i < u.bytes; ++i) out[i] = uint8_t(u.bits >> (big ? 8 * (u.bytes - 1 - i) : 8 * i));
    return out;
  }
  z3::context c;
  z3::expr term = t.isa->symbolic(u, t, c, [&](const std::string& s) { return c.bv_const(s.c_str(), 64); }).term;
  for (unsigned i = 0; i < u.bytes; ++i) out[i] = uint8_t(term.extract(8 * i + 7, 8 * i).simplify().get_numeral_uint());
  return out;
}

// A byte-stream ISA (x86: patch units of one byte) has no words: its units
// print as their bytes in memory order, as objdump shows them.
bool byteStream(const Target& t) { return t.isa->patchUnitBytes(t) == 1; }

std::string bytesHex(const std::vector<uint8_t>& bytes, const char* separator) {
  std::string out;
  char buf[8];
  for (uint8_t b : bytes) snprintf(buf, sizeof buf, "%s%02x", out.empty() ? "" : separator, b), out += buf;
  return out;
}

int runAsm(const AsmArgs& a) {
  AssemblyOptions opt;
  auto t = commandTarget(a.target);
  if (!t) return 2;
  opt.target = *t;
  opt.allowUnpredictable = a.allowUnpredictable;
  auto base = parseAddress(a.base);
  if (!base) {
    std::cerr << "<command line>: error: --base '" << a.base << "' is not an address\n";
    return 2;
  }
  opt.base = Value::constant(int64_t(*base));
  if (!addSymbols(a.syms, opt.symbols)) return 2;
  auto source = readSource(a.file);
  if (!source) return 2;
  auto assembled = t->isa->assemble(source->text, source->name, opt);
  if (auto* errs = std::get_if<Diagnostics>(&assembled)) {
    for (const auto& d : *errs) std::cerr << d.str() << "\n";
    return 2;
  }
  const Program& assembly = std::get<Program>(assembled);
  Diagnostics errs;
  for (const Unit& u : assembly.units) {
    if (!u.isConcrete()) {
      auto r = t->isa->relocation(u);
      errs.push_back({u.where, "'" + u.source + "' depends on '" + (r ? r->value.symbol : std::string("?")) +
                                   "', which has no concrete address (give it with --sym)"});
    }
  }
  for (const auto& d : errs) std::cerr << d.str() << "\n";
  if (!errs.empty()) return 2;
  std::ostringstream out;
  bool stream = byteStream(*t);
  if (a.format == "hex") {
    for (const Unit& u : assembly.units) out << (stream ? bytesHex(memoryBytes(u, *t), " ") : unitHex(u)) << "\n";
  } else if (a.format == "c") {
    out << "/* " << opt.target.str() << " */\n";
    for (const Unit& u : assembly.units) {
      if (stream) out << "0x" << bytesHex(memoryBytes(u, *t), ", 0x") << ",  /* " << u.source << " */\n";
      else out << "0x" << unitHex(u) << (u.bytes > 4 ? "ull" : "") << ",  /* " << u.source << " */\n";
    }
  } else if (a.format == "json") {
    nlohmann::json j;
    j["target"] = opt.target.str();
    j["words"] = nlohmann::json::array();
    for (const Unit& u : assembly.units) {
      uint64_t addr = uint64_t(u.address.addend);
      std::vector<uint8_t> bytes = memoryBytes(u, *t);
      j["words"].push_back({{"address", addr},
                            {"word", stream ? bytesHex(bytes, "") : "0x" + unitHex(u)},
                            {"bytes", u.bytes},
                            {"text", stream ? t->isa->disassembleBytes(bytes, addr, *t)
                                            : t->isa->disassemble(u.bits, u.bytes, addr, *t)},
                            {"source", u.source},
                            {"line", u.where.line}});
    }
    out << j.dump(2) << "\n";
  } else {  // bin: the bytes as the target's memory holds them (arm64: instructions little-endian)
    for (const Unit& u : assembly.units)
      for (uint8_t b : memoryBytes(u, *t)) out.put(char(b));
  }
  if (a.output.empty()) {
    std::cout << out.str();
  } else if (auto err = writeFileAtomically(a.output, out.str())) {
    std::cerr << *err << "\n";
    return 2;
  }
  return 0;
}

}  // namespace

void addAsmCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<AsmArgs>();
  CLI::App* cmd = app.add_subcommand("asm", "Assemble GNU-syntax assembly to instruction words and data units");
  args->target.addTo(*cmd);
  cmd->add_option("--sym", args->syms, "NAME=ADDRESS, a symbol's concrete address");
  cmd->add_option("--base", args->base, "address of the first word (default 0)");
  cmd->add_option("--format", args->format, "hex | c | json | bin")
      ->check(CLI::IsMember({"hex", "c", "json", "bin"}));
  cmd->add_option("-o,--output", args->output, "write here (atomically) instead of stdout");
  cmd->add_flag("--allow-unpredictable", args->allowUnpredictable,
                "accept UNPREDICTABLE encodings (jalr rd == rs, CTI in a delay slot)");
  cmd->add_option("file", args->file, "assembly file, or - for stdin")->required();
  cmd->callback([args, &exitCode] { exitCode = runAsm(*args); });
}

}  // namespace patchcheck
