#include "model/arm64/Concrete.h"

#include "encoder/arm64/Decoder.h"
#include "model/ConcreteProgram.h"

namespace patchcheck::arm64 {

Instruction fetchWord(z3::context& c, uint32_t word) { return Instruction{c.bv_val(word, 32), word, 4}; }

Fetched decodedWord(z3::context& c, uint32_t word) { return Fetched{decode(word), word, c.bv_val(word, 32)}; }

namespace {

// The program's words at their addresses.
class Program final : public ConcreteProgram {
 public:
  Program(z3::context& c, const ConcreteStart& s) : c_(c), s_(s), end_(s.base + 4 * s.words.size()) {}

  std::optional<Instruction> fetch(Execution& e) override {
    auto at = concreteValue(e.cpu.pc);
    if (!at) return end(e, "symbolic pc");
    pc = *at;
    if (pc < s_.base || pc >= end_) return end(e, "left the program");
    if (pc & 3) return end(e, "misaligned pc");
    return fetchWord(c_, s_.words[(pc - s_.base) / 4]);
  }

 private:
  z3::context& c_;
  const ConcreteStart& s_;
  uint64_t end_;
};

}  // namespace

ConcreteRun runConcrete(z3::context& c, const ConcreteStart& start) {
  MachineState s(c, start.target);
  s.concrete = true;
  for (unsigned r = 0; r < 31; ++r) s.regs[r] = c.bv_val(start.x[r], 64);
  s.regs[reg::sp] = c.bv_val(start.sp, 64);
  s.regs[reg::n] = c.bool_val(start.n);
  s.regs[reg::z] = c.bool_val(start.z);
  s.regs[reg::c] = c.bool_val(start.c);
  s.regs[reg::v] = c.bool_val(start.v);
  for (const auto& block : start.memory)
    for (size_t i = 0; i < block.bytes.size(); ++i)
      s.memory = z3::store(s.memory, c.bv_val(block.address + i, 64), c.bv_val(block.bytes[i], 8));

  Program program(c, start);
  Execution& e = program.run(std::move(s), start.base, start.maxSteps);
  return ConcreteRun{std::move(e.cpu.state), program.pc, e.steps, std::move(program.faults), program.stop};
}

}  // namespace patchcheck::arm64
