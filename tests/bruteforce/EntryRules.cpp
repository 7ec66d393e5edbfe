#include "tests/bruteforce/EntryRules.h"

#include "checker/explore/Trampolines.h"
#include "checker/spec/ContractFile.h"
#include "encoder/mips/Registers.h"

namespace bruteforce {

std::variant<std::vector<EntryRule>, std::string> entryRules(const patchcheck::Spec& s, const mips::Target& t) {
  std::vector<EntryRule> out;
  for (const auto& [symbol, path] : s.trampolines) {
    auto files = patchcheck::resolveTrampoline(s, path, t);
    if (!files) return "no trampoline file for " + symbol;
    auto loaded = patchcheck::loadContractFile(files->contract);
    if (auto* e = std::get_if<patchcheck::Diagnostics>(&loaded)) return e->empty() ? "?" : e->front().str();
    for (const auto& k : std::get<patchcheck::ContractFile>(loaded).entries) {
      auto reg = [&](const std::string& name) -> unsigned {
        auto r = mips::parseGpr(name, t.abi);
        return r ? *r : 0;
      };
      EntryRule e;
      e.callee = symbol;
      e.offset = k.entryOffset;
      e.key = k.entryOffset ? symbol + "+" + std::to_string(k.entryOffset) : symbol;
      e.resume = reg(k.resume);
      if (k.savedRa) e.savedRa = reg(*k.savedRa);
      e.stackAdjust = k.stackAdjust;
      for (const std::string& c : k.clobbers) e.clobbers.push_back(reg(c));
      out.push_back(e);
    }
  }
  return out;
}

}  // namespace bruteforce
