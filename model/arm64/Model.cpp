// AArch64 as the model half of an ISA plug-in (model/IsaModel.h).
#include <string>

#include "encoder/arm64/Decoder.h"
#include "encoder/arm64/Plugin.h"
#include "encoder/arm64/Registers.h"
#include "model/ExceptionFrame.h"
#include "model/IsaModel.h"
#include "model/arm64/AbiModel.h"
#include "model/arm64/ControlFlow.h"
#include "model/arm64/ExceptionEntry.h"

namespace patchcheck::arm64 {
namespace {

std::vector<RegisterInfo> registerFile() {
  std::vector<RegisterInfo> file(reg::count);
  for (unsigned r = 0; r < 31; ++r) {
    std::string name = "x";  // appended, not "x" + ...: GCC 12's -Wrestrict misfires on that (bug 105329)
    name += std::to_string(r);
    file[r] = RegisterInfo{name, 64, false, true, true};
  }
  file[reg::sp] = RegisterInfo{"sp", 64, false, true, true};
  file[reg::n] = RegisterInfo{"n", 0, false, false, true};
  file[reg::z] = RegisterInfo{"z", 0, false, false, true};
  file[reg::c] = RegisterInfo{"c", 0, false, false, true};
  file[reg::v] = RegisterInfo{"v", 0, false, false, true};
  // PSTATE.BTYPE is 0 at a function's entry: it is reached by a call, and
  // the BTI check of the entry itself belongs to whoever branches there.
  file[reg::btype] = RegisterInfo{"btype", 2, false, false, false};
  return file;
}

// The variant arm64-bti enforces BTI (encoder/arm64/Plugin.cpp).
bool btiEnforced(const patchcheck::Target& t) { return t.variantName() == "arm64-bti"; }

class Arm64Model final : public IsaModel {
 public:
  Arm64Model() : file_(registerFile()) {}

  std::string_view family() const override { return plugin().family(); }
  const std::vector<RegisterInfo>& registers(const patchcheck::Target&) const override { return file_; }
  std::optional<unsigned> parseRegister(std::string_view n, const patchcheck::Target&) const override {
    if (n == "fp") return 29u;
    auto g = parseGpr(n);
    if (!g || !g->wide || (g->number == 31 && !g->sp)) return std::nullopt;  // w-names, xzr
    return g->number;
  }
  std::string registerHint(const patchcheck::Target&) const override {
    return " (x0..x30, lr = x30, fp = x29, sp; w-registers and xzr are not registers of their own)";
  }
  const AbiModel& abi(const patchcheck::Target&) const override { return abiModel(); }
  z3::expr entryAssumptions(const MachineState& s) const override { return arm64::entryAssumptions(s); }
  // Under BTI the entry's landing pad sees the call's BTYPE: 00 after a
  // BL, 10 after a BLR, 01 after a BR x16/x17 (an indirect tail call or a
  // veneer; Arm ARM D8.4). Without BTI nothing checks it: 00.
  std::optional<z3::expr> enteredBy(MachineState& s, bool direct, bool indirect) const override {
    if (!btiEnforced(s.target)) return std::nullopt;
    z3::context& c = s.ctx;
    z3::expr b = c.bv_const("in.btype", 2);
    s.regs[reg::btype] = b;
    z3::expr_vector may(c);
    if (direct) may.push_back(b == c.bv_val(kBtypeNone, 2));
    if (indirect) may.push_back(b == c.bv_val(kBtypeBlr, 2) || b == c.bv_val(kBtypeBrX16X17, 2));
    return z3::mk_or(may);
  }
  void callExternal(MachineState& s, const std::string& name, unsigned tag) const override {
    arm64::callExternal(s, name, tag);
  }

  std::vector<Fault> step(Cpu& cpu, const Instruction& i) const override {
    // Opcode and register fields are always concrete; an immediate may
    // stay symbolic in the term.
    auto bits = uint32_t(i.known);
    z3::expr word = i.term.get_sort().bv_size() == 32 ? i.term : i.term.extract(31, 0);
    return arm64::step(cpu, Fetched{decode(bits), bits, word}, btiEnforced(cpu.state.target));
  }
  std::optional<z3::expr> undecided(const Cpu& cpu) const override { return arm64::undecided(cpu); }
  void decide(Cpu& cpu, bool taken) const override { arm64::decide(cpu, taken); }
  bool inDelaySlot(const Cpu&) const override { return false; }
  // An interrupt returns (ERET) to the next instruction with every
  // register, NZCV and BTYPE restored: nothing of the CPU changes here;
  // what the entry may leave on the stack is exceptionBoundary's.
  void interrupt(Cpu&) const override {}
  void exceptionBoundary(MachineState& s) const override { arm64::exceptionBoundary(s); }
  bool dependsOnException(const z3::expr& e) const override { return dependsOnExceptionValue(e); }
  std::string exceptionNote() const override {
    return "an exception at an instruction boundary may overwrite the frame below sp (the kernel's "
           "exception entry saves struct pt_regs there): this counterexample relies on it";
  }

 private:
  std::vector<RegisterInfo> file_;
};

}  // namespace

const IsaModel& model() {
  static const Arm64Model m;
  return m;
}

}  // namespace patchcheck::arm64
