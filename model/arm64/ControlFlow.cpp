#include "model/arm64/ControlFlow.h"

#include <stdexcept>

namespace patchcheck::arm64 {

std::optional<z3::expr> undecided(const Cpu& cpu) {
  if (!cpu.slot) return std::nullopt;
  z3::expr t = cpu.slot->control.taken.simplify();
  if (t.is_true() || t.is_false()) return std::nullopt;
  return t;
}

void decide(Cpu& cpu, bool taken) {
  if (!cpu.slot) return;
  cpu.pc = taken ? cpu.slot->control.target : cpu.state.advance(cpu.slot->branchPc, 4);
  cpu.slot.reset();
}

std::vector<Fault> step(Cpu& cpu, const Fetched& f, bool bti) {
  if (undecided(cpu)) throw std::logic_error("arm64::step: decide the branch before the next fetch");
  cpu.slot.reset();
  MachineState& state = cpu.state;
  const z3::expr here = cpu.pc;
  std::vector<Fault> faults;
  if (bti) {
    // BranchTargetCheck: taken on the instruction an indirect branch
    // reached, before it executes (Arm ARM D8.4 "Branch Target Identification").
    z3::expr btype = state.reg(reg::btype);
    z3::expr bad = (!acceptsBranchType(f, btype)).simplify();
    if (!bad.is_false()) {
      std::string what = f.desc ? std::string(f.desc->mnemonic) : std::string("a word without a row");
      faults.push_back(Fault{FaultKind::BranchTarget, bad,
                             what + " is not a landing pad for the indirect branch that reached it "
                                    "(Branch Target exception)"});
    }
  }
  StepEffect e = execute(state, f, here);
  faults.insert(faults.end(), e.faults.begin(), e.faults.end());
  const Control& ctl = e.control;
  if (ctl.kind == Control::Kind::None || ctl.taken.is_false()) {
    cpu.pc = state.advance(here, 4);
  } else if (ctl.taken.is_true()) {
    cpu.pc = ctl.target;
  } else {
    // Open condition: the executor forks on it before the next fetch.
    cpu.pc = z3::ite(ctl.taken, ctl.target, state.advance(here, 4)).simplify();
    cpu.slot = Cpu::Slot{here, ctl};
  }
  return faults;
}

}  // namespace patchcheck::arm64
