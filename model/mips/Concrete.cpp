#include "model/mips/Concrete.h"

#include "encoder/mips/Decoder.h"
#include "encoder/mips/Plugin.h"
#include "model/ConcreteProgram.h"


namespace patchcheck::mips {

Instruction fetchWord(z3::context& c, uint32_t word) { return Instruction{c.bv_val(word, 32), word, 4}; }

Fetched decodedWord(z3::context& c, uint32_t word, Isa isa) {
  return Fetched{decode(word, isa), word, c.bv_val(word, 32)};
}

std::optional<uint64_t> ConcreteRun::byte(uint64_t address) const {
  return concreteValue(state.loadByte(state.ctx.bv_val(address, 64)));
}

std::vector<std::optional<uint8_t>> ConcreteRun::bytes(uint64_t address, size_t n) const {
  return concreteBytes(state, address, n);
}

namespace {

// The program's words at their addresses, and the interrupts the run asks for.
class Program final : public ConcreteProgram {
 public:
  Program(z3::context& c, const ConcreteStart& s) : c_(c), s_(s), end_(s.base + 4 * s.words.size()) {}

  std::optional<Instruction> fetch(Execution& e) override {
    for (;;) {
      auto at = concreteValue(e.cpu.pc);
      if (!at) return end(e, "symbolic pc");
      pc = *at;
      bool inside = pc >= s_.base && pc < end_;
      if (!e.cpu.slot && !inside) return end(e, "left the program");
      if (nextInterrupt_ < s_.interruptBefore.size() && s_.interruptBefore[nextInterrupt_] == e.steps) {
        ++nextInterrupt_;
        e.cpu.interrupt();
        continue;
      }
      if (!inside || (pc & 3)) return end(e, "delay slot outside the program");
      return fetchWord(c_, s_.words[(pc - s_.base) / 4]);
    }
  }

 private:
  z3::context& c_;
  const ConcreteStart& s_;
  uint64_t end_;
  size_t nextInterrupt_ = 0;
};

}  // namespace

ConcreteRun runConcrete(z3::context& c, const ConcreteStart& start) {
  MachineState s(c, neutral(start.target));
  s.concrete = true;
  unsigned w = s.width();
  for (unsigned r = 1; r < 32; ++r) s.regs[r] = c.bv_val(start.gpr[r], w);
  s.regs[reg::hi] = c.bv_val(start.hi, w);
  s.regs[reg::lo] = c.bv_val(start.lo, w);
  for (const auto& block : start.memory)
    for (size_t i = 0; i < block.bytes.size(); ++i)
      s.memory = z3::store(s.memory, c.bv_val(block.address + i, 64), c.bv_val(block.bytes[i], 8));

  Program program(c, start);
  Execution& e = program.run(std::move(s), start.base, start.maxSteps);
  return ConcreteRun{std::move(e.cpu.state), program.pc, e.steps, std::move(program.faults), program.stop};
}

}  // namespace patchcheck::mips
