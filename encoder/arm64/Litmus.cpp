#include "encoder/arm64/Litmus.h"

#include <algorithm>
#include <string>

#include "encoder/arm64/Plugin.h"

namespace patchcheck::arm64 {
namespace {

// herd7's AArch64 parser lets these stand bare for their encoding in a
// value (`0:X0=NOP`), any case; any other instruction is instr:"...".
constexpr std::string_view kBareInstructions[] = {"NOP", "ISB", "RET", "ERET", "WFE", "WFI", "SEV", "SEVL", "YIELD"};

bool isDigit(char c) { return c >= '0' && c <= '9'; }

char upper(char c) { return c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c; }

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return upper(x) == upper(y); });
}

class AArch64Litmus final : public LitmusDialect {
 public:
  Target target() const override { return Target{&plugin(), 0, 0, Endian::Little}; }

  // X0-X30 and W0-W30 in any case, without leading zeros: the registers a
  // test initialises and observes (xzr, sp and lr are not herd7 names).
  std::optional<LitmusRegister> registerNamed(std::string_view w) const override {
    if (w.size() < 2 || w.size() > 3 || std::string_view("XxWw").find(w[0]) == std::string_view::npos ||
        !std::all_of(w.begin() + 1, w.end(), isDigit) || (w.size() == 3 && w[1] == '0'))
      return std::nullopt;
    unsigned n = unsigned(std::stoul(std::string(w.substr(1))));
    if (n > 30) return std::nullopt;
    return LitmusRegister{"X" + std::to_string(n), "x" + std::to_string(n)};
  }
  std::string_view registerSyntax() const override { return "X0-X30 or W0-W30"; }

  bool bareInstruction(std::string_view word) const override {
    return std::any_of(std::begin(kBareInstructions), std::end(kBareInstructions),
                       [&](std::string_view i) { return equalsIgnoringCase(i, word); });
  }

  // herd7 runs the catalogue's aarch64-ifetch tests with -variant ifetch:
  // the Arm ARM's rules for instruction fetch (B2.2.5, cache maintenance
  // and CTR_EL0.{DIC,IDC}), which `check` calls the "arm" fetch model.
  std::string_view fetchModel() const override { return "arm"; }
};

}  // namespace

const LitmusDialect& litmusDialect() {
  static const AArch64Litmus dialect;
  return dialect;
}

}  // namespace patchcheck::arm64
