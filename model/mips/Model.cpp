// MIPS as the model half of an ISA plug-in (model/IsaModel.h).
#include <array>

#include "encoder/mips/Decoder.h"
#include "encoder/mips/Plugin.h"
#include "encoder/mips/Registers.h"
#include "model/IsaModel.h"
#include "model/mips/AbiModel.h"
#include "model/mips/ControlFlow.h"
#include "model/mips/ExceptionEntry.h"

namespace patchcheck::mips {
namespace {

std::vector<RegisterInfo> registerFile(const Target& t) {
  std::vector<RegisterInfo> file(reg::count);
  unsigned w = t.gprBits();
  for (unsigned r = 0; r < 32; ++r) file[r] = RegisterInfo{std::string(gprName(r, t.abi)), w, r == 0, true, r != 0};
  // HI and LO do not exist in R6 (they stay zero); LLbit is unknown at entry.
  file[reg::hi] = RegisterInfo{"hi", w, false, false, !t.isR6()};
  file[reg::lo] = RegisterInfo{"lo", w, false, false, !t.isR6()};
  file[reg::llbit] = RegisterInfo{"llbit", 0, false, false, true};
  return file;
}

class MipsModel final : public IsaModel {
 public:
  MipsModel() {
    for (unsigned v = 0; v < 4; ++v)
      for (unsigned a = 0; a < 3; ++a) files_[v][a] = registerFile(Target{Isa(v), Endian::Big, Abi(a)});
  }

  std::string_view family() const override { return plugin().family(); }

  const std::vector<RegisterInfo>& registers(const patchcheck::Target& t) const override {
    return files_[t.variant][t.abi];
  }
  std::optional<unsigned> parseRegister(std::string_view n, const patchcheck::Target& t) const override {
    return parseGpr(n, targetOf(t).abi);
  }
  std::string registerHint(const patchcheck::Target& t) const override {
    return targetOf(t).abi == Abi::O32 ? "" : " (there t0..t3 are $12..$15, a4..a7 are $8..$11)";
  }
  const AbiModel& abi(const patchcheck::Target& t) const override { return abiModel(targetOf(t).abi); }
  z3::expr entryAssumptions(const MachineState& s) const override { return mips::entryAssumptions(s); }
  void callExternal(MachineState& s, const std::string& name, unsigned tag) const override {
    mips::callExternal(s, name, tag);
  }

  std::vector<Fault> step(Cpu& cpu, const Instruction& i) const override {
    // Opcode and register fields are always concrete, so the row comes from
    // the known bits; the immediate may stay symbolic in the term.
    auto bits = uint32_t(i.known);
    return mips::step(cpu, Fetched{decode(bits, Isa(cpu.state.target.variant)), bits, i.term});
  }
  std::optional<z3::expr> undecided(const Cpu& cpu) const override { return mips::undecided(cpu); }
  void decide(Cpu& cpu, bool taken) const override { mips::decide(cpu, taken); }
  bool inDelaySlot(const Cpu& cpu) const override { return mips::inDelaySlot(cpu); }
  void interrupt(Cpu& cpu) const override { mips::interrupt(cpu); }
  void exceptionBoundary(MachineState& s) const override { mips::exceptionBoundary(s); }
  bool dependsOnException(const z3::expr& e) const override { return mips::dependsOnException(e); }
  std::string exceptionNote() const override {
    return "an exception at an instruction boundary may overwrite k0, k1 and the frame below sp "
           "(the kernel's exception entry): this counterexample relies on it";
  }

 private:
  std::array<std::array<std::vector<RegisterInfo>, 3>, 4> files_;
};

}  // namespace

const IsaModel& model() {
  static const MipsModel m;
  return m;
}

}  // namespace patchcheck::mips
