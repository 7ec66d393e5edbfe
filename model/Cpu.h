#pragma once
// Runs instructions one at a time with MIPS control-flow rules: delay slots,
// branch-likely annulment, R6 forbidden slots, and interrupts at any
// instruction boundary (EPC = the branch when interrupted in its delay slot,
// so the branch is fetched and executed again after ERET).
#include <optional>

#include "model/mips/Semantics.h"

namespace patchcheck::mips {

class Cpu {
 public:
  Cpu(MachineState s, z3::expr entryPc);

  MachineState state;
  z3::expr pc;  // address of the next fetch (64-bit)

  // The branch whose delay slot (or forbidden slot) the next fetch is.
  struct Slot {
    z3::expr branchPc;
    Control control;
  };
  std::optional<Slot> slot;

  // True when the next fetch is the delay slot of a branch-likely whose
  // condition is still open: the caller must decide it with settleLikely
  // (adding `slot->control.taken` or its negation to its path condition).
  bool likelyUnsettled() const;
  void settleLikely(bool taken);

  // Any branch in flight whose condition is symbolic (a delayed branch
  // before its delay slot ends, or an R6 compact branch whose forbidden
  // slot is next): the caller forks by calling settleBranch(true/false)
  // after adding `slot->control.taken` (or its negation) to its path.
  // Settling a compact branch moves pc to the target or the forbidden slot;
  // settling a not-taken branch-likely skips its delay slot.
  bool branchUnsettled() const;
  void settleBranch(bool taken);

  // Executes the word fetched at pc and advances pc. Faults include the
  // slot rules (a control transfer in a delay slot or forbidden slot).
  std::vector<Fault> step(const Fetched&);

  // An interrupt (or preemption) at this boundary: the handler preserves
  // all state; execution resumes at EPC. ERET clears LLbit.
  void interrupt();

  bool inDelaySlot() const { return slot && slot->control.kind == Control::Kind::Delayed; }
};

}  // namespace patchcheck::mips
