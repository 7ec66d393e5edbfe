#include "encoder/IsaRegistry.h"

#include <algorithm>

// One `PATCHCHECK_ISA(name)` line per plug-in folder, written by CMake.
#define PATCHCHECK_ISA(ns) \
  namespace patchcheck::ns { const ::patchcheck::IsaPlugin& plugin(); }
#include "IsaPlugins.inc"
#undef PATCHCHECK_ISA

namespace patchcheck {

std::span<const IsaPlugin* const> isas() {
#define PATCHCHECK_ISA(ns) &ns::plugin(),
  static const IsaPlugin* const all[] = {
#include "IsaPlugins.inc"
  };
#undef PATCHCHECK_ISA
  return all;
}

std::optional<Target> targetNamed(std::string_view variant) {
  for (const IsaPlugin* isa : isas()) {
    auto vs = isa->variants();
    auto it = std::find(vs.begin(), vs.end(), variant);
    if (it == vs.end()) continue;
    auto v = uint8_t(it - vs.begin());
    return Target{isa, v, isa->defaultAbi(v), isa->defaultEndian()};
  }
  return std::nullopt;
}

std::optional<uint8_t> abiNamed(const Target& t, std::string_view abi) {
  auto as = t.isa->abis();
  auto it = std::find(as.begin(), as.end(), abi);
  if (it == as.end()) return std::nullopt;
  return uint8_t(it - as.begin());
}

std::vector<std::string> variantNames() {
  std::vector<std::string> out;
  for (const IsaPlugin* isa : isas())
    for (std::string_view v : isa->variants()) out.emplace_back(v);
  return out;
}

std::vector<std::string> abiNames() {
  std::vector<std::string> out;
  for (const IsaPlugin* isa : isas())
    for (std::string_view a : isa->abis())
      if (std::find(out.begin(), out.end(), a) == out.end()) out.emplace_back(a);
  return out;
}

const IsaPlugin* isaOfLitmusArchitecture(std::string_view word) {
  for (const IsaPlugin* isa : isas())
    if (!word.empty() && isa->litmusArchitecture() == word) return isa;
  return nullptr;
}

Target defaultTarget() {
  // The spec format's default (docs/spec-format.md), whatever plug-ins the
  // build has and in whatever order their folders sort.
  if (auto t = targetNamed("mips64r2")) return *t;
  const IsaPlugin* isa = isas().front();
  return *targetNamed(isa->variants()[isa->defaultVariant()]);
}

}  // namespace patchcheck
