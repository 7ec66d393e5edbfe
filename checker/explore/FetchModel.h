#pragma once
// Which version of a unit a fetch may see, given what the same pass saw
// before (docs/model.md). An Observer is the least state consistent with a
// pass's fetches so far: the writer's time and the set of writes visible to
// it. Every constraint is monotone, so the least state allows every future
// the real ones allow, and each fetch of a given version has one successor.
#include <optional>
#include <vector>

#include "checker/explore/CacheMaintenance.h"
#include "checker/explore/Timeline.h"
#include "checker/spec/Spec.h"

namespace patchcheck {

struct Observer {
  unsigned time = 0;           // steps the writer has done
  unsigned limit = 0;          // time may not pass this (a wait the pass blocks)
  std::vector<bool> visible;   // per write in Timeline::writes
  bool operator==(const Observer&) const = default;
};

class FetchModel {
 public:
  // `lineOfUnit`: the I-cache line of each unit (stale only); units with no
  // entry, or when the site's alignment leaves it open, are each their own
  // line, which allows the most behaviours.
  FetchModel(const Timeline&, const ModelSpec&, When, std::vector<unsigned> lineOfUnit = {});

  // Least observers for a pass starting at each distinguishable time.
  std::vector<Observer> starts() const;
  // The least observer after fetching `version` of `unit`, if allowed.
  std::optional<Observer> observe(const Observer&, unsigned unit, unsigned version) const;
  // Could a fetch by this observer's time still return `version` of
  // `unit`? On x86 the bytes of one instruction are fetched between two
  // serialisations of its CPU: none may predate a sync_core the
  // instruction's last byte comes after, nor be written after the
  // observer's time. True under every other model.
  bool stillFetchable(const Observer&, unsigned unit, unsigned version) const;
  // May a fetch still return `version` of `unit` once the writer's steps
  // are all done (a breakpoint a handler no longer expects)?
  bool fetchableAfterSteps(unsigned unit, unsigned version) const {
    return stillFetchable(atTime(tl_.stepCount, tl_.stepCount), unit, version);
  }
  // Publication (docs/model.md "Publication"): once the steps are done,
  // every CPU must from some point on fetch each written unit's final
  // version, with nothing left to happen but time. The oldest version of
  // `unit` a fetch may still return once p steps have happened, for ever
  // after: sc, every write done; MIPS weak and stale, only what a flush
  // forced (instruction fetch is not coherent with stores); Arm DIC = 0,
  // the floor the maintenance left; Arm DIC = 1, what a dsb completed;
  // x86, what a sync_core serialised.
  unsigned settledVersion(unsigned unit, unsigned p) const;
  // The first time from which every unit in `units` that the steps write
  // is settled at its final version (stepCount + 1: never).
  unsigned publishedFrom(const std::vector<unsigned>& units) const;
  // Does a step at or after time p make every CPU context-synchronise
  // (flush_icache_range's IPIs, arm64's `ipi`, x86's sync_core)? What
  // publish = "synchronised" asks for, from the time of publication.
  bool synchronisedFrom(unsigned p) const;
  // Do the steps publish every unit in `units` as `publish` asks? The one
  // rule `check` and `synth` both apply.
  bool publishes(const std::vector<unsigned>& units, Publish publish) const {
    unsigned from = publishedFrom(units);
    return from <= tl_.stepCount && (publish == Publish::Eventually || synchronisedFrom(from));
  }
  // The steps the model needs after a unit's last write to publish it, as
  // a spec spells them (in backquotes), with `index` as the write's index.
  std::string publishingSteps(const std::string& index) const;
  // The steps that make every CPU context-synchronise, as spelled here.
  std::string synchronisingSteps() const;
  // The greatest observer below both: every write visible to both, the
  // earlier time, the later limit. Every constraint being monotone, it
  // allows every future either allows (and more): merged executions
  // (PassExplorer's symbolic fetch choices) continue from it.
  Observer meet(const Observer&, const Observer&) const;
  // After an interrupt or preemption at an instruction boundary; nullopt
  // when it changes nothing the model tracks.
  std::optional<Observer> interrupt(const Observer&) const;
  // Do interrupts outside delay slots matter in this model?
  bool interruptsAnywhere() const;
  // How many writes of the timeline the observer has seen land.
  unsigned landed(const Observer& o) const;
  // The oldest version of data unit `unit` a load may read after the
  // fetches behind `o`: under the Arm model, a fetch that read a write
  // orders the pass's later loads after it (herd's MP.FR tests), so a
  // store barrier-ordered before that write is seen; elsewhere loads are
  // not tied to fetches and any version the observer allows a fetch of.
  unsigned oldestLoad(const Observer& o, unsigned unit) const;
  // Versions of `unit` written after `version` by writes that may race
  // with this fetch (no wait or stop_machine orders them): under the Arm
  // model each such pair must be on the CMODX list. Empty elsewhere.
  std::vector<unsigned> racingVersions(const Observer& o, unsigned unit, unsigned version) const;
  // The same model with the site's units in these I-cache lines.
  FetchModel withLines(std::vector<unsigned> lineOfUnit) const { return FetchModel(tl_, model_, when_, std::move(lineOfUnit)); }

 private:
  const Timeline& tl_;
  ModelSpec model_;
  When when_;
  std::vector<unsigned> lines_;
  std::vector<std::vector<unsigned>> floors_;  // FetchRules::floors: [time][unit] the oldest version a fetch may return

  // The spec's fetch model (checker/fetch/): the rules this observer applies.
  const FetchRules& rules() const { return *model_.fetch; }
  // Need a fetch of a unit see a version at least as new as the last one
  // the same pass saw? Not under Arm with DIC = 0, nor on x86 (Intel SDM
  // Vol. 3 8.1.3: without serialisation any mix of old and new bytes).
  bool coherentFetch() const { return rules().coherent(model_); }

  unsigned lineOf(unsigned unit) const { return unit < lines_.size() ? lines_[unit] : 1000 + unit; }
  Observer atTime(unsigned time, unsigned limit) const;
  void close(Observer&) const;
};

}  // namespace patchcheck
