#pragma once
// Runs instructions one at a time with MIPS control-flow rules: delay slots,
// branch-likely annulment, R6 forbidden slots, and interrupts at any
// instruction boundary (EPC = the branch when interrupted in its delay slot,
// so the branch is fetched and executed again after ERET).
#include <optional>

#include "model/Semantics.h"

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

  // Executes the word fetched at pc and advances pc. Faults include the
  // slot rules (a control transfer in a delay slot or forbidden slot).
  std::vector<Fault> step(const Fetched&);

  // An interrupt (or preemption) at this boundary: the handler preserves
  // all state; execution resumes at EPC.
  void interrupt();

  bool inDelaySlot() const { return slot && slot->control.kind == Control::Kind::Delayed; }
};

}  // namespace patchcheck::mips
