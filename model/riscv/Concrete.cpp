#include "model/riscv/Concrete.h"

#include "model/ConcreteProgram.h"
#include "model/riscv/RegisterFile.h"

namespace patchcheck::riscv {

Instruction fetchInstruction(z3::context& c, uint32_t bits) {
  unsigned n = lengthOf(uint16_t(bits)) == 2 ? 2 : 4;
  if (n == 2) bits &= 0xffff;
  return Instruction{c.bv_val(bits, 8 * n), bits, n};
}

namespace {

// The program's parcels at their addresses.
class Program final : public ConcreteProgram {
 public:
  Program(z3::context& c, const ConcreteStart& s) : c_(c), s_(s), end_(s.base + s.code.size()) {}

  std::optional<Instruction> fetch(Execution& e) override {
    auto at = concreteValue(e.cpu.pc);
    if (!at) return end(e, "symbolic pc");
    pc = *at;
    if (pc < s_.base || pc >= end_) return end(e, "left the program");
    if (pc & 1) return end(e, "misaligned pc");
    size_t i = pc - s_.base;
    uint32_t bits = s_.code[i] | uint32_t(i + 1 < s_.code.size() ? s_.code[i + 1] : 0) << 8;
    if (lengthOf(uint16_t(bits)) != 2) {
      if (i + 4 > s_.code.size()) return end(e, "instruction runs past the program");
      bits |= uint32_t(s_.code[i + 2]) << 16 | uint32_t(s_.code[i + 3]) << 24;
    }
    return fetchInstruction(c_, bits);
  }

 private:
  z3::context& c_;
  const ConcreteStart& s_;
  uint64_t end_;
};

}  // namespace

std::optional<uint64_t> ConcreteRun::floatReg(unsigned r) const {
  if (state.regs.size() <= regfile::fsOn || r > 33) return std::nullopt;
  return concreteValue(state.reg(r < 32 ? regfile::f(r) : r == 32 ? regfile::fflags : regfile::frm));
}

ConcreteRun runConcrete(z3::context& c, const ConcreteStart& start) {
  MachineState s(c, start.target);
  s.concrete = true;
  unsigned w = s.width();
  for (unsigned r = 1; r < 32; ++r) s.regs[r] = c.bv_val(w == 64 ? start.x[r] : uint32_t(start.x[r]), w);
  // QEMU's harts start without a reservation.
  s.regs[regfile::reservation] = c.bool_val(false);
  if (s.regs.size() > regfile::fsOn) {
    for (unsigned r = 0; r < 32; ++r) s.regs[regfile::f(r)] = c.bv_val(start.f[r], 64);
    s.regs[regfile::fflags] = c.bv_val(start.fflags & 31u, 5);
    s.regs[regfile::frm] = c.bv_val(start.frm & 7u, 3);
    s.regs[regfile::fsOn] = c.bool_val(start.fsOn);
  }
  for (const auto& block : start.memory)
    for (size_t i = 0; i < block.bytes.size(); ++i)
      s.memory = z3::store(s.memory, c.bv_val(block.address + i, 64), c.bv_val(block.bytes[i], 8));

  Program program(c, start);
  Execution& e = program.run(std::move(s), start.base, start.maxSteps);
  return ConcreteRun{std::move(e.cpu.state), program.pc, e.steps, std::move(program.faults), program.stop};
}

}  // namespace patchcheck::riscv
