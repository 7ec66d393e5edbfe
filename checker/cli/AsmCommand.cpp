// `patchcheck asm`: assemble a file to words.
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "checker/cli/Commands.h"
#include "checker/cli/TargetOptions.h"
#include "checker/report/AtomicFile.h"
#include "encoder/mips/Assembler.h"
#include "encoder/mips/Printer.h"

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

std::string hex8(uint32_t w) {
  char buf[16];
  snprintf(buf, sizeof buf, "%08x", w);
  return buf;
}

int runAsm(const AsmArgs& a) {
  mips::AssemblyOptions opt;
  Target t = a.target.over(defaultTarget());
  if (auto p = t.problem()) {
    std::cerr << "<command line>: error: " << *p << "\n";
    return 2;
  }
  opt.target = t;
  opt.allowUnpredictable = a.allowUnpredictable;
  auto base = parseAddress(a.base);
  if (!base) {
    std::cerr << "<command line>: error: --base '" << a.base << "' is not an address\n";
    return 2;
  }
  opt.base = mips::Value::constant(int64_t(*base));
  for (const std::string& s : a.syms) {
    size_t eq = s.find('=');
    auto v = eq == std::string::npos ? std::nullopt : parseAddress(s.substr(eq + 1));
    if (!v || eq == 0) {
      std::cerr << "<command line>: error: --sym '" << s << "' is not NAME=ADDRESS\n";
      return 2;
    }
    opt.symbols[s.substr(0, eq)] = *v;
  }
  std::string text, name = a.file == "-" ? "<stdin>" : a.file;
  if (a.file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), {});
  } else {
    std::ifstream in(a.file, std::ios::binary);
    if (!in) {
      std::cerr << a.file << ": error: cannot read file\n";
      return 2;
    }
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto assembled = mips::assemble(text, name, opt);
  if (auto* errs = std::get_if<Diagnostics>(&assembled)) {
    for (const auto& d : *errs) std::cerr << d.str() << "\n";
    return 2;
  }
  const auto& assembly = std::get<mips::Assembly>(assembled);
  auto words = mips::concreteWords(assembly);
  if (auto* errs = std::get_if<Diagnostics>(&words)) {
    for (const auto& d : *errs) std::cerr << d.str() << "\n";
    return 2;
  }
  const auto& ws = std::get<std::vector<uint32_t>>(words);
  std::ostringstream out;
  if (a.format == "hex") {
    for (uint32_t w : ws) out << hex8(w) << "\n";
  } else if (a.format == "c") {
    out << "/* " << opt.target.str() << " */\n";
    for (size_t i = 0; i < ws.size(); ++i)
      out << "0x" << hex8(ws[i]) << ",  /* " << assembly.words[i].source << " */\n";
  } else if (a.format == "json") {
    nlohmann::json j;
    j["target"] = opt.target.str();
    j["words"] = nlohmann::json::array();
    for (size_t i = 0; i < ws.size(); ++i) {
      uint64_t addr = uint64_t(assembly.words[i].address.addend);
      j["words"].push_back({{"address", addr},
                            {"word", "0x" + hex8(ws[i])},
                            {"text", mips::disassemble(ws[i], addr, opt.target)},
                            {"source", assembly.words[i].source},
                            {"line", assembly.words[i].where.line}});
    }
    out << j.dump(2) << "\n";
  } else {  // bin: the bytes as the target's memory holds them
    for (uint32_t w : ws)
      for (int i = 0; i < 4; ++i) {
        int shift = opt.target.endian == mips::Endian::Big ? 24 - 8 * i : 8 * i;
        out.put(char((w >> shift) & 0xff));
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
  CLI::App* cmd = app.add_subcommand("asm", "Assemble GNU-syntax MIPS to instruction words");
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
