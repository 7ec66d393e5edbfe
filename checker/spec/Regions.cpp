#include "checker/spec/Regions.h"

namespace patchcheck {

std::optional<uint64_t> addressFor(uint64_t written, const Target& t) {
  if (t.wide()) return written;
  uint64_t extended = uint64_t(int64_t(int32_t(uint32_t(written))));
  if (written <= 0xffffffffull || written == extended) return extended;
  return std::nullopt;
}

std::vector<RegionSpec> defaultRegions(const Target& t) {
  // Written as a 32-bit target would; addressFor makes them 64-bit. The
  // 64-bit compatibility segments hold the same values.
  RegionSpec kernel{"kernel-text", 0x80000000, 0x9fffffff, {"<default>", 0, 0}};
  RegionSpec modules{"module-text", 0xc0000000, 0xdfffffff, {"<default>", 0, 0}};
  std::vector<RegionSpec> out{kernel, modules};
  for (RegionSpec& r : out) {
    r.lo = uint64_t(int64_t(int32_t(uint32_t(r.lo))));
    r.hi = uint64_t(int64_t(int32_t(uint32_t(r.hi))));
  }
  (void)t;  // the same for every MIPS target today
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
