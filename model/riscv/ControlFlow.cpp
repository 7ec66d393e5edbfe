#include "model/riscv/ControlFlow.h"

#include <stdexcept>
#include <string_view>

namespace patchcheck::riscv {

Features featuresOf(const Target& t) {
  // The base and single-letter extensions come before the first '_'
  // ("rv64gc", "rv64imac_zicsr"): "c" there is the C extension, "d" or
  // "g" the F and D extensions.
  std::string_view v = t.variantName();
  v = v.substr(0, v.find('_'));
  std::string_view letters = v.size() > 4 ? v.substr(4) : std::string_view{};
  bool rvc = letters.find('c') != std::string_view::npos;
  // G is IMAFD; a riscv variant has F and D together or neither (Plugin.h).
  bool fd = letters.find('g') != std::string_view::npos || letters.find('d') != std::string_view::npos;
  return Features{t.registerBits(), rvc, fd};
}

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

std::vector<Fault> step(Cpu& cpu, const Fetched& f) {
  if (undecided(cpu)) throw std::logic_error("riscv::step: decide the branch before the next fetch");
  cpu.slot.reset();
  MachineState& state = cpu.state;
  const z3::expr here = cpu.pc;
  Features ft = featuresOf(state.target);
  std::vector<Fault> faults;
  if (f.bytes == 2 && !ft.compressed) {
    // Without C, a 16-bit parcel is no instruction (illegal instruction).
    faults.push_back(Fault{FaultKind::ReservedInstruction, state.ctx.bool_val(true),
                           "a compressed instruction on a target without the C extension (illegal instruction)"});
    cpu.pc = state.advance(here, f.bytes);
    return faults;
  }
  StepEffect e = execute(state, f, here, ft);
  faults.insert(faults.end(), e.faults.begin(), e.faults.end());
  const Control& ctl = e.control;
  z3::expr next = state.advance(here, f.bytes);
  if (ctl.kind == Control::Kind::None || ctl.taken.is_false()) {
    cpu.pc = next;
  } else if (ctl.taken.is_true()) {
    cpu.pc = ctl.target;
  } else {
    // Open condition: the executor forks on it before the next fetch.
    cpu.pc = z3::ite(ctl.taken, ctl.target, next).simplify();
    cpu.slot = Cpu::Slot{next, ctl};
  }
  return faults;
}

}  // namespace patchcheck::riscv
