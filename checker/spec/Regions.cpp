#include "checker/spec/Regions.h"

#include "encoder/Isa.h"

namespace patchcheck {

std::optional<uint64_t> addressFor(uint64_t written, const Target& t) {
  if (t.wide()) return written;
  uint64_t extended = uint64_t(int64_t(int32_t(uint32_t(written))));
  if (written <= 0xffffffffull || written == extended) return extended;
  return std::nullopt;
}

std::vector<RegionSpec> defaultRegions(const Target& t) {
  std::vector<RegionSpec> out;
  for (const AddressRange& r : t.isa->defaultRegions(t)) out.push_back({r.name, r.lo, r.hi, {"<default>", 0, 0}});
  return out;
}

std::vector<RegionSpec> regionsFor(const Spec& spec, const Target& t) {
  std::vector<RegionSpec> out = defaultRegions(t);
  for (const RegionSpec& given : spec.regions) {
    RegionSpec r = given;
    r.lo = addressFor(given.lo, t).value_or(given.lo);
    r.hi = addressFor(given.hi, t).value_or(given.hi);
    bool replaced = false;
    for (RegionSpec& d : out)
      if (d.name == r.name) d = r, replaced = true;
    if (!replaced) out.push_back(r);
  }
  return out;
}

const RegionSpec* findRegion(const std::vector<RegionSpec>& regions, std::string_view name) {
  for (const RegionSpec& r : regions)
    if (r.name == name) return &r;
  return nullptr;
}

std::optional<uint64_t> symbolAddress(const SymbolSpec& s, const Target& t) {
  if (!s.value) return std::nullopt;
  return addressFor(*s.value, t);
}

}  // namespace patchcheck
