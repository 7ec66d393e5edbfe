#pragma once
// The Arm rules for making a written instruction the one every later fetch
// sees (docs/model.md "The Arm fetch model"), as a machine over the
// maintenance the CPUs do: DC CVAU cleans a location's data to the point
// of unification, IC IVAU invalidates its instruction-cache copies on
// every CPU, and a DSB completes what its CPU issued before it. The
// result is a *floor* per location: the oldest version any fetch may
// still return. `check` runs the writer's steps through it, `litmus`
// every thread's instructions.
#include <map>
#include <string>
#include <vector>

#include "checker/spec/Spec.h"

namespace patchcheck {

class CacheMaintenance {
 public:
  explicit CacheMaintenance(CacheType c) : type_(c) {}

  // DC CVAU by `cpu` of a location whose newest version in memory (after
  // the cpu's own earlier stores to it) is `version`.
  void clean(unsigned cpu, unsigned location, unsigned version);
  // IC IVAU by `cpu`; `inMemory` is the location's newest version that has
  // reached memory (what a refill reads when IDC makes cleaning moot).
  void invalidate(unsigned cpu, unsigned location, unsigned inMemory);
  // DSB by `cpu`: its cleans, then its invalidations, complete.
  void barrier(unsigned cpu);
  // A DMB by `cpu` orders its cleans so far before its later stores: once
  // one of those (the `fence`-th barrier's) is seen in memory, they are done.
  void release(unsigned cpu, unsigned fence);
  void storeSeen(unsigned cpu, unsigned fence);

  // The oldest version a fetch of `location` may return from now on. With
  // DIC = 1 fetches are coherent with data and the caller reads memory.
  unsigned floor(unsigned location) const;
  CacheType type() const { return type_; }
  bool operator==(const CacheMaintenance&) const = default;
  // Appends the state, for a search's memo of states seen.
  void appendKey(std::string&) const;

 private:
  struct Pending {
    unsigned location, version;
    unsigned release = 0;  // a clean: the barrier after it, 0 if none yet
    bool operator==(const Pending&) const = default;
  };
  CacheType type_;
  std::map<unsigned, unsigned> cleaned_, floor_;                       // per location
  std::map<unsigned, std::vector<Pending>> cleaning_, invalidating_;  // per cpu, until its DSB
};

}  // namespace patchcheck
