#include "encoder/x86_64/NearReach.h"

namespace patchcheck::x86_64 {

std::optional<NearDisplacement> nearDisplacement(const Value& at, const Value& target, const AssemblyOptions& o) {
  if (target.isConstant()) return std::nullopt;
  // The offset of `far` from `base` is bounded by a fact between them:
  // far near base, or base near far (the bound is a distance).
  auto fact = [&](const std::string& far, const std::string& base) -> const AssemblyOptions::Near* {
    if (auto it = o.near.find(far); it != o.near.end() && it->second.anchor == base) return &it->second;
    if (auto it = o.near.find(base); it != o.near.end() && it->second.anchor == far) return &it->second;
    return nullptr;
  };
  __int128 centre = 0;  // the displacement where target's symbol == the anchor
  const AssemblyOptions::Near* n = nullptr;
  if (!at.isConstant()) {
    n = fact(target.symbol, at.symbol);
    centre = __int128(target.addend) - at.addend - 2;
  } else {
    // A function at a concrete address: the target is near that symbol.
    auto it = o.near.find(target.symbol);
    if (it == o.near.end()) return std::nullopt;
    auto anchor = o.symbols.find(it->second.anchor);
    if (anchor == o.symbols.end()) return std::nullopt;
    n = &it->second;
    centre = __int128(anchor->second) + target.addend - __int128(uint64_t(at.addend)) - 2;
  }
  if (!n) return std::nullopt;
  return NearDisplacement{centre - n->within, centre + n->within, target.symbol, n->anchor, n->within};
}

}  // namespace patchcheck::x86_64
