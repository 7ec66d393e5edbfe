#pragma once
// The writer's side of a transition: its steps laid out in time, which
// version of each site unit every write creates, and where the barriers are.
// Time p means "the first p steps have happened" (0 .. steps.size()).
#include <string>
#include <vector>

#include "checker/spec/Spec.h"

namespace patchcheck {

struct Write {
  unsigned step = 0;     // index into the transition's steps
  unsigned unit = 0;     // unit index in the site region
  unsigned version = 0;  // version of that unit this write creates (>= 1)
  unsigned syncGroup = 0;   // barriers (sync or flush) before it
  unsigned flushGroup = 0;  // flushes before it
  unsigned range = 0;       // the step that began its `write I..J` (its own step otherwise)
};

// An arm64 cache-maintenance or synchronisation step (dc cvau, dsb, ic
// ivau, isb, ipi) or a RISC-V fence (fence w,o, fence.i), in program order
// with the writes.
struct Maintenance {
  unsigned step = 0;
  StepSpec::Kind kind = StepSpec::Kind::Dsb;
  unsigned unit = 0;  // dc cvau, ic ivau
};

struct Timeline {
  unsigned stepCount = 0;
  std::vector<Maintenance> maintenance;
  std::vector<Write> writes;                  // in program order
  std::vector<std::vector<unsigned>> byUnit;  // unit -> indexes into writes, in order
  std::vector<unsigned> flushSteps;           // step indexes of flushes
  std::vector<unsigned> waitSteps;            // step indexes of waits
  std::vector<unsigned> runSteps;             // step indexes of runs (when = "early")
  std::vector<unsigned> irqWindowSteps;       // step indexes of irq_window (stop_machine only)
  std::vector<unsigned> dsbSteps;             // step indexes of dsb (arm64)

  static Timeline of(const TransitionSpec&, unsigned siteUnitCount);

  // Index into `writes` of the write creating `version` of `unit`.
  unsigned writeOf(unsigned unit, unsigned version) const { return byUnit[unit][version - 1]; }
  unsigned versions(unsigned unit) const { return unsigned(byUnit[unit].size()) + 1; }
  // The units at or after `first` that some write changes, in order (the
  // fetched ones, when `first` is F's entry unit).
  std::vector<unsigned> writtenUnits(unsigned first) const {
    std::vector<unsigned> out;
    for (unsigned i = first; i < byUnit.size(); ++i)
      if (!byUnit[i].empty()) out.push_back(i);
    return out;
  }
  // The version of `unit` after the first p steps.
  unsigned versionAt(unsigned unit, unsigned p) const;
  // The first wait step at or after p (stepCount if none).
  unsigned nextWait(unsigned p) const;
  // Writes every fetch must see once p steps have happened (before a flush < p).
  unsigned flushedWrites(unsigned p) const;
  // Writes in memory once p steps have happened: those before a dsb or a
  // flush < p (a dsb completes its CPU's stores).
  unsigned completedWrites(unsigned p) const;
};

}  // namespace patchcheck
