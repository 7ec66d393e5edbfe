#include "tests/bruteforce/HandCases.h"

#include "checker/spec/FetchRegistry.h"

namespace bruteforce {

using patchcheck::Spec;
using patchcheck::When;

std::vector<HandCase> handCases() {
  auto fetch = [](std::string_view k) {
    return [m = patchcheck::fetchModelNamed(k)](Spec& s) { s.model.fetch = m; };
  };
  auto align = [](uint64_t a) {
    return [a](Spec& s) {
      for (auto& x : s.symbols)
        if (x.name == "T") x.align = a;
    };
  };
  auto noDsi = [](Spec& s) { s.model.delaySlotInterrupts = false; };
  auto callT = [](Spec& s) { s.behaviour["on"] = std::get<patchcheck::BehaviourSpec>(patchcheck::parseBehaviour("call T")); };
  auto noPreempt = [](Spec& s) { s.model.preemption = false; };
  auto live = [](Spec& s) {
    for (auto& t : s.transitions) t.when = When::Live;
  };
  // Drops step `index` of transition `name` (weakening a shipped order).
  auto drop = [](std::string name, size_t index) {
    return [name, index](Spec& s) {
      for (auto& t : s.transitions)
        if (t.name() == name && index < t.steps.size()) t.steps.erase(t.steps.begin() + long(index));
    };
  };
  const std::string shipped = "specs/mips/";  // from the source root
  return {
      // The shipped orders, each weakened by one step their comments say is
      // needed: the enumeration must break them.
      {shipped + "patchable-entry.toml", "no wait", drop("noregs->disabled", 2), "noregs->disabled", true},
      {shipped + "patchable-entry.toml", "no first flush", drop("disabled->noregs", 1), "disabled->noregs",
       true},
      {shipped + "patchable-entry-livepatch.toml", "no first wait", drop("disabled->livepatch", 2),
       "disabled->livepatch", true},
      {"sc-vs-weak.toml", "", nullptr, "off->on", false},
      {"sc-vs-weak.toml", "fetch = weak", fetch("weak"), "off->on", true},
      {"flush-stale.toml", "", nullptr, "off->on_none", true},
      {"flush-stale.toml", "", nullptr, "off->on_sync", true},
      {"flush-stale.toml", "", nullptr, "off->on_flush", false},
      {"flush-stale.toml", "fetch = weak", fetch("weak"), "off->on_none", true},
      {"flush-stale.toml", "fetch = weak", fetch("weak"), "off->on_sync", false},
      {"flush-stale.toml", "fetch = weak", fetch("weak"), "off->on_flush", false},
      {"delay-slot-interrupt.toml", "", nullptr, "a->b", true},
      {"delay-slot-interrupt.toml", "", nullptr, "state a", false},
      {"delay-slot-interrupt.toml", "", nullptr, "state b", false},
      {"delay-slot-interrupt.toml", "delay_slot_interrupts = false", noDsi, "a->b", false},
      {"placement.toml", "", nullptr, "state on", true},
      {"placement.toml", "", nullptr, "off->on", true},
      {"placement.toml", "T align 0x10000", align(0x10000), "state on", false},
      {"placement.toml", "T align 0x10000", align(0x10000), "off->on", false},
      {"stop-machine-preemption.toml", "", nullptr, "off->lp", true},
      {"stop-machine-preemption.toml", "preemption = none", noPreempt, "off->lp", false},
      {"wait-enter.toml", "", nullptr, "off->lp", false},
      {"wait-enter.toml", "", nullptr, "off->lp_nowait", true},
      {"wait-enter.toml", "", nullptr, "lp->off", false},
      {"wait-enter.toml", "", nullptr, "state lp", false},
      {"boot.toml", "", nullptr, "nop->on", false},
      {"call-offset.toml", "", nullptr, "off->on", false},
      {"call-offset.toml", "", nullptr, "state on", false},
      {"call-offset.toml", "behaviour call T", callT, "off->on", true},
      {"boot.toml", "", nullptr, "nop->on2", true},
      {"boot.toml", "", nullptr, "nop->on3", true},
      {"boot.toml", "when = live", live, "nop->on", true},
      {"allow.toml", "", nullptr, "t->u", true},
      {"allow.toml", "", nullptr, "t->u2", false},
      {"allow.toml", "", nullptr, "t->u3", true},
      {"allow.toml", "", nullptr, "t->u4", false},
      {"expect-mismatch.toml", "", nullptr, "off->on", false},
      {"expect-mismatch.toml", "", nullptr, "nop->on", true},
      {"expect-mismatch.toml", "", nullptr, "nop->off", false},
      {"wrong-behaviour.toml", "", nullptr, "state calls", true},
      {"wrong-behaviour.toml", "", nullptr, "state either", true},
      {"wrong-behaviour.toml", "", nullptr, "state withcond", true},
      {"wrong-behaviour.toml", "", nullptr, "state right", false},
      {"wrong-behaviour.toml", "", nullptr, "state plain", false},
      {"stale-line.toml", "", nullptr, "off->on", false},
      {"stop-machine-stale.toml", "", nullptr, "off->lp", true},
      {"stop-machine-stale.toml", "", nullptr, "off->lp_flushed", false},
  };
}

}  // namespace bruteforce
