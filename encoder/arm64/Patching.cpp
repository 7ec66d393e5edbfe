#include "encoder/arm64/Patching.h"

#include "encoder/arm64/Cmodx.h"
#include "encoder/arm64/Kprobes.h"

namespace patchcheck::arm64 {
namespace {

// Arm ARM B2.2.5: old and new instruction must both be on the CMODX list;
// B.cond, CBZ/CBNZ and TBZ/TBNZ may be fetched with the fields of either.
// And kprobes.
class CmodxPatching final : public IsaPatching {
 public:
  explicit CmodxPatching(std::function<bool(const Unit&)> isInstruction) : isInstruction_(std::move(isInstruction)) {}

  bool concurrentlyModifiable(const Unit& u) const override {
    return !isInstruction_(u) || cmodxListed(uint32_t(u.bits));
  }
  std::string concurrentModificationList() const override { return cmodxListText(); }
  bool mixesUnderModification(const Unit& u) const override {
    return isInstruction_(u) && cmodxMixes(uint32_t(u.bits));
  }
  std::optional<uint64_t> mixableTargetField(const Unit& a, const Unit& b) const override {
    if (!isInstruction_(a) || !isInstruction_(b)) return std::nullopt;
    return cmodxTargetField(uint32_t(a.bits), uint32_t(b.bits));
  }

  // kprobes plant `brk #0x4` (arch/arm64/kernel/probes/kprobes.c,
  // arch_arm_kprobe) and run the probed word as decode-insn.c says
  // (encoder/arm64/Kprobes.cpp).
  std::optional<std::string_view> probeBreakpoint() const override { return "brk #0x4"; }
  bool isProbeBreakpoint(const Unit& u) const override {
    return u.bytes == 4 && u.isConcrete() && isInstruction_(u) && uint32_t(u.bits) == kKprobeBrk;
  }
  KprobeRun kprobeRun(const Unit& insn) const override {
    if (!isInstruction_(insn)) return {KprobeRun::Refused, "'" + insn.source + "' is data, not an instruction"};
    return arm64::kprobeRun(uint32_t(insn.bits));
  }

 private:
  std::function<bool(const Unit&)> isInstruction_;
};

}  // namespace

std::unique_ptr<const IsaPatching> cmodxPatching(std::function<bool(const Unit&)> isInstruction) {
  return std::make_unique<CmodxPatching>(std::move(isInstruction));
}

}  // namespace patchcheck::arm64
