// fetch = "ziccid": RISC-V with Ziccid (and so Ziccif), docs/model.md
// "The RISC-V fetch models". A hart's fetches are reads in the global
// memory order, in program order with each other, so they are coherent
// and see the writer's stores in the order its fences give (fence w,w:
// the second store is visible to no fetch before the first); every store
// becomes visible to every fetch eventually, without FENCE.I. Ziccif makes
// an aligned 4-byte fetch atomic: one version per site word.
#include "checker/fetch/RiscvSteps.h"
#include "checker/spec/FetchRules.h"

namespace patchcheck::fetch {
namespace {

class ZiccidRules final : public FetchRules {
 public:
  std::string_view name() const override { return "ziccid"; }
  std::string_view description() const override { return "the RISC-V Ziccid model"; }
  bool takesStep(std::string_view v) const override { return riscv::takesStep(v); }
  std::span<const OwnStep> ownSteps() const override { return riscv::ownSteps(); }
  std::string_view stepUsage() const override { return riscv::kStepUsage; }
  std::string refusal(std::string_view v) const override { return riscv::refusal(v); }
  std::string_view stepOwner() const override { return "a RISC-V step"; }
  std::string_view fullBarrier() const override { return "flush_icache_all"; }
  LitmusFetch litmusFetch() const override { return LitmusFetch::Memory; }
  // Only flush_icache_all forces a write on every later fetch. `fence w,o`
  // then `ipi` would too (the Ziccid chapter says so), but the model does
  // not count it: fewer forced writes allow more executions, never fewer.
  // Under stop_machine too: the manual promises visibility eventually, not
  // when the CPUs leave the rendezvous.
  Forced forcedBy(bool) const override { return Forced::Flushed; }
  // Eventually visible to every fetch: the write being done settles it.
  Settled settledBy(const ModelSpec&) const override { return Settled::Done; }
  std::string publishingSteps(const ModelSpec&, const std::string& i) const override {
    return "`write " + i + "`";  // the write itself: Ziccid's eventuality
  }
  // Ziccif: aligned fetches of up to min(ILEN, XLEN) bits are atomic, in
  // chunks of M = 4 bytes (32-bit ILEN).
  unsigned atomicFetchBytes() const override { return 4; }
  std::string synchronisingSteps() const override { return "`flush_icache_all` or `ipi`"; }
};

}  // namespace

const FetchRules& Ziccid() {
  static const ZiccidRules rules{};
  return rules;
}

}  // namespace patchcheck::fetch
