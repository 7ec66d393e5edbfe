#pragma once
// One CPU's architectural state as Z3 terms. GPRs are as wide as the ISA's
// registers; addresses (pc, memory indexes) are always 64-bit, and a 32-bit
// ISA's addresses are sign-extended 32-bit values.
#include <z3++.h>

#include <array>
#include <string>
#include <vector>

#include "encoder/Target.h"

namespace patchcheck::mips {

// Something an instruction did that is not a register or memory write:
// the checker decides whether it is harmless (cache, sync, cp0 access...).
struct SideEffect {
  std::string what;        // "cache 0x15", "mtc0 $12,0", "sync 0", "eret", ...
  z3::expr address;        // the address it touched, or the pc
};

struct MachineState {
  MachineState(z3::context& c, const Target& t);  // every register and memory zero

  // Every GPR (but $0), HI, LO and memory a fresh constant named
  // prefix + register name ("in.a0"), so a proof covers every entry state.
  static MachineState symbolic(z3::context&, const Target&, const std::string& prefix);

  z3::context& ctx;
  Target target;
  std::array<z3::expr, 32> gpr;  // gpr[0] stays zero
  z3::expr hi, lo;               // pre-R6 multiply/divide results
  z3::expr memory;               // array: 64-bit address -> 8-bit byte
  std::vector<SideEffect> effects;

  unsigned width() const { return target.gprBits(); }
  z3::expr reg(unsigned r) const { return gpr[r & 31]; }
  void setReg(unsigned r, const z3::expr& v);  // writes to $0 are dropped

  // A GPR value as a 64-bit address (sign-extends on 32-bit ISAs).
  z3::expr address(const z3::expr& gprValue) const;
  // A 64-bit address as a GPR value (truncates on 32-bit ISAs).
  z3::expr fromAddress(const z3::expr& addr64) const;

  z3::expr load(const z3::expr& addr64, unsigned bytes) const;  // endian-aware
  void store(const z3::expr& addr64, const z3::expr& value, unsigned bytes);
};

}  // namespace patchcheck::mips
