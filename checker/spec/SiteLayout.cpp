#include "checker/spec/SiteLayout.h"

#include <algorithm>

namespace patchcheck {

SiteLayout SiteLayout::consecutive(unsigned siteUnits, unsigned bodyUnits, unsigned unitBytes) {
  SiteLayout l;
  l.siteUnits_ = siteUnits;
  for (unsigned i = 0; i < siteUnits + bodyUnits; ++i) l.units_.push_back({int64_t(i) * unitBytes, unitBytes});
  return l;
}

SiteLayout SiteLayout::of(std::vector<PatchUnit> units, unsigned siteUnits) {
  SiteLayout l;
  l.units_ = std::move(units);
  l.siteUnits_ = siteUnits;
  return l;
}

int64_t SiteLayout::start() const { return units_.empty() ? 0 : units_.front().offset; }

int64_t SiteLayout::end() const {
  int64_t e = 0;
  for (const PatchUnit& u : units_) e = std::max(e, u.offset + int64_t(u.length));
  return e;
}

int64_t SiteLayout::bodyOffset() const { return offsetOf(siteUnits_); }

std::optional<unsigned> SiteLayout::unitAt(int64_t offset) const {
  for (unsigned i = 0; i < units_.size(); ++i)
    if (units_[i].offset == offset) return i;
  return std::nullopt;
}

std::vector<unsigned> SiteLayout::cacheLines(uint64_t f, unsigned lineBytes) const {
  std::vector<unsigned> lines;
  if (units_.empty()) return lines;
  // Lines are relative: moving F by whole lines changes none, and keeps
  // units before F from wrapping below address 0.
  if (start() < 0) f += (uint64_t(-start()) + lineBytes - 1) / lineBytes * lineBytes;
  uint64_t first = (f + uint64_t(start())) / lineBytes;
  for (const PatchUnit& u : units_) lines.push_back(unsigned((f + uint64_t(u.offset)) / lineBytes - first));
  return lines;
}

}  // namespace patchcheck
