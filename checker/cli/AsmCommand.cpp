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
  if (a.format == "hex") {
    for (const Unit& u : assembly.units) out << unitHex(u) << "\n";
  } else if (a.format == "c") {
    out << "/* " << opt.target.str() << " */\n";
    for (const Unit& u : assembly.units)
      out << "0x" << unitHex(u) << (u.bytes > 4 ? "ull" : "") << ",  /* " << u.source << " */\n";
  } else if (a.format == "json") {
    nlohmann::json j;
    j["target"] = opt.target.str();
    j["words"] = nlohmann::json::array();
    for (const Unit& u : assembly.units) {
      uint64_t addr = uint64_t(u.address.addend);
      j["words"].push_back({{"address", addr},
                            {"word", "0x" + unitHex(u)},
                            {"bytes", u.bytes},
                            {"text", t->isa->disassemble(u.bits, u.bytes, addr, *t)},
                            {"source", u.source},
                            {"line", u.where.line}});
    }
    out << j.dump(2) << "\n";
  } else {  // bin: the bytes as the target's memory holds them (arm64: instructions little-endian)
    for (const Unit& u : assembly.units) {
      bool big = t->isa->byteOrder(u, *t) == Endian::Big;
      for (unsigned i = 0; i < u.bytes; ++i) {
        unsigned shift = big ? 8 * (u.bytes - 1 - i) : 8 * i;
        out.put(char((u.bits >> shift) & 0xff));
      }
    }
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
