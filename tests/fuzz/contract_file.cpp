// Trampoline contract files (docs/trampolines.md) on arbitrary text.
// Properties: a rejection points at a line of the input; the same text
// loads to the same contract every time; every entry of an accepted file
// has its location and belongs to the file's symbol.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "checker/spec/ContractFile.h"
#include "tests/fuzz/FuzzProperty.h"

using namespace patchcheck;

namespace {

void put(std::ostream& o, const SourceLocation& w) { o << '@' << w.file << ':' << w.line << ':' << w.column << ' '; }

std::string dump(const ContractFile& c) {
  std::ostringstream o;
  o << c.path << ' ' << c.symbol << '\n';
  for (const auto& i : c.isas) o << i << ' ';
  for (const auto& a : c.abis) o << a << ' ';
  put(o, c.ipWhere);
  for (const TrampolineContract& e : c.entries) {
    o << '\n' << e.key() << ' ' << e.resume << ' ' << e.savedRa.value_or("-") << ' ' << e.stackAdjust << ' ';
    for (const auto& r : e.clobbers) o << r << ',';
    if (e.mode) o << " mode " << e.mode->reg << e.mode->regs << '/' << e.mode->noregs;
    o << " cb " << e.callback.symbol << ' ' << e.callback.ops.value_or("-") << e.callback.regs;
    for (const auto& [r, off] : e.callback.ipOffset) o << r << '+' << off << ' ';
    for (const auto& [r, off] : e.callback.ptRegs) o << r << '@' << off << ' ';
  }
  for (const auto& w : c.entryWhere) put(o, w);
  for (const ContractSymbol& s : c.symbols) {
    o << '\n' << s.name << '=' << (s.value ? std::to_string(*s.value) : "?") << s.region << '/' << s.align << ' '
      << s.regionStart << ' ' << s.regionEnd;
    put(o, s.where);
  }
  return o.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string path = "fuzz_contract.toml";
  auto first = parseContractFile(text, path);
  auto second = parseContractFile(text, path);
  fuzz::require(first.index() == second.index(), "the same text is accepted or rejected every time");
  if (auto* e = std::get_if<Diagnostics>(&first)) {
    fuzz::requireLocated(*e, path, text);
    return 0;
  }
  const ContractFile& c = std::get<ContractFile>(first);
  fuzz::require(dump(c) == dump(std::get<ContractFile>(second)), "the same text loads to the same contract");
  fuzz::require(c.entryWhere.size() == c.entries.size(), "every entry has its location");
  for (size_t i = 0; i < c.entries.size(); ++i) {
    fuzz::require(c.entries[i].symbol == c.symbol, "every entry is of the file's symbol", c.entries[i].key());
    fuzz::require(c.entryWhere[i].line >= 1, "an entry's location has a line", c.entries[i].key());
  }
  return 0;
}
