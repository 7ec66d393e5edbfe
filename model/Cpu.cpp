#include "model/Cpu.h"

#include "model/IsaModel.h"

namespace patchcheck {

Cpu::Cpu(MachineState s, z3::expr entryPc)
    : state(std::move(s)), pc(std::move(entryPc)), isa_(&modelOf(state.target)) {}

std::optional<z3::expr> Cpu::undecided() const { return isa_->undecided(*this); }
void Cpu::settleBranch(bool taken) { isa_->decide(*this, taken); }
std::vector<Fault> Cpu::step(const Instruction& i) { return isa_->step(*this, i); }
void Cpu::interrupt() { isa_->interrupt(*this); }
bool Cpu::inDelaySlot() const { return isa_->inDelaySlot(*this); }

}  // namespace patchcheck
