#include "checker/explore/CacheMaintenance.h"

#include <algorithm>

namespace patchcheck {

namespace {
void raise(std::map<unsigned, unsigned>& m, unsigned location, unsigned version) {
  unsigned& v = m[location];
  v = std::max(v, version);
}
}  // namespace

void CacheMaintenance::clean(unsigned cpu, unsigned location, unsigned version) {
  cleaning_[cpu].push_back({location, version});
}

// What the invalidation makes the floor is fixed when it is issued (the
// refill may happen at once): under IDC = 0 only what a completed clean
// put at the point of unification, under IDC = 1 whatever is in memory.
// A clean issued but not completed by a DSB before it does not count.
void CacheMaintenance::invalidate(unsigned cpu, unsigned location, unsigned inMemory) {
  unsigned refill = type_ == CacheType::Dic0Idc0 ? (cleaned_.count(location) ? cleaned_.at(location) : 0) : inMemory;
  invalidating_[cpu].push_back({location, refill});
}

void CacheMaintenance::barrier(unsigned cpu) {
  for (const Pending& p : cleaning_[cpu]) raise(cleaned_, p.location, p.version);
  cleaning_.erase(cpu);
  for (const Pending& p : invalidating_[cpu]) raise(floor_, p.location, p.version);
  invalidating_.erase(cpu);
}

void CacheMaintenance::release(unsigned cpu, unsigned fence) {
  for (Pending& p : cleaning_[cpu])
    if (!p.release) p.release = fence;
}

void CacheMaintenance::storeSeen(unsigned cpu, unsigned fence) {
  auto it = cleaning_.find(cpu);
  if (it == cleaning_.end()) return;
  std::erase_if(it->second, [&](const Pending& p) {
    if (!p.release || p.release > fence) return false;
    raise(cleaned_, p.location, p.version);
    return true;
  });
}

void CacheMaintenance::appendKey(std::string& k) const {
  auto put = [&](unsigned v) { k.append(reinterpret_cast<const char*>(&v), sizeof v); };
  for (const auto* m : {&cleaned_, &floor_}) {
    put(unsigned(m->size()));
    for (const auto& [l, v] : *m) put(l), put(v);
  }
  for (const auto* m : {&cleaning_, &invalidating_}) {
    put(unsigned(m->size()));
    for (const auto& [cpu, list] : *m) {
      put(cpu), put(unsigned(list.size()));
      for (const Pending& p : list) put(p.location), put(p.version), put(p.release);
    }
  }
}

unsigned CacheMaintenance::floor(unsigned location) const {
  auto it = floor_.find(location);
  return it == floor_.end() ? 0 : it->second;
}

}  // namespace patchcheck
