#include "model/mips/ControlFlow.h"

#include <stdexcept>

#include "encoder/mips/Plugin.h"

namespace patchcheck::mips {

std::optional<z3::expr> undecided(const Cpu& cpu) {
  if (!cpu.slot) return std::nullopt;
  z3::expr t = cpu.slot->control.taken.simplify();
  if (t.is_true() || t.is_false()) return std::nullopt;
  return t;
}

void decide(Cpu& cpu, bool taken) {
  auto& slot = cpu.slot;
  auto& state = cpu.state;
  auto& pc = cpu.pc;
  if (!slot) return;
  z3::context& c = state.ctx;
  slot->control.taken = c.bool_val(taken);
  const z3::expr& b = slot->branchPc;
  if (slot->control.kind == Control::Kind::Delayed) {
    if (slot->control.likely && !taken) {  // annulled: the delay slot is skipped
      pc = state.normalize(b + c.bv_val(8, 64)).simplify();
      slot.reset();
    }
    return;
  }
  // Compact: taken leaves no forbidden slot; not taken, the next word is one.
  if (taken) {
    pc = slot->control.target;
    slot.reset();
  } else {
    pc = state.normalize(b + c.bv_val(4, 64)).simplify();
  }
}

std::vector<Fault> step(Cpu& cpu, const Fetched& f) {
  auto& slot = cpu.slot;
  auto& state = cpu.state;
  auto& pc = cpu.pc;
  if (slot && slot->control.kind == Control::Kind::Delayed && slot->control.likely && undecided(cpu))
    throw std::logic_error("mips::step: settle the branch-likely before its delay slot");
  z3::context& c = state.ctx;
  const z3::expr here = pc;
  std::optional<Cpu::Slot> inSlot = std::move(slot);
  slot.reset();
  std::vector<Fault> faults;

  if (inSlot && f.desc && f.desc->isControlTransfer()) {
    std::string what = std::string(f.desc->mnemonic);
    if (inSlot->control.kind == Control::Kind::Delayed) {
      // Pre-R6: UNPREDICTABLE; R6: Reserved Instruction (R6 manual, Vol. II).
      FaultKind k = targetOf(state.target).isR6() ? FaultKind::ReservedInstruction : FaultKind::Unpredictable;
      faults.push_back(Fault{k, c.bool_val(true), what + " in a delay slot"});
    } else {
      // R6 forbidden slot: only reached when the compact branch was not taken.
      z3::expr when = (!inSlot->control.taken).simplify();
      if (!when.is_false())
        faults.push_back(Fault{FaultKind::ReservedInstruction, when, what + " in a forbidden slot"});
    }
  }

  StepEffect e = execute(state, f, here);
  faults.insert(faults.end(), e.faults.begin(), e.faults.end());
  auto plus = [&](const z3::expr& a, unsigned d) { return state.advance(a, d); };

  if (inSlot && inSlot->control.kind == Control::Kind::Delayed) {
    // End of a delay slot: the branch's decision takes effect now.
    const Control& b = inSlot->control;
    pc = z3::ite(b.taken, b.target, plus(inSlot->branchPc, 8)).simplify();
    return faults;
  }

  const Control& ctl = e.control;
  switch (ctl.kind) {
    case Control::Kind::None:
      pc = plus(here, 4);
      break;
    case Control::Kind::Delayed:
      if (ctl.likely && ctl.taken.is_false()) {
        pc = plus(here, 8);
      } else {
        pc = plus(here, 4);
        slot = Cpu::Slot{here, ctl};
      }
      break;
    case Control::Kind::Compact:
      if (ctl.taken.is_true()) {
        pc = ctl.target;
      } else {
        pc = z3::ite(ctl.taken, ctl.target, plus(here, 4)).simplify();
        if (ctl.forbiddenSlot) slot = Cpu::Slot{here, ctl};
      }
      break;
  }
  return faults;
}

void interrupt(Cpu& cpu) {
  auto& slot = cpu.slot;
  auto& state = cpu.state;
  auto& pc = cpu.pc;
  if (slot && slot->control.kind == Control::Kind::Delayed) {
    // EPC = the branch (Cause.BD = 1): after ERET the branch is fetched and
    // executed again. An unsettled branch-likely that is not taken has no
    // delay slot: the boundary is then after it.
    z3::context& c = state.ctx;
    z3::expr after = state.normalize(slot->branchPc + c.bv_val(8, 64));
    pc = slot->control.likely ? z3::ite(slot->control.taken, slot->branchPc, after).simplify()
                              : slot->branchPc;
  }
  slot.reset();
  state.regs[reg::llbit] = state.ctx.bool_val(false);  // ERET clears LLbit
}

bool inDelaySlot(const Cpu& cpu) { return cpu.slot && cpu.slot->control.kind == Control::Kind::Delayed; }

}  // namespace patchcheck::mips
