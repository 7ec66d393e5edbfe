// The kprobe handler (docs/model.md "kprobes"): a pass that executes the
// probe breakpoint of a registered kprobe runs the probed instruction, in
// place or out of line, and goes on after it.
#include "checker/explore/PassExplorerImpl.h"

namespace patchcheck::passes {

bool Explorer::kprobeHandled(Node& c, const Fault& f) {
  if (!s_.kprobes || s_.kprobes->empty() || !f.when.simplify().is_true() || c.events.empty()) return false;
  const auto* e = as<event::Fetch>(c.events.back());
  if (!e) return false;
  unsigned unit = 0;
  if (e->image) {
    // A word site: the word fetched is the probe breakpoint (arm64 `brk
    // #0x4`; another immediate is another handler's).
    if (!t_.isa->patching().isProbeBreakpoint(e->image->assembled)) return false;
    unit = e->unit;
  } else {
    // A byte site: a one-byte int3 at the probe's unit. The handler looks
    // up the trap's ip - 1 (kprobe_int3_handler), so `int $3` (cd 03)
    // looks up the byte after the probe and finds none.
    if (e->length != 1) return false;
    unit = c.fetchedAt;
  }
  auto probe = s_.kprobes->find(unit);
  if (probe == s_.kprobes->end() || !s_.kprobeLife.during.count(unit)) return false;
  // unregister_kprobe unregisters the probe once it is disarmed, and
  // frees its slot after synchronize_rcu (kernel/kprobes.c,
  // unregister_kprobes; the `wait` step); the handler runs with
  // interrupts off, or, on x86, a boosted copy runs in the slot with the
  // interrupted context's flags, so only a wait, or stop_machine, ends it
  // before a later step. A pass whose epoch reaches past the last step
  // may run the handler after the probe is gone.
  bool registeredAfter = s_.vectorOutlivesSteps || s_.kprobeLife.after.count(unit);
  bool pastSteps = std::any_of(c.observers.begin(), c.observers.end(),
                               [&](const Observer& o) { return o.limit >= s_.timeline->stepCount; });
  if (!registeredAfter && pastSteps) {
    std::string at = s_.site->spec().unitName(unit);
    addHazard(c, c_.bool_val(true), Hazard::Kind::Fault, [at](const z3::model&) {
      return "Break: the kprobe handler for the breakpoint at " + at + " may run after the last step, when "
             "unregister_kprobe has unregistered the probe and freed its instruction slot (no wait, "
             "synchronize_rcu, after the disarm)";
    });
    c.hazards.back().fault = FaultKind::Break;
    return false;
  }
  // The pre-handler runs (it is taken to return 0 and keep the registers
  // it was given), then the probed instruction.
  const Kprobe& k = probe->second;
  z3::expr at = s_.site->unitAddress(unit);
  Instruction insn = k.insn->fetched();
  if (k.run == IsaPatching::KprobeRun::OutOfLine) {
    // A copy in an instruction slot, which may lie anywhere code may
    // (get_insn_slot); the CPU resumes after the original.
    if (!kprobeSlot_) kprobeSlot_ = c_.bv_const("kprobe.slot", 64);
    z3::expr slot = *kprobeSlot_;
    uint64_t align = t_.isa->codeAlignment();
    if (align > 1) c.assume((slot & c_.bv_val(align - 1, 64)) == c_.bv_val(uint64_t(0), 64));
    c.emulate.emplace(slot, insn);
    c.emulatedBy = "stepped out of line by the kprobe handler";
    z3::expr length = c_.bv_val(uint64_t(insn.bytes), 64);
    c.resumeFromSlot.emplace(slot + length, at + length);
  } else {
    c.emulate.emplace(at, insn);
    c.emulatedBy = "run in place by the kprobe handler";
  }
  return true;
}

}  // namespace patchcheck::passes
