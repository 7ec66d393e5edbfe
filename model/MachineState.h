#pragma once
// One CPU's architectural state as Z3 terms: the plug-in's register file
// (model/IsaModel.h numbers it), memory and what happened besides.
// General registers are as wide as the ISA's; addresses (pc, memory
// indexes) are always 64-bit, and a target with 32-bit registers holds them
// sign-extended.
#include <z3++.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "encoder/Target.h"
#include "model/Effect.h"
#include "model/MemoryOverlay.h"

namespace patchcheck {

struct MachineState {
  MachineState(z3::context& c, const Target& t);  // every register and memory zero
  MachineState(const MachineState&) = default;
  MachineState(MachineState&&) = default;
  // Assignment between states of the same context (paths fork and merge).
  MachineState& operator=(const MachineState&);
  MachineState& operator=(MachineState&& o) { return *this = static_cast<const MachineState&>(o); }

  // Every register the plug-in leaves unknown at entry and memory a fresh
  // constant named prefix + register name ("in.a0"), so a proof covers
  // every entry state.
  static MachineState symbolic(z3::context&, const Target&, const std::string& prefix);
  // This state's values in a model, in concrete mode (to replay a counterexample).
  MachineState evaluatedIn(const z3::model&) const;

  z3::context& ctx;
  Target target;
  std::vector<z3::expr> regs;    // the plug-in's register file, by its numbers
  z3::expr memory;               // array: 64-bit address -> 8-bit byte
  std::vector<SideEffect> effects;
  unsigned freshCount = 0;       // numbers the fresh values this state has made
  // Concrete mode: choices the architecture leaves open (sc success) take
  // their deterministic hardware value instead of a fresh constant.
  bool concrete = false;
  // What exception entries may overwrite (the plug-in's exceptionBoundary):
  // every byte address stored to, those stored since the last exception
  // boundary, and the sp (as an address) at that boundary.
  std::vector<z3::expr> stored, storedSinceBoundary;
  // The address of every load, in order (a memory model that runs several
  // CPUs, `patchcheck litmus`, orders them).
  std::vector<z3::expr> loaded;
  std::optional<z3::expr> boundarySp;
  unsigned havocCount = 0;
  // Set by evaluatedIn: values no instruction determines (havoc) are read
  // from this model, so a replay takes the counterexample's values.
  const z3::model* valuesFrom = nullptr;
  // Bytes another agent changes meanwhile (the site's data units): loads
  // that touch them read a version the overlay allows (model/MemoryOverlay.h).
  std::shared_ptr<const MemoryOverlay> overlay;
  std::vector<OverlayRead> overlayReads;  // in program order

  unsigned width() const { return bits_; }
  const z3::expr& reg(unsigned r) const { return regs[r]; }
  void setReg(unsigned r, const z3::expr& v);  // writes to a hard-wired zero register are dropped

  // A register value as a 64-bit address (sign-extends 32-bit registers).
  z3::expr address(const z3::expr& registerValue) const;
  // A 64-bit address as a register value (truncates to 32-bit registers).
  z3::expr fromAddress(const z3::expr& addr64) const;
  // A 64-bit address computed with 64-bit arithmetic, reduced to what the
  // target can form (32-bit registers: modulo 2^32, sign-extended).
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

  // What an instruction reads, in the target's byte order: memory, or
  // where the overlay's units lie one of their versions (a fresh choice per
  // load, hence not const).
  z3::expr load(const z3::expr& addr64, unsigned bytes);
  // Memory alone, as this CPU's own stores left it (the overlay aside).
  z3::expr peek(const z3::expr& addr64, unsigned bytes) const;
  z3::expr loadByte(const z3::expr& addr64) const;
  std::vector<z3::expr> loadBytes(const z3::expr& addr64, unsigned bytes) const;  // in address order
  void store(const z3::expr& addr64, const z3::expr& value, unsigned bytes);

 private:
  unsigned bits_;        // general register width
  int zeroRegister_;     // the hard-wired zero register, or -1
};

}  // namespace patchcheck
