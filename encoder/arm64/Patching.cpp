#include "encoder/arm64/Patching.h"

#include "encoder/arm64/Cmodx.h"

namespace patchcheck::arm64 {
namespace {

// Arm ARM B2.2.5: old and new instruction must both be on the CMODX list;
// B.cond, CBZ/CBNZ and TBZ/TBNZ may be fetched with the fields of either.
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

 private:
  std::function<bool(const Unit&)> isInstruction_;
};

}  // namespace

std::unique_ptr<const IsaPatching> cmodxPatching(std::function<bool(const Unit&)> isInstruction) {
  return std::make_unique<CmodxPatching>(std::move(isInstruction));
}

}  // namespace patchcheck::arm64
