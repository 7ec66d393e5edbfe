// `patchcheck disasm`: words to GNU-syntax text.
#include <fstream>
#include <iostream>
#include <iterator>
#include <span>

#include "checker/cli/Commands.h"
#include "checker/cli/TargetOptions.h"
#include "checker/cli/Input.h"
#include "encoder/Isa.h"

namespace patchcheck {
namespace {

struct DisasmArgs {
  TargetOptions target;
  std::string base = "0";
  std::string file;
  std::vector<std::string> words;
};

// A byte-stream ISA (x86: patch units of one byte): the bytes decode one
// instruction at a time, each as long as the plug-in finds it; bytes that
// begin no instruction print as (bad), one at a time.
int disasmStream(const Target& t, uint64_t addr, const std::string& fileBytes, const std::vector<std::string>& args) {
  std::vector<uint8_t> bytes(fileBytes.begin(), fileBytes.end());
  for (size_t i = 0; i < args.size(); ++i) {
    std::string s = args[i];
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s = s.substr(2);
    bool ok = !s.empty() && s.size() % 2 == 0 && s.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    if (!ok) {
      std::cerr << "<command line>:1:" << i + 1 << ": error: '" << args[i] << "' is not bytes in hex (0f1f440000)\n";
      return 2;
    }
    for (size_t k = 0; k < s.size(); k += 2) bytes.push_back(uint8_t(std::stoul(s.substr(k, 2), nullptr, 16)));
  }
  if (bytes.empty()) {
    std::cerr << "<command line>: error: give bytes or --file\n";
    return 2;
  }
  for (size_t at = 0; at < bytes.size();) {
    std::span<const uint8_t> rest(bytes.data() + at, bytes.size() - at);
    IsaPlugin::Length len = t.isa->instructionLength(rest, {}, t);
    bool known = len.kind == IsaPlugin::Length::Known;
    size_t n = known ? len.bytes : len.kind == IsaPlugin::Length::NeedMore ? rest.size() : 1;
    std::string raw, text = known ? t.isa->disassembleBytes(rest.subspan(0, n), addr, t) : "(bad)";
    char buf[8];
    for (size_t k = 0; k < n; ++k) snprintf(buf, sizeof buf, "%s%02x", k ? " " : "", rest[k]), raw += buf;
    for (char& c : text)
      if (c == '\t') c = ' ';
    char head[40];
    snprintf(head, sizeof head, "%016llx: ", (unsigned long long)addr);
    std::cout << head << raw << std::string(raw.size() < 21 ? 21 - raw.size() : 1, ' ') << text << "\n";
    at += n, addr += n;
  }
  return 0;
}

int runDisasm(const DisasmArgs& a) {
  auto target = commandTarget(a.target);
  if (!target) return 2;
  const Target& t = *target;
  auto base = parseAddress(a.base);
  if (!base) {
    std::cerr << "<command line>: error: --base '" << a.base << "' is not an address\n";
    return 2;
  }
  if (t.isa->patchUnitBytes(t) == 1) {
    std::string bytes;
    if (!a.file.empty()) {
      std::ifstream in(a.file, std::ios::binary);
      if (!in) {
        std::cerr << a.file << ": error: cannot read file\n";
        return 2;
      }
      bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    return disasmStream(t, *base, bytes, a.words);
  }
  std::vector<uint32_t> words;
  if (!a.file.empty()) {
    std::ifstream in(a.file, std::ios::binary);
    if (!in) {
      std::cerr << a.file << ": error: cannot read file\n";
      return 2;
    }
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    if (bytes.size() % 4) {
      std::cerr << a.file << ": error: " << bytes.size() << " bytes is not a whole number of words\n";
      return 2;
    }
    Endian order = t.isa->instructionByteOrder(t);  // arm64: little, whatever the data's
    for (size_t i = 0; i < bytes.size(); i += 4) {
      uint32_t w = 0;
      for (int k = 0; k < 4; ++k) {
        uint32_t b = uint8_t(bytes[i + k]);
        w |= order == Endian::Big ? b << (24 - 8 * k) : b << (8 * k);
      }
      words.push_back(w);
    }
  }
  for (size_t i = 0; i < a.words.size(); ++i) {
    std::string s = a.words[i];
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s = s.substr(2);
    bool ok = !s.empty() && s.size() <= 8 && s.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
    if (!ok) {
      std::cerr << "<command line>:1:" << i + 1 << ": error: '" << a.words[i]
                << "' is not a 32-bit hex word\n";
      return 2;
    }
    words.push_back(uint32_t(std::stoul(s, nullptr, 16)));
  }
  if (words.empty()) {
    std::cerr << "<command line>: error: give words or --file\n";
    return 2;
  }
  uint64_t addr = *base;
  for (uint32_t w : words) {
    char head[64];
    if (t.wide()) snprintf(head, sizeof head, "%016llx: %08x  ", (unsigned long long)addr, w);
    else snprintf(head, sizeof head, "%08llx: %08x  ", (unsigned long long)(addr & 0xffffffff), w);
    std::string text = t.isa->disassemble(w, 4, addr, t);
    for (char& c : text)
      if (c == '\t') c = ' ';
    std::cout << head << text << "\n";
    addr += 4;
  }
  return 0;
}

}  // namespace

void addDisasmCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<DisasmArgs>();
  CLI::App* cmd = app.add_subcommand("disasm", "Disassemble instruction words (x86: bytes)");
  args->target.addTo(*cmd);
  cmd->add_option("--base", args->base, "address of the first word (default 0)");
  cmd->add_option("--file", args->file, "raw binary file of instructions in their byte order (the target's; arm64: little)");
  cmd->add_option("words", args->words, "32-bit words in hex (x86: bytes in hex, in memory order)");
  cmd->callback([args, &exitCode] { exitCode = runDisasm(*args); });
}

}  // namespace patchcheck
