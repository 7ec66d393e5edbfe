#include "checker/explore/SideEffects.h"

namespace patchcheck {

std::optional<std::string> forbiddenEffect(const SideEffect& e, const std::set<EffectKind>& allowed) {
  using K = EffectKind;
  switch (e.kind) {
    case K::Barrier:
    case K::SystemRead:
    case K::ExceptionReturn:  // a fault of its own (FaultKind::Eret)
      return std::nullopt;
    default:
      break;
  }
  if (allowed.count(e.kind)) return std::nullopt;
  std::string what = "privileged side effect: '" + e.what + "' (" + std::string(name(e.kind)) + ")";
  for (EffectKind k : kAllowableEffects)
    if (k == e.kind) return what + "; allow it with [site] allow_effects = [\"" + std::string(name(k)) + "\"]";
  return what + ": no [site] allow_effects name covers it (the model cannot tell what it changes)";
}

}  // namespace patchcheck
