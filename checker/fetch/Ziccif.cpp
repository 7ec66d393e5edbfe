// fetch = "ziccif": RISC-V with Ziccif and Zifencei, without Ziccid
// (docs/model.md "The RISC-V fetch models"). Zifencei: a store need not
// reach a hart's instruction fetches until that hart runs FENCE.I, which
// makes its later fetches see every store already visible to it; another
// hart's store is made visible by a data FENCE before asking every hart to
// run FENCE.I. Nothing orders two fetches with each other, so a fetch may
// return any version at or above the floor the last such request left.
// Ziccif makes an aligned 4-byte fetch atomic: one version per site word.
#include "checker/fetch/RiscvSteps.h"
#include "checker/spec/FetchRules.h"
#include "checker/spec/Spec.h"

namespace patchcheck::fetch {
namespace {

class ZiccifRules final : public FetchRules {
 public:
  std::string_view name() const override { return "ziccif"; }
  std::string_view description() const override { return "the RISC-V Ziccif model (no Ziccid)"; }
  bool takesStep(std::string_view v) const override { return riscv::takesStep(v); }
  std::span<const OwnStep> ownSteps() const override { return riscv::ownSteps(); }
  std::string_view stepUsage() const override { return riscv::kStepUsage; }
  std::string refusal(std::string_view v) const override { return riscv::refusal(v); }
  std::string_view stepOwner() const override { return "a RISC-V step"; }
  std::string_view fullBarrier() const override { return "flush_icache_all"; }
  LitmusFetch litmusFetch() const override { return LitmusFetch::Memory; }
  // What every fetch from then on must see: what a remote FENCE.I made
  // visible. Whether a fetch may return a version is the floor's question
  // (this model is not coherent); the visible set is the loads'.
  Forced forcedBy(bool) const override { return Forced::Flushed; }
  // Zifencei gives no order between two fetches of one hart: a fetch may
  // return a version older than one the same pass fetched before.
  bool coherent(const ModelSpec&) const override { return false; }
  Settled settledBy(const ModelSpec&) const override { return Settled::Floor; }
  std::string publishingSteps(const ModelSpec&, const std::string&) const override {
    return "`flush_icache_all` (or `fence w,o`, `ipi`)";
  }
  // Ziccif: aligned fetches of up to min(ILEN, XLEN) bits are atomic, in
  // chunks of M = 4 bytes (32-bit ILEN).
  unsigned atomicFetchBytes() const override { return 4; }
  std::string synchronisingSteps() const override { return "`flush_icache_all` or `ipi`"; }
  std::vector<std::vector<unsigned>> floors(const Timeline& tl, const ModelSpec&) const override {
    return riscv::remoteFenceFloors(tl);
  }
  std::vector<std::vector<unsigned>> ownFloors(const Timeline& tl, const ModelSpec&) const override {
    return riscv::remoteFenceFloors(tl, true);
  }
};

}  // namespace

const FetchRules& Ziccif() {
  static const ZiccifRules rules{};
  return rules;
}

}  // namespace patchcheck::fetch
