#pragma once
// What the ISA-neutral core asks of an instruction set's model: its
// register file, its ABIs, how one instruction executes and how control
// flows (delay slots, interrupts, exception entry). The encoder half of a
// plug-in is encoder/Isa.h; this is the model half, implemented in
// model/<isa>/Model.cpp and found by the target's family.
#include <z3++.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "encoder/Target.h"
#include "model/AbiModel.h"
#include "model/Fault.h"
#include "model/Instruction.h"
#include "model/MachineState.h"

namespace patchcheck {

class Cpu;

struct RegisterInfo {
  std::string name;            // as the ABI spells it: "a0", "hi", "llbit"
  unsigned bits = 0;           // 0: a boolean (a flag such as LLbit)
  bool zero = false;           // hard-wired zero: reads 0, writes are dropped
  bool general = true;         // a general-purpose register: shown in counterexamples
  bool unknownAtEntry = true;  // symbolic in an entry state (else zero)
};

class IsaModel {
 public:
  virtual ~IsaModel() = default;
  virtual std::string_view family() const = 0;  // the IsaPlugin's family: "mips"

  // ---- registers and ABIs
  // The whole register file, by register number (MIPS: $0..$31, hi, lo, llbit).
  virtual const std::vector<RegisterInfo>& registers(const Target&) const = 0;
  // A general register named as the ABI (or the assembler) spells it.
  virtual std::optional<unsigned> parseRegister(std::string_view, const Target&) const = 0;
  // Why a name is not a register of this target, for an error message.
  virtual std::string registerHint(const Target&) const = 0;
  virtual const AbiModel& abi(const Target&) const = 0;
  // What every ABI-conformant kernel entry state satisfies (sp aligned and
  // away from the ends of the address space, ...). Every proof assumes
  // exactly these.
  virtual z3::expr entryAssumptions(const MachineState&) const = 0;
  // How the entry in `entry` was reached: a direct call, an indirect one,
  // or either. An ISA whose state records the kind of branch (arm64's
  // PSTATE.BTYPE under BTI) sets it in `entry` and returns what it may
  // hold; nothing elsewhere.
  virtual std::optional<z3::expr> enteredBy(MachineState& entry, bool direct, bool indirect) const {
    (void)entry, (void)direct, (void)indirect;
    return std::nullopt;
  }
  // A call to an external C function `name`: what the ABI lets it change
  // becomes fresh (tagged with `tag`), the rest keeps its value.
  virtual void callExternal(MachineState&, const std::string& name, unsigned tag) const = 0;

  // ---- execution (Cpu forwards to these)
  // Executes the instruction fetched at cpu.pc and moves pc; faults
  // include the control-flow rules (a branch in a delay slot).
  virtual std::vector<Fault> step(Cpu&, const Instruction&) const = 0;
  // The condition of a control transfer in flight that must be decided
  // before the next fetch, or nothing. The caller forks on it and calls
  // decide() with the way it took.
  virtual std::optional<z3::expr> undecided(const Cpu&) const = 0;
  virtual void decide(Cpu&, bool taken) const = 0;
  // The next fetch is in a delay slot: an interrupt here resumes at the
  // transfer, which executes again.
  virtual bool inDelaySlot(const Cpu&) const = 0;
  // An interrupt (or preemption) at this boundary: the handler preserves
  // what the architecture says, and execution resumes where it says.
  virtual void interrupt(Cpu&) const = 0;
  // What an exception taken at any instruction boundary may leave behind
  // (the registers and stack the kernel's exception entry uses). Applied
  // at every boundary: a fresh value may equal the old one, so no fork.
  virtual void exceptionBoundary(MachineState&) const = 0;
  // Does the term depend on a value an exception left? And what, in
  // words, may an exception leave (for a counterexample that relies on it)?
  virtual bool dependsOnException(const z3::expr&) const = 0;
  virtual std::string exceptionNote() const = 0;

 protected:
  IsaModel() = default;
};

// An ISA whose encoder half has no model half yet (model/<isa>/Model.cpp):
// commands that need semantics refuse it as bad input.
struct NoModel : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Any register of the file by name: a general one as parseRegister reads
// it, else one of the others by its RegisterInfo name (arm64's "btype").
std::optional<unsigned> registerNumber(const IsaModel&, std::string_view name, const Target&);

// The model of the target's ISA (by its plug-in's family); throws NoModel
// when the ISA has none.
const IsaModel& modelOf(const Target&);

}  // namespace patchcheck
