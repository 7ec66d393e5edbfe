#include "checker/explore/SideEffects.h"

namespace patchcheck {

std::optional<std::string> forbiddenEffect(const mips::SideEffect& e, const std::set<mips::EffectKind>& allowed) {
  using K = mips::EffectKind;
  switch (e.kind) {
    case K::Barrier:
    case K::Cp0Read:
    case K::Eret:  // a fault of its own (FaultKind::Eret)
      return std::nullopt;
    default:
      break;
  }
  if (allowed.count(e.kind)) return std::nullopt;
  return "privileged side effect: '" + e.what + "' (" + std::string(mips::name(e.kind)) +
         "); allow it with [site] allow_effects = [\"" + std::string(mips::name(e.kind)) + "\"]";
}

}  // namespace patchcheck
