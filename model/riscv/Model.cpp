// RISC-V as the model half of an ISA plug-in (model/IsaModel.h).
#include <array>
#include <string>

#include "encoder/riscv/Decoder.h"
#include "encoder/riscv/Registers.h"
#include "model/ExceptionFrame.h"
#include "model/IsaModel.h"
#include "model/riscv/AbiModel.h"
#include "model/riscv/ControlFlow.h"
#include "model/riscv/ExceptionEntry.h"
#include "model/riscv/RegisterFile.h"

namespace patchcheck::riscv {
namespace {

class RiscvModel final : public IsaModel {
 public:
  RiscvModel()
      : wide_(registerFile(64)), narrow_(registerFile(32)), wideFd_(registerFile(64, true)),
        narrowFd_(registerFile(32, true)) {}

  std::string_view family() const override { return "riscv"; }
  const std::vector<RegisterInfo>& registers(const patchcheck::Target& t) const override {
    if (featuresOf(t).fd) return t.registerBits() == 64 ? wideFd_ : narrowFd_;
    return t.registerBits() == 64 ? wide_ : narrow_;
  }
  std::optional<unsigned> parseRegister(std::string_view n, const patchcheck::Target&) const override {
    return parseGpr(n);
  }
  std::string registerHint(const patchcheck::Target&) const override {
    return " (x0..x31, or the psABI names zero, ra, sp, gp, tp, t0-t6, s0-s11 (fp = s0), a0-a7)";
  }
  const AbiModel& abi(const patchcheck::Target& t) const override { return abiModel(t.registerBits()); }
  z3::expr entryAssumptions(const MachineState& s) const override { return riscv::entryAssumptions(s); }
  void callExternal(MachineState& s, const std::string& name, unsigned tag) const override {
    riscv::callExternal(s, name, tag);
  }

  std::vector<Fault> step(Cpu& cpu, const Instruction& i) const override {
    // Opcode and register fields are always concrete; an immediate may
    // stay symbolic in the term.
    Features ft = featuresOf(cpu.state.target);
    auto bits = uint32_t(i.known);
    unsigned width = 8 * i.bytes;
    z3::expr word = i.term.get_sort().bv_size() == width ? i.term : i.term.extract(width - 1, 0);
    Decoded d = decode(bits, ft.xlen, ft.compressed, ft.fd);
    // The fetch took as many bytes as the first parcel announces
    // (IsaPlugin::instructionLength); anything else is no instruction.
    if (d.length != i.bytes) d = Decoded{};
    return riscv::step(cpu, Fetched{d, bits, word, i.bytes});
  }
  std::optional<z3::expr> undecided(const Cpu& cpu) const override { return riscv::undecided(cpu); }
  void decide(Cpu& cpu, bool taken) const override { riscv::decide(cpu, taken); }
  bool inDelaySlot(const Cpu&) const override { return false; }
  // A trap returns (sret) to sepc, the interrupted instruction, with every
  // register restored; the return path's SC clears the reservation
  // (arch/riscv/kernel/entry.S). The stack side is exceptionBoundary's.
  void interrupt(Cpu& cpu) const override {
    cpu.state.regs[regfile::reservation] = cpu.state.ctx.bool_val(false);
  }
  void exceptionBoundary(MachineState& s) const override { riscv::exceptionBoundary(s); }
  bool dependsOnException(const z3::expr& e) const override { return dependsOnExceptionValue(e); }
  std::string exceptionNote() const override {
    return "an exception at an instruction boundary may overwrite the frame below sp (the kernel's "
           "trap entry saves struct pt_regs there) and end an LR reservation: this counterexample relies on it";
  }

 private:
  std::vector<RegisterInfo> wide_, narrow_, wideFd_, narrowFd_;
};

}  // namespace

const IsaModel& model() {
  static const RiscvModel m;
  return m;
}

}  // namespace patchcheck::riscv
