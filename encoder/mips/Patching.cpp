#include "encoder/mips/Patching.h"

#include "encoder/mips/Kprobes.h"

namespace patchcheck::mips {
namespace {

// kprobes plant `break 0, 515` (arch_arm_kprobe: a plain store, then
// flush_icache_range over the word) and run the probed word as
// arch_prepare_kprobe and prepare_singlestep say (encoder/mips/Kprobes.cpp).
class KprobePatching final : public IsaPatching {
 public:
  explicit KprobePatching(std::function<const InstrDesc*(const Unit&)> descOf) : descOf_(std::move(descOf)) {}

  std::optional<std::string_view> probeBreakpoint() const override { return "break 0, 515"; }
  // A break whose code do_bp reads as 515: Linux's word and GNU as's
  // `break 515` alike go to kprobe_handler, which finds the probe by address.
  bool isProbeBreakpoint(const Unit& u) const override {
    return u.bytes == 4 && u.isConcrete() && (uint32_t(u.bits) & 0xfc00003f) == 0x0d &&
           doBpCode(uint32_t(u.bits)) == kKprobeBreakCode;
  }
  KprobeRun kprobeRun(const Unit& insn) const override { return kprobeRunAfter(insn, nullptr); }
  KprobeRun kprobeRunAfter(const Unit& insn, const Unit* previous) const override {
    std::optional<uint32_t> before;
    if (previous) before = uint32_t(previous->bits);
    return mips::kprobeRun(descOf_(insn), uint32_t(insn.bits), before);
  }
  // kprobe_handler tests SKIP_DELAYSLOT in the per-CPU kprobe_ctlblk
  // after prepare_singlestep, which writes the flag only for a branch
  // (evaluate_branch_instruction): an earlier branch probe on this CPU
  // whose delay slot is a nop leaves it set, and the handler then resumes
  // past a probed non-branch without stepping it.
  std::optional<std::string> kprobeMaySkip() const override {
    return "the kprobe handler skips the probed instruction: SKIP_DELAYSLOT, left set in this CPU's kprobe_ctlblk "
           "by an earlier branch probe with a nop in its delay slot, is tested for every probe but written only "
           "for branches (arch/mips/kernel/kprobes.c, kprobe_handler)";
  }
  // do_bp reads the word at EPC back and dispatches on its break code
  // (arch/mips/kernel/traps.c): any word whose bits 25..6 give 515.
  bool probeTrapRereads() const override { return true; }
  bool probeTrapWord(const Unit& word) const override {
    return word.bytes == 4 && word.isConcrete() && doBpCode(uint32_t(word.bits)) == kKprobeBreakCode;
  }

 private:
  std::function<const InstrDesc*(const Unit&)> descOf_;
};

}  // namespace

std::unique_ptr<const IsaPatching> kprobePatching(std::function<const InstrDesc*(const Unit&)> descOf) {
  return std::make_unique<KprobePatching>(std::move(descOf));
}

}  // namespace patchcheck::mips
