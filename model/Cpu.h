#pragma once
// One CPU running instructions one at a time: its state, where it fetches
// next, and a control transfer in flight. The rules (delay slots, branch
// annulment, where an interrupt resumes) are the plug-in's (model/IsaModel.h);
// the core only forks where undecided() asks it to.
#include <optional>
#include <vector>

#include "model/Fault.h"
#include "model/Instruction.h"
#include "model/MachineState.h"

namespace patchcheck {

class IsaModel;

// A control transfer an instruction started.
struct Control {
  enum class Kind {
    None,
    Delayed,  // takes effect after the next instruction (its delay slot)
    Compact,  // takes effect at once (MIPS R6 compact branches)
  };
  Kind kind = Kind::None;
  z3::expr taken;         // boolean; true for jumps
  z3::expr target;        // 64-bit address
  bool likely = false;    // the delay slot is annulled when not taken
  bool forbiddenSlot = false;  // not taken, the next instruction is a forbidden slot (MIPS R6)
};

class Cpu {
 public:
  Cpu(MachineState s, z3::expr entryPc);

  MachineState state;
  z3::expr pc;  // address of the next fetch (64-bit)

  // The transfer whose delay slot (or forbidden slot) the next fetch is.
  struct Slot {
    z3::expr branchPc;
    Control control;
  };
  std::optional<Slot> slot;

  // The condition to fork on before the next fetch (IsaModel::undecided).
  std::optional<z3::expr> undecided() const;
  bool branchUnsettled() const { return undecided().has_value(); }
  void settleBranch(bool taken);
  // Executes the instruction fetched at pc and advances pc.
  std::vector<Fault> step(const Instruction&);
  // An interrupt (or preemption) at this boundary.
  void interrupt();
  bool inDelaySlot() const;

  const IsaModel& isa() const { return *isa_; }

 private:
  const IsaModel* isa_;
};

}  // namespace patchcheck
