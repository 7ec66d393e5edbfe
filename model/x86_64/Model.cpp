// x86-64 as the model half of an ISA plug-in (model/IsaModel.h).
#include <string>

#include "encoder/x86_64/Plugin.h"
#include "model/ExceptionFrame.h"
#include "model/IsaModel.h"
#include "model/x86_64/AbiModel.h"
#include "model/x86_64/ControlFlow.h"
#include "model/x86_64/ExceptionEntry.h"
#include "model/x86_64/Registers.h"

namespace patchcheck::x86_64 {
namespace {

std::vector<RegisterInfo> registerFile() {
  std::vector<RegisterInfo> file(reg::count);
  for (unsigned r = 0; r < 16; ++r) file[r] = RegisterInfo{std::string(reg::kGprNames[r]), 64, false, true, true};
  for (auto [r, n] : {std::pair{reg::cf, "cf"}, {reg::pf, "pf"}, {reg::af, "af"}, {reg::zf, "zf"}, {reg::sf, "sf"},
                      {reg::of, "of"}})
    file[r] = RegisterInfo{n, 0, false, false, true};
  // DF is clear at a function's entry (and return): the ABI says so.
  file[reg::df] = RegisterInfo{"df", 0, false, false, false};
  file[reg::sysflags] = RegisterInfo{"sysflags", 64, false, false, true};
  return file;
}

class X86Model final : public IsaModel {
 public:
  X86Model() : file_(registerFile()) {}

  std::string_view family() const override { return plugin().family(); }
  const std::vector<RegisterInfo>& registers(const patchcheck::Target&) const override { return file_; }
  std::optional<unsigned> parseRegister(std::string_view n, const patchcheck::Target&) const override {
    if (!n.empty() && n.front() == '%') n.remove_prefix(1);
    for (unsigned r = 0; r < 16; ++r)
      if (reg::kGprNames[r] == n) return r;
    return std::nullopt;
  }
  std::string registerHint(const patchcheck::Target&) const override {
    return " (rax, rbx, rcx, rdx, rsi, rdi, rbp, rsp, r8..r15, with or without %; eax, ax, al and the like are "
           "parts of these, not registers of their own)";
  }
  const AbiModel& abi(const patchcheck::Target&) const override { return abiModel(); }
  z3::expr entryAssumptions(const MachineState& s) const override { return x86_64::entryAssumptions(s); }
  void callExternal(MachineState& s, const std::string& name, unsigned tag) const override {
    x86_64::callExternal(s, name, tag);
  }

  std::vector<Fault> step(Cpu& cpu, const Instruction& i) const override { return x86_64::step(cpu, i); }
  std::optional<z3::expr> undecided(const Cpu& cpu) const override { return x86_64::undecided(cpu); }
  void decide(Cpu& cpu, bool taken) const override { x86_64::decide(cpu, taken); }
  bool inDelaySlot(const Cpu&) const override { return false; }
  // An interrupt returns (IRET) to the interrupted instruction with every
  // register and RFLAGS restored: nothing of the CPU changes here; what
  // the entry may leave on the stack is exceptionBoundary's.
  void interrupt(Cpu&) const override {}
  void exceptionBoundary(MachineState& s) const override { x86_64::exceptionBoundary(s); }
  bool dependsOnException(const z3::expr& e) const override { return dependsOnExceptionValue(e); }
  std::string exceptionNote() const override {
    return "an interrupt or exception at an instruction boundary may overwrite the stack below rsp (the CPU "
           "pushes its frame there, the kernel's entry saves struct pt_regs below it and the handler runs "
           "further down; the kernel has no red zone): this counterexample relies on it";
  }

 private:
  std::vector<RegisterInfo> file_;
};

}  // namespace

const IsaModel& model() {
  static const X86Model m;
  return m;
}

}  // namespace patchcheck::x86_64
