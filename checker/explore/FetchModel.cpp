#include "checker/explore/FetchModel.h"

#include <algorithm>
#include <map>

namespace patchcheck {

// The floors are the model's (Arm: what the cache maintenance left; x86:
// what the last sync_core serialised); models without one have none.
FetchModel::FetchModel(const Timeline& tl, const ModelSpec& m, When w, std::vector<unsigned> lines)
    : tl_(tl),
      model_(m),
      when_(w),
      lines_(std::move(lines)),
      floors_(w == When::Early ? m.fetch->ownFloors(tl, m) : m.fetch->floors(tl, m)) {}

bool FetchModel::interruptsAnywhere() const {
  if (when_ == When::StopMachine) return model_.preemption;
  if (when_ == When::Early) return false;  // the writer's own CPU: nothing moves it
  return rules().migrationSeesOlderLines() && model_.preemption;
}

// The least observer at `time`. Under sc every write done is visible; under
// weak, so is every write once stop_machine has let CPUs run again; under
// stale only what a flush before `time` forced (stop_machine does not
// invalidate I-cache lines).
Observer FetchModel::atTime(unsigned time, unsigned limit) const {
  Observer o{time, limit, std::vector<bool>(tl_.writes.size(), false)};
  FetchRules::Forced by = rules().forcedBy(when_ == When::Live || when_ == When::Early);
  unsigned forced = by == FetchRules::Forced::Done ? unsigned(std::count_if(tl_.writes.begin(), tl_.writes.end(),
                                                                            [&](const Write& w) { return w.step < time; }))
                    : by == FetchRules::Forced::Completed ? tl_.completedWrites(time)
                                                          : tl_.flushedWrites(time);
  for (unsigned i = 0; i < forced; ++i) o.visible[i] = true;
  close(o);
  return o;
}

std::vector<Observer> FetchModel::starts() const {
  unsigned end = tl_.stepCount;
  if (when_ == When::Boot) return {atTime(end, end)};
  if (when_ == When::StopMachine) {
    // An interrupt on the writer's CPU in an irq_window runs the site in
    // full there, seeing the writes before it as any fetch then may.
    std::vector<Observer> out{atTime(0, 0)};
    for (unsigned w : tl_.irqWindowSteps) out.push_back(atTime(w, w));
    out.push_back(atTime(end, end));
    return out;
  }
  if (when_ == When::Early) {
    // The writer itself runs the site before its steps, where a `run`
    // says, and after them: its time stands still for the pass.
    std::vector<Observer> out{atTime(0, 0)};
    for (unsigned r : tl_.runSteps) out.push_back(atTime(r + 1, r + 1));
    out.push_back(atTime(end, end));
    return out;
  }
  std::vector<Observer> out{atTime(0, tl_.nextWait(0))};
  for (unsigned w : tl_.waitSteps) out.push_back(atTime(w + 1, tl_.nextWait(w + 1)));
  return out;
}

// Closes the visible set: earlier writes to the same unit (coherence); under
// weak every write of an earlier barrier group; under stale the same, but
// only within one I-cache line: a refill copies the whole line from memory,
// where the writer's syncs ordered the writes, while different lines may be
// refilled at different times.
void FetchModel::close(Observer& o) const {
  if (rules().inOrder()) return;  // sc sets are prefixes already
  bool stale = rules().lineGrained();
  std::map<unsigned, unsigned> top;  // line (or everything, under weak) -> highest group seen
  for (size_t i = 0; i < tl_.writes.size(); ++i) {
    if (!o.visible[i]) continue;
    unsigned key = stale ? lineOf(tl_.writes[i].unit) : 0;
    auto [it, fresh] = top.emplace(key, tl_.writes[i].syncGroup);
    if (!fresh) it->second = std::max(it->second, tl_.writes[i].syncGroup);
  }
  for (size_t i = 0; i < tl_.writes.size(); ++i) {
    const Write& w = tl_.writes[i];
    auto it = top.find(stale ? lineOf(w.unit) : 0);
    if (it != top.end() && w.syncGroup < it->second) o.visible[i] = true;
  }
  for (size_t i = 0; i < tl_.writes.size(); ++i) {
    if (!o.visible[i]) continue;
    for (unsigned wi : tl_.byUnit[tl_.writes[i].unit])
      if (tl_.writes[wi].version < tl_.writes[i].version) o.visible[wi] = true;
  }
}

std::optional<Observer> FetchModel::observe(const Observer& o, unsigned unit, unsigned version) const {
  if (unit >= tl_.byUnit.size() || tl_.byUnit[unit].empty()) {
    if (version == 0) return o;  // never written
    return std::nullopt;
  }
  Observer n = o;
  if (version > 0) {
    const Write& w = tl_.writes[tl_.writeOf(unit, version)];
    {
      // A pass ends before the next wait (its limit); under stop_machine
      // and boot the writer's time is fixed for a pass (limit == time).
      n.time = std::max(n.time, w.step + 1);
      if (n.time > n.limit) return std::nullopt;
      // Arm, DIC = 0: fetches need not be coherent (a newer version does
      // not hide an older one), only the floor the cache maintenance left
      // by the fetch's time binds. The visible set still records what
      // reached memory, for the loads after it.
      if (!coherentFetch() && version < floors_[n.time][unit]) return std::nullopt;
      if (rules().inOrder()) {
        for (size_t i = 0; i < tl_.writes.size(); ++i)
          if (tl_.writes[i].step < n.time) n.visible[i] = true;
      } else {
        n.visible[tl_.writeOf(unit, version)] = true;
        Observer forced = atTime(n.time, n.limit);
        for (size_t i = 0; i < n.visible.size(); ++i) n.visible[i] = n.visible[i] || forced.visible[i];
      }
      close(n);
    }
  }
  if (!coherentFetch()) {
    // The least time the fetch could happen at, given the floor.
    if (version == 0 && floors_[n.time][unit] > 0) return std::nullopt;
    return n;
  }
  if (version + 1 < tl_.versions(unit) && n.visible[tl_.writeOf(unit, version + 1)])
    return std::nullopt;
  return n;
}

Observer FetchModel::meet(const Observer& a, const Observer& b) const {
  Observer m{std::min(a.time, b.time), std::max(a.limit, b.limit), a.visible};
  for (size_t i = 0; i < m.visible.size(); ++i) m.visible[i] = a.visible[i] && b.visible[i];
  // Each set is closed under rules of the form "this write visible makes
  // that one visible", so their intersection is too; what the earlier
  // time forces is in both.
  return m;
}

bool FetchModel::stillFetchable(const Observer& o, unsigned unit, unsigned version) const {
  if (!rules().fetchedBetweenSerialisations() || unit >= tl_.byUnit.size()) return true;
  if (version < floors_[o.time][unit]) return false;
  // ... nor postdate the observer's time: a version written later (the
  // first byte's final image, equal to its old one in a call-to-call
  // change) is not what the instruction's other bytes were fetched with.
  return version == 0 || tl_.writes[tl_.writeOf(unit, version)].step < o.time;
}

unsigned FetchModel::oldestLoad(const Observer& o, unsigned unit) const {
  unsigned newest = tl_.versions(unit) - 1;
  if (!rules().fetchOrdersLoads()) {
    for (unsigned v = 0; v < newest; ++v)
      if (observe(o, unit, v)) return v;
    return newest;
  }
  unsigned v = 0;
  if (unit < tl_.byUnit.size())
    for (unsigned wi : tl_.byUnit[unit])
      if (o.visible[wi]) v = std::max(v, tl_.writes[wi].version);
  return v;
}

std::vector<unsigned> FetchModel::racingVersions(const Observer& o, unsigned unit, unsigned version) const {
  std::vector<unsigned> out;
  if (!rules().racesNeedModifiableList() || when_ != When::Live || unit >= tl_.byUnit.size()) return out;
  for (unsigned wi : tl_.byUnit[unit])
    if (tl_.writes[wi].version > version && tl_.writes[wi].step < o.limit) out.push_back(tl_.writes[wi].version);
  return out;
}

std::optional<Observer> FetchModel::interrupt(const Observer& o) const {
  if (when_ == When::Early) return std::nullopt;  // no other CPU to resume on
  if (when_ == When::StopMachine && model_.preemption && o.time != tl_.stepCount) {
    // A task preempted inside the site resumes after the steps.
    return atTime(tl_.stepCount, tl_.stepCount);
  }
  if (when_ != When::Boot && rules().migrationSeesOlderLines() && model_.preemption) {
    // The task may resume on another CPU whose I-cache lines are older:
    // only what a flush forced stays visible.
    Observer n = atTime(o.time, o.limit);
    if (n == o) return std::nullopt;
    return n;
  }
  return std::nullopt;
}

unsigned FetchModel::settledVersion(unsigned unit, unsigned p) const {
  if (unit >= tl_.byUnit.size()) return 0;
  auto newestOf = [&](unsigned writes) {
    unsigned v = 0;
    for (unsigned k = 0; k < writes; ++k)
      if (tl_.writes[k].unit == unit) v = tl_.writes[k].version;
    return v;
  };
  switch (rules().settledBy(model_)) {
    case FetchRules::Settled::Done: return tl_.versionAt(unit, p);
    case FetchRules::Settled::Flushed: return newestOf(tl_.flushedWrites(p));
    case FetchRules::Settled::Completed: return newestOf(tl_.completedWrites(p));
    case FetchRules::Settled::Floor: return floors_[p][unit];
  }
  return 0;
}

unsigned FetchModel::publishedFrom(const std::vector<unsigned>& units) const {
  auto published = [&](unsigned p) {
    for (unsigned w : units)
      if (w < tl_.byUnit.size() && settledVersion(w, p) + 1 != tl_.versions(w)) return false;
    return true;
  };
  if (!published(tl_.stepCount)) return tl_.stepCount + 1;
  unsigned p = tl_.stepCount;
  while (p > 0 && published(p - 1)) --p;
  return p;
}

bool FetchModel::synchronisedFrom(unsigned p) const {
  // A step s happens between times s and s + 1; it synchronises from p on
  // when s + 1 >= p (a flush's IPIs follow its own maintenance).
  for (unsigned s : tl_.flushSteps)
    if (s + 1 >= p) return true;
  for (const Maintenance& m : tl_.maintenance)
    if (m.kind == StepSpec::Kind::Ipi && m.step + 1 >= p) return true;
  return false;
}

std::string FetchModel::publishingSteps(const std::string& i) const { return rules().publishingSteps(model_, i); }

std::string FetchModel::synchronisingSteps() const { return rules().synchronisingSteps(); }

unsigned FetchModel::landed(const Observer& o) const {
  return unsigned(std::count(o.visible.begin(), o.visible.end(), true));
}

}  // namespace patchcheck
