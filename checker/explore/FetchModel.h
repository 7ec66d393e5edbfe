#pragma once
// Which version of a word a fetch may see, given what the same pass saw
// before (docs/model.md). An Observer is the least state consistent with a
// pass's fetches so far: the writer's time and the set of writes visible to
// it. Every constraint is monotone, so the least state allows every future
// the real ones allow, and each fetch of a given version has one successor.
#include <optional>
#include <vector>

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
  // `lineOfWord`: the I-cache line of each word (stale only); words with no
  // entry, or when the site's alignment leaves it open, are each their own
  // line, which allows the most behaviours.
  FetchModel(const Timeline&, const ModelSpec&, When, std::vector<unsigned> lineOfWord = {});

  // Least observers for a pass starting at each distinguishable time.
  std::vector<Observer> starts() const;
  // The least observer after fetching `version` of `word`, if allowed.
  std::optional<Observer> observe(const Observer&, unsigned word, unsigned version) const;
  // After an interrupt or preemption at an instruction boundary; nullopt
  // when it changes nothing the model tracks.
  std::optional<Observer> interrupt(const Observer&) const;
  // Do interrupts outside delay slots matter in this model?
  bool interruptsAnywhere() const;
  // How many writes of the timeline the observer has seen land.
  unsigned landed(const Observer& o) const;
  // The same model with the site's words in these I-cache lines.
  FetchModel withLines(std::vector<unsigned> lineOfWord) const { return FetchModel(tl_, model_, when_, std::move(lineOfWord)); }

 private:
  const Timeline& tl_;
  ModelSpec model_;
  When when_;
  std::vector<unsigned> lines_;

  unsigned lineOf(unsigned word) const { return word < lines_.size() ? lines_[word] : 1000 + word; }
  Observer atTime(unsigned time, unsigned limit) const;
  void close(Observer&) const;
};

}  // namespace patchcheck
