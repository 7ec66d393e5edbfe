#include "model/ConcreteProgram.h"

#include "model/ConcreteValues.h"

namespace patchcheck {

bool ConcreteProgram::stepped(Execution& e, const std::vector<Fault>& raised, size_t) {
  for (const Fault& f : raised)
    if (auto happened = concreteValue(f.when); happened && *happened) faults.push_back(f);
  if (faults.empty()) return true;
  end(e, "fault");
  return false;
}

void ConcreteProgram::runaway(Execution& e) {
  pc = concreteValue(e.cpu.pc).value_or(pc);
  end(e, "step limit");
}

Execution& ConcreteProgram::run(MachineState entry, uint64_t base, unsigned maxSteps) {
  z3::context& c = entry.ctx;
  Executor<Execution>::Options o;
  o.maxSteps = maxSteps;
  Executor<Execution> executor(*this, decideByValue, o);
  executor.later(Execution(Cpu(std::move(entry), c.bv_val(base, 64))));
  executor.run();
  return *last;
}

}  // namespace patchcheck
