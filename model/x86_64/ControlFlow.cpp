#include "model/x86_64/ControlFlow.h"

#include <stdexcept>

#include "model/x86_64/Decoded.h"
#include "model/x86_64/Semantics.h"

namespace patchcheck::x86_64 {

std::optional<z3::expr> undecided(const Cpu& cpu) {
  if (!cpu.slot) return std::nullopt;
  z3::expr t = cpu.slot->control.taken.simplify();
  if (t.is_true() || t.is_false()) return std::nullopt;
  return t;
}

void decide(Cpu& cpu, bool taken) {
  if (!cpu.slot) return;
  cpu.pc = taken ? cpu.slot->control.target : cpu.slot->branchPc;
  cpu.slot.reset();
}

std::vector<Fault> step(Cpu& cpu, const Instruction& i) {
  if (undecided(cpu)) throw std::logic_error("x86_64::step: decide the branch before the next fetch");
  cpu.slot.reset();
  const z3::expr here = cpu.pc;
  Decoded d = decode(i);
  StepEffect e = execute(cpu.state, d, here);
  if (e.trapped) return e.faults;
  const Control& ctl = e.control;
  z3::expr next = cpu.state.advance(here, d.length());
  if (ctl.kind == Control::Kind::None || ctl.taken.is_false()) {
    cpu.pc = next;
  } else if (ctl.taken.is_true()) {
    cpu.pc = ctl.target;
  } else {
    // Open condition: the executor forks on it before the next fetch.
    cpu.pc = z3::ite(ctl.taken, ctl.target, next).simplify();
    cpu.slot = Cpu::Slot{next, ctl};
  }
  return e.faults;
}

}  // namespace patchcheck::x86_64
