#pragma once
// The bytes of a site, relative to F: patch units of a given offset and
// length, the site's own units first, then F's declared body units after
// them. The writer replaces whole units; a fetch reads one. Addresses in
// the core are byte offsets from F; no unit length is assumed (MIPS: 4-byte
// words from F, as IsaPlugin::patchUnitBytes says).
#include <cstdint>
#include <optional>
#include <vector>

namespace patchcheck {

struct PatchUnit {
  int64_t offset = 0;   // from F
  unsigned length = 0;  // bytes
};

class SiteLayout {
 public:
  SiteLayout() = default;
  // `siteUnits` site units of `unitBytes` each from F, then `bodyUnits` more.
  static SiteLayout consecutive(unsigned siteUnits, unsigned bodyUnits, unsigned unitBytes);
  // Any units, in address order (data before F has negative offsets); the
  // first `siteUnits` are the site's, the rest the body's.
  static SiteLayout of(std::vector<PatchUnit> units, unsigned siteUnits);

  const std::vector<PatchUnit>& units() const { return units_; }
  unsigned size() const { return unsigned(units_.size()); }
  unsigned siteUnits() const { return siteUnits_; }
  int64_t start() const;       // the first byte
  int64_t end() const;         // one past the last byte
  int64_t bodyOffset() const;  // where F's body starts: its first unit, or the end
  // The unit that starts `offset` bytes from F.
  std::optional<unsigned> unitAt(int64_t offset) const;
  // Offset of unit i; i == size() is the end.
  int64_t offsetOf(unsigned i) const { return i < units_.size() ? units_[i].offset : end(); }
  // The I-cache line of each unit (of its first byte) with F at `f`,
  // numbered from the line of the first unit.
  std::vector<unsigned> cacheLines(uint64_t f, unsigned lineBytes) const;

 private:
  std::vector<PatchUnit> units_;
  unsigned siteUnits_ = 0;
};

}  // namespace patchcheck
