#include "checker/explore/Timeline.h"

namespace patchcheck {

Timeline Timeline::of(const TransitionSpec& t, unsigned siteWords) {
  Timeline tl;
  tl.stepCount = unsigned(t.steps.size());
  tl.byWord.resize(siteWords);
  unsigned syncs = 0, flushes = 0;
  for (unsigned i = 0; i < t.steps.size(); ++i) {
    const StepSpec& s = t.steps[i];
    switch (s.kind) {
      case StepSpec::Kind::Write: {
        if (s.index >= siteWords) tl.byWord.resize(s.index + 1);
        Write w{i, s.index, unsigned(tl.byWord[s.index].size()) + 1, syncs, flushes};
        tl.byWord[s.index].push_back(unsigned(tl.writes.size()));
        tl.writes.push_back(w);
        break;
      }
      case StepSpec::Kind::Sync: ++syncs; break;
      case StepSpec::Kind::Flush:
        ++syncs, ++flushes;
        tl.flushSteps.push_back(i);
        break;
      case StepSpec::Kind::Wait: tl.waitSteps.push_back(i); break;
    }
  }
  return tl;
}

unsigned Timeline::versionAt(unsigned word, unsigned p) const {
  unsigned v = 0;
  for (unsigned wi : byWord[word])
    if (writes[wi].step < p) ++v;
  return v;
}

unsigned Timeline::nextWait(unsigned p) const {
  for (unsigned w : waitSteps)
    if (w >= p) return w;
  return stepCount;
}

unsigned Timeline::flushedWrites(unsigned p) const {
  unsigned lastFlush = 0;
  bool any = false;
  for (unsigned f : flushSteps)
    if (f < p) lastFlush = f, any = true;
  if (!any) return 0;
  unsigned n = 0;
  for (const Write& w : writes)
    if (w.step < lastFlush) ++n;
  return n;
}

}  // namespace patchcheck
