#pragma once
// One CPU's architectural state as Z3 terms. GPRs are as wide as the ISA's
// registers; addresses (pc, memory indexes) are always 64-bit, and a 32-bit
// ISA's addresses are sign-extended 32-bit values.
#include <z3++.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "encoder/mips/Target.h"
#include "model/EffectKind.h"

namespace patchcheck::mips {

// Something an instruction did that is not a register or memory write:
// the checker decides whether it is harmless (cache, sync, cp0 access...).
struct SideEffect {
  std::string what;        // "cache 0x15", "mtc0 $12,0", "sync 0", "eret", ...
  z3::expr address;        // the address it touched, or the pc
  std::optional<z3::expr> value = std::nullopt;  // the value written (mtc0, dmtc0), if any
  EffectKind kind = EffectKind::Other;
};

struct MachineState {
  MachineState(z3::context& c, const Target& t);  // every register and memory zero
  MachineState(const MachineState&) = default;
  MachineState(MachineState&&) = default;
  // Assignment between states of the same context (paths fork and merge).
  MachineState& operator=(const MachineState&);
  MachineState& operator=(MachineState&& o) { return *this = static_cast<const MachineState&>(o); }

  // Every GPR (but $0), HI, LO and memory a fresh constant named
  // prefix + register name ("in.a0"), so a proof covers every entry state.
  static MachineState symbolic(z3::context&, const Target&, const std::string& prefix);
  // This state's values in a model, in concrete mode (to replay a counterexample).
  MachineState evaluatedIn(const z3::model&) const;

  z3::context& ctx;
  Target target;
  std::array<z3::expr, 32> gpr;  // gpr[0] stays zero
  z3::expr hi, lo;               // pre-R6 multiply/divide results
  z3::expr memory;               // array: 64-bit address -> 8-bit byte
  std::vector<SideEffect> effects;
  z3::expr llbit;                // LLbit: set by ll/lld, cleared by an interrupt (ERET)
  unsigned freshCount = 0;       // numbers the fresh values this state has made
  // Concrete mode: choices the architecture leaves open (sc success) take
  // their deterministic hardware value instead of a fresh constant.
  bool concrete = false;
  // What exception entries may overwrite (model/mips/ExceptionEntry.h): every
  // byte address stored to, those stored since the last exception
  // boundary, and the sp (as an address) at that boundary.
  std::vector<z3::expr> stored, storedSinceBoundary;
  std::optional<z3::expr> boundarySp;
  unsigned havocCount = 0;
  // Set by evaluatedIn: values no instruction determines (havoc) are read
  // from this model, so a replay takes the counterexample's values.
  const z3::model* valuesFrom = nullptr;

  unsigned width() const { return target.gprBits(); }
  z3::expr reg(unsigned r) const { return gpr[r & 31]; }
  void setReg(unsigned r, const z3::expr& v);  // writes to $0 are dropped

  // A GPR value as a 64-bit address (sign-extends on 32-bit ISAs).
  z3::expr address(const z3::expr& gprValue) const;
  // A 64-bit address as a GPR value (truncates on 32-bit ISAs).
  z3::expr fromAddress(const z3::expr& addr64) const;
  // A 64-bit address computed with 64-bit arithmetic, reduced to what the
  // ISA can form (32-bit ISAs: modulo 2^32, sign-extended).
  z3::expr normalize(const z3::expr& addr64) const;
  // addr64 + bytes, normalized and simplified (the next pc, a link value).
  z3::expr advance(const z3::expr& addr64, uint64_t bytes) const;
  // A value no instruction determines (mfc0 result, sc success...): a new
  // constant "what#N"; bits == 0 makes a boolean.
  z3::expr fresh(const std::string& what, unsigned bits);
  // A value something outside the program writes (an exception handler):
  // a new constant "what@N" numbered apart from fresh(), or, in a replay,
  // that constant's value in the counterexample's model.
  z3::expr havoc(const std::string& what, unsigned bits);

  z3::expr load(const z3::expr& addr64, unsigned bytes) const;  // endian-aware
  z3::expr loadByte(const z3::expr& addr64) const;
  void store(const z3::expr& addr64, const z3::expr& value, unsigned bytes);
};

}  // namespace patchcheck::mips
