#include "checker/FetchModel.h"

#include <algorithm>

namespace patchcheck {

FetchModel::FetchModel(const Timeline& tl, const ModelSpec& m, When w) : tl_(tl), model_(m), when_(w) {}

unsigned FetchModel::group(const Write& w) const {
  // Under `stale`, sync does not order instruction fetch: only flush does.
  return model_.fetch == FetchKind::Stale ? w.flushGroup : w.syncGroup;
}

bool FetchModel::interruptsAnywhere() const {
  if (when_ == When::StopMachine) return model_.preemption;
  return model_.fetch == FetchKind::Stale && model_.preemption;
}

// Writes done by `time`; under sc all of them are visible, otherwise only
// those a flush before `time` forces.
Observer FetchModel::atTime(unsigned time, unsigned limit) const {
  Observer o{time, limit, std::vector<bool>(tl_.writes.size(), false)};
  unsigned forced = model_.fetch == FetchKind::Sc || when_ != When::Live
                        ? unsigned(std::count_if(tl_.writes.begin(), tl_.writes.end(),
                                                 [&](const Write& w) { return w.step < time; }))
                        : tl_.flushedWrites(time);
  for (unsigned i = 0; i < forced; ++i) o.visible[i] = true;
  close(o);
  return o;
}

std::vector<Observer> FetchModel::starts() const {
  unsigned end = tl_.stepCount;
  if (when_ == When::Boot) return {atTime(end, end)};
  if (when_ == When::StopMachine) return {atTime(0, 0), atTime(end, end)};
  std::vector<Observer> out{atTime(0, tl_.nextWait(0))};
  for (unsigned w : tl_.waitSteps) out.push_back(atTime(w + 1, tl_.nextWait(w + 1)));
  return out;
}

// Closes the visible set: earlier writes to the same word (coherence) and,
// under weak/stale, every write of an earlier barrier group.
void FetchModel::close(Observer& o) const {
  if (model_.fetch == FetchKind::Sc) return;  // sc sets are prefixes already
  unsigned top = 0;
  bool any = false;
  for (size_t i = 0; i < tl_.writes.size(); ++i)
    if (o.visible[i]) top = std::max(top, group(tl_.writes[i])), any = true;
  if (!any) return;
  for (size_t i = 0; i < tl_.writes.size(); ++i) {
    const Write& w = tl_.writes[i];
    if (group(w) < top) o.visible[i] = true;
  }
  for (size_t i = 0; i < tl_.writes.size(); ++i) {
    if (!o.visible[i]) continue;
    for (unsigned wi : tl_.byWord[tl_.writes[i].word])
      if (tl_.writes[wi].version < tl_.writes[i].version) o.visible[wi] = true;
  }
}

std::optional<Observer> FetchModel::observe(const Observer& o, unsigned word, unsigned version) const {
  if (word >= tl_.byWord.size() || tl_.byWord[word].empty()) {
    if (version == 0) return o;  // never written
    return std::nullopt;
  }
  Observer n = o;
  if (version > 0) {
    const Write& w = tl_.writes[tl_.writeOf(word, version)];
    if (when_ != When::Live) {
      if (!o.visible[tl_.writeOf(word, version)]) return std::nullopt;
    } else {
      n.time = std::max(n.time, w.step + 1);
      if (n.time > n.limit) return std::nullopt;
      if (model_.fetch == FetchKind::Sc) {
        for (size_t i = 0; i < tl_.writes.size(); ++i)
          if (tl_.writes[i].step < n.time) n.visible[i] = true;
      } else {
        n.visible[tl_.writeOf(word, version)] = true;
        Observer forced = atTime(n.time, n.limit);
        for (size_t i = 0; i < n.visible.size(); ++i) n.visible[i] = n.visible[i] || forced.visible[i];
      }
      close(n);
    }
  }
  if (version + 1 < tl_.versions(word) && n.visible[tl_.writeOf(word, version + 1)])
    return std::nullopt;
  return n;
}

std::optional<Observer> FetchModel::interrupt(const Observer& o) const {
  if (when_ == When::StopMachine) {
    // A task preempted inside the site resumes after the steps.
    if (!model_.preemption || o.time == tl_.stepCount) return std::nullopt;
    return atTime(tl_.stepCount, tl_.stepCount);
  }
  if (when_ == When::Live && model_.fetch == FetchKind::Stale && model_.preemption) {
    // The task may resume on another CPU whose I-cache lines are older:
    // only what a flush forced stays visible.
    Observer n = atTime(o.time, o.limit);
    if (n == o) return std::nullopt;
    return n;
  }
  return std::nullopt;
}

unsigned FetchModel::landed(const Observer& o) const {
  return unsigned(std::count(o.visible.begin(), o.visible.end(), true));
}

}  // namespace patchcheck
