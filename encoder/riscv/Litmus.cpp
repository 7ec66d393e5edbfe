#include "encoder/riscv/Litmus.h"

#include <string>

#include "encoder/riscv/Plugin.h"
#include "encoder/riscv/Registers.h"

namespace patchcheck::riscv {
namespace {

// The variant litmus code is assembled for: rv64ima, without C, so that
// GNU as emits no compressed instruction and every line is one 4-byte
// word, which is what the runner fetches (checker/litmus).
constexpr uint8_t kRv64ima = 1;

class RiscvLitmus final : public LitmusDialect {
 public:
  Target target() const override { return Target{&plugin(), kRv64ima, 0, Endian::Little}; }

  // x0-x31 or the psABI names (t0, a1, s0, fp), as GNU as reads them; a
  // final state names the register by its psABI name. x0 is no register a
  // test may set or observe.
  std::optional<LitmusRegister> registerNamed(std::string_view w) const override {
    std::optional<unsigned> r = parseGpr(w);
    if (!r || *r == 0) return std::nullopt;
    return LitmusRegister{std::string(gprName(*r)), "x" + std::to_string(*r)};
  }
  std::string_view registerSyntax() const override { return "x1-x31 or a psABI name (ra, sp, t0, a0, s0, ...)"; }

  // herd7's RISC-V tests write every instruction value as instr:"...".
  bool bareInstruction(std::string_view) const override { return false; }

  // Ziccif without Ziccid: what the RVA20 and RVA22 profiles promise, and
  // the weaker of the two models (`litmus --fetch ziccid` for the other).
  std::string_view fetchModel() const override { return "ziccif"; }
};

}  // namespace

const LitmusDialect& litmusDialect() {
  static const RiscvLitmus dialect;
  return dialect;
}

}  // namespace patchcheck::riscv
