#include "checker/explore/Timeline.h"

#include <algorithm>

namespace patchcheck {

Timeline Timeline::of(const TransitionSpec& t, unsigned siteUnitCount) {
  Timeline tl;
  tl.stepCount = unsigned(t.steps.size());
  tl.byUnit.resize(siteUnitCount);
  unsigned syncs = 0, flushes = 0, range = 0;
  for (unsigned i = 0; i < t.steps.size(); ++i) {
    const StepSpec& s = t.steps[i];
    if (!s.continuesRange()) range = i;
    switch (s.kind) {
      case StepSpec::Kind::Write: {
        if (s.index >= siteUnitCount) tl.byUnit.resize(s.index + 1);
        Write w{i, s.index, unsigned(tl.byUnit[s.index].size()) + 1, syncs, flushes, range};
        tl.byUnit[s.index].push_back(unsigned(tl.writes.size()));
        tl.writes.push_back(w);
        break;
      }
      case StepSpec::Kind::Sync: ++syncs; break;
      case StepSpec::Kind::Flush:
        ++syncs, ++flushes;
        tl.flushSteps.push_back(i);
        break;
      case StepSpec::Kind::Wait: tl.waitSteps.push_back(i); break;
      case StepSpec::Kind::Run: tl.runSteps.push_back(i); break;
      case StepSpec::Kind::IrqWindow: tl.irqWindowSteps.push_back(i); break;
      case StepSpec::Kind::Dsb:
        ++syncs;  // orders the stores around it, as sync does
        tl.dsbSteps.push_back(i);
        tl.maintenance.push_back({i, s.kind, 0});
        break;
      // RISC-V fence w,o and fence.i order no store before a later one
      // (the RISC-V models read them here, FetchRules::floors).
      case StepSpec::Kind::DcCvau: case StepSpec::Kind::IcIvau: case StepSpec::Kind::Isb: case StepSpec::Kind::Ipi:
      case StepSpec::Kind::OutputFence: case StepSpec::Kind::LocalFence:
        tl.maintenance.push_back({i, s.kind, s.index});
        break;
    }
  }
  return tl;
}

unsigned Timeline::versionAt(unsigned unit, unsigned p) const {
  unsigned v = 0;
  for (unsigned wi : byUnit[unit])
    if (writes[wi].step < p) ++v;
  return v;
}

unsigned Timeline::nextWait(unsigned p) const {
  for (unsigned w : waitSteps)
    if (w >= p) return w;
  return stepCount;
}

namespace {
// Writes before the last of `marks` that is < p.
unsigned writesBefore(const std::vector<Write>& writes, const std::vector<unsigned>& marks, unsigned p) {
  unsigned last = 0;
  bool any = false;
  for (unsigned f : marks)
    if (f < p) last = std::max(last, f), any = true;
  if (!any) return 0;
  unsigned n = 0;
  for (const Write& w : writes)
    if (w.step < last) ++n;
  return n;
}
}  // namespace

unsigned Timeline::flushedWrites(unsigned p) const { return writesBefore(writes, flushSteps, p); }

unsigned Timeline::completedWrites(unsigned p) const {
  return std::max(writesBefore(writes, flushSteps, p), writesBefore(writes, dsbSteps, p));
}

}  // namespace patchcheck
