// fetch = "x86": Intel SDM Vol. 3 8.1.3, cross-modifying code: until the
// executing CPU serialises, a fetch may see the modified bytes in any mix
// of old and new; text_poke_sync (sync_core on every CPU) is the one step
// that orders anything (docs/model.md "The x86 fetch model"). The only
// model an x86-64 spec takes.
#include <algorithm>

#include "checker/explore/Timeline.h"
#include "checker/spec/FetchRules.h"

namespace patchcheck::fetch {
namespace {

class X86Rules final : public FetchRules {
 public:
  std::string_view name() const override { return "x86"; }
  std::string_view description() const override { return "the x86 model"; }
  bool takesStep(std::string_view v) const override {
    return v == "write" || v == "wait" || v == "sync_core" || v == "irq_window";
  }
  std::string_view stepUsage() const override {
    return "write I, write I..J, write I = \"int3\", write I..J = STATE, sync_core, wait, irq_window";
  }
  // Boot-time alternatives: each text_poke_early runs with interrupts off,
  // and they are on between two sites (arch/x86/kernel/alternative.c).
  std::span<const OwnStep> ownSteps() const override {
    static const OwnStep steps[] = {{"irq_window", StepKind::IrqWindow}};
    return steps;
  }
  std::string refusal(std::string_view verb) const override {
    return "'" + std::string(verb) + "' orders nothing an x86 fetch sees (only serialisation does)";
  }
  std::string_view stepOwner() const override { return "an x86 step"; }
  std::string_view fullBarrier() const override { return "sync_core"; }
  Forced forcedBy(bool) const override { return Forced::Flushed; }
  bool coherent(const ModelSpec&) const override { return false; }
  bool fetchedBetweenSerialisations() const override { return true; }
  Settled settledBy(const ModelSpec&) const override { return Settled::Floor; }
  std::string publishingSteps(const ModelSpec&, const std::string&) const override { return "`sync_core`"; }
  std::string synchronisingSteps() const override { return "`sync_core`"; }
  // Intel SDM Vol. 3 8.1.3: the writes between two serialisations land in
  // any order and any subset.
  bool unorderedWithinGroup() const override { return true; }

  // A fetch may return any version written since the last serialisation
  // every CPU completed (sync_core): the floor is what the writes before
  // the last sync_core made.
  std::vector<std::vector<unsigned>> floors(const Timeline& tl, const ModelSpec&) const override {
    std::vector<std::vector<unsigned>> out;
    for (unsigned p = 0; p <= tl.stepCount; ++p) {
      unsigned done = tl.flushedWrites(p);
      std::vector<unsigned> f(tl.byUnit.size(), 0);
      for (unsigned k = 0; k < done; ++k) f[tl.writes[k].unit] = std::max(f[tl.writes[k].unit], tl.writes[k].version);
      out.push_back(std::move(f));
    }
    return out;
  }
};

}  // namespace

const FetchRules& X86() {
  static const X86Rules rules{};
  return rules;
}

}  // namespace patchcheck::fetch
