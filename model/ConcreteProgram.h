#pragma once
// A program run on concrete values through the one executor
// (model/Executor.h), as each plug-in's concrete runner (model/<isa>/Concrete)
// drives it: the plug-in says where its words lie (fetch); this keeps the
// faults that happened, where and why the run stopped.
#include <z3++.h>

#include <optional>
#include <string>
#include <vector>

#include "model/Executor.h"

namespace patchcheck {

class ConcreteProgram : public Executor<Execution>::Client {
 public:
  uint64_t pc = 0;                // where the run stopped
  std::vector<Fault> faults;      // those that happened; the run stops at the first
  std::optional<Execution> last;  // the run as it stopped
  std::string stop;               // "left the program", "fault", "step limit", ...

  bool stepped(Execution&, const std::vector<Fault>& raised, size_t) override;
  void runaway(Execution&) override;
  // The values leave a branch open (a result the architecture does not fix).
  void stuck(Execution& e) override { end(e, "a branch its values do not decide"); }

  // Runs from `entry` (a concrete state) at `base` until the run stops.
  Execution& run(MachineState entry, uint64_t base, unsigned maxSteps);

 protected:
  std::nullopt_t end(const Execution& e, const char* why) {
    last = e;
    stop = why;
    return std::nullopt;
  }
};

}  // namespace patchcheck
