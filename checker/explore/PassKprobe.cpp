// The kprobe handler (docs/model.md "kprobes"): a pass that executes the
// probe breakpoint of a registered kprobe runs the probed instruction, in
// place or out of line (a MIPS branch in place, its delay slot out of
// line), and goes on after it.
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
  if (c.fetchedInDelaySlot) {
    // A break in a delay slot traps with EPC at the branch (Cause.BD), and
    // the handler looks the probe up there (MIPS kprobe_handler:
    // regs->cp0_epc): none is, so the trap is not the probe's.
    std::string at = s_.site->spec().unitName(unit);
    addHazard(c, c_.bool_val(true), Hazard::Kind::Fault, [at](const z3::model&) {
      return "Break: the kprobe breakpoint at " + at + " runs in a delay slot, so the trap's EPC is the branch "
             "before it, where no kprobe is registered: the handler does not take it for the probe's";
    });
    c.hazards.back().fault = FaultKind::Break;
    return false;
  }
  const IsaPatching& isa = t_.isa->patching();
  if (e->image && isa.probeTrapRereads() && rereadHazard(c, unit)) return false;
  // The pre-handler runs (it is taken to return 0 and keep the registers
  // it was given), then the probed instruction.
  const Kprobe& k = probe->second;
  z3::expr at = s_.site->unitAddress(unit);
  Instruction insn = k.insn->fetched();
  auto slotAddress = [&] {
    // An instruction slot, which may lie anywhere code may (get_insn_slot).
    if (!kprobeSlot_) kprobeSlot_ = c_.bv_const("kprobe.slot", 64);
    uint64_t align = t_.isa->codeAlignment();
    if (align > 1) c.assume((*kprobeSlot_ & c_.bv_val(align - 1, 64)) == c_.bv_val(uint64_t(0), 64));
    return *kprobeSlot_;
  };
  if (k.run == IsaPatching::KprobeRun::OutOfLine) {
    z3::expr length = c_.bv_val(uint64_t(insn.bytes), 64);
    if (auto why = isa.kprobeMaySkip()) {
      // The handler may resume after the probed instruction without
      // running it: another execution.
      Node skipped = c;
      skipped.cpu.pc = at + length;
      skipped.events.push_back(event::Handler{.pc = at + length, .by = *why + ": the pass resumes at "});
      later(std::move(skipped));
    }
    // A copy in the slot; the CPU resumes after the original.
    z3::expr slot = slotAddress();
    c.emulate.emplace(slot, insn);
    c.emulatedBy = "stepped out of line by the kprobe handler";
    c.resumeFromSlot.emplace(slot + length, at + length);
  } else if (k.run == IsaPatching::KprobeRun::DelaySlotOutOfLine) {
    // The branch is evaluated where it lies (its link and target from the
    // probed address), then the copy of its delay slot runs in the slot;
    // the branch then goes to its target, or past its delay slot.
    c.emulate.emplace(at, insn);
    c.emulatedBy = "evaluated in place by the kprobe handler";
    c.emulateNext = Node::Emulation{slotAddress(), k.delaySlot->fetched(),
                                    "its delay slot, copied at registration, stepped out of line by the kprobe handler"};
  } else {
    c.emulate.emplace(at, insn);
    c.emulatedBy = "run in place by the kprobe handler";
  }
  return true;
}

bool Explorer::rereadHazard(Node& c, unsigned unit) {
  // The trap handler reads the word at the trap's address back (MIPS
  // do_bp) at some time after the fetch, before the pass goes on: any
  // version memory holds from the pass's time to the latest it may reach.
  const Timeline& tl = *s_.timeline;
  const auto& versions = s_.versions[unit];
  std::set<unsigned> readable;
  for (const Observer& o : c.observers) {
    unsigned last = tl.versionAt(unit, std::min(o.limit, tl.stepCount));
    for (unsigned v = tl.versionAt(unit, o.time); v <= last && v < versions.size(); ++v) readable.insert(v);
  }
  const IsaPatching& isa = t_.isa->patching();
  for (unsigned v : readable) {
    if (isa.probeTrapWord(versions[v].assembled)) continue;
    std::string at = s_.site->spec().unitName(unit), word = versions[v].source;
    addHazard(c, c_.bool_val(true), Hazard::Kind::Fault, [at, word](const z3::model&) {
      return "Break: the trap handler reads the word at " + at + " back to find the break code (do_bp), and a "
             "write may have put '" + word + "' there by then: the trap is taken for no kprobe's and the kernel "
             "dies (die_if_kernel)";
    });
    c.hazards.back().fault = FaultKind::Break;
    return true;
  }
  return false;
}

}  // namespace patchcheck::passes
