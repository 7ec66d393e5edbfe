#include "model/x86_64/Concrete.h"

#include <Zydis/Zydis.h>

#include <algorithm>

#include "model/ConcreteProgram.h"
#include "model/x86_64/Decoded.h"

namespace patchcheck::x86_64 {

Instruction fetchBytes(z3::context& c, const uint8_t* bytes, unsigned n) {
  uint64_t known = 0;
  for (unsigned k = 0; k < n && k < 8; ++k) known |= uint64_t(bytes[k]) << (8 * k);
  return Instruction{instructionTerm(c, bytes, n), known, n};
}

namespace {

// The program's bytes at their addresses; each fetch takes as many as the
// decoder says the instruction has (all that are left, at most 15, when
// they hold none: the step is then #UD).
class Program final : public ConcreteProgram {
 public:
  Program(z3::context& c, const ConcreteStart& s) : c_(c), s_(s), end_(s.base + s.code.size()) {
    ZydisDecoderInit(&decoder_, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
  }

  std::optional<Instruction> fetch(Execution& e) override {
    auto at = concreteValue(e.cpu.pc);
    if (!at) return end(e, "symbolic pc");
    pc = *at;
    if (pc < s_.base || pc >= end_) return end(e, "left the program");
    const uint8_t* p = s_.code.data() + (pc - s_.base);
    unsigned left = unsigned(std::min<uint64_t>(end_ - pc, ZYDIS_MAX_INSTRUCTION_LENGTH));
    ZydisDecodedInstruction insn;
    ZyanStatus st = ZydisDecoderDecodeInstruction(&decoder_, nullptr, p, left, &insn);
    if (st == ZYDIS_STATUS_NO_MORE_DATA && left < ZYDIS_MAX_INSTRUCTION_LENGTH)
      return end(e, "an instruction runs past the program's end");
    return fetchBytes(c_, p, ZYAN_SUCCESS(st) ? insn.length : left);
  }

 private:
  z3::context& c_;
  const ConcreteStart& s_;
  uint64_t end_;
  ZydisDecoder decoder_;
};

}  // namespace

ConcreteRun runConcrete(z3::context& c, const ConcreteStart& start) {
  MachineState s(c, start.target);
  s.concrete = true;
  for (unsigned r = 0; r < 16; ++r) s.regs[r] = c.bv_val(start.r[r], 64);
  s.regs[reg::cf] = c.bool_val(start.cf);
  s.regs[reg::pf] = c.bool_val(start.pf);
  s.regs[reg::af] = c.bool_val(start.af);
  s.regs[reg::zf] = c.bool_val(start.zf);
  s.regs[reg::sf] = c.bool_val(start.sf);
  s.regs[reg::of] = c.bool_val(start.of);
  s.regs[reg::df] = c.bool_val(start.df);
  s.regs[reg::sysflags] = c.bv_val(start.sysflags, 64);
  for (const auto& block : start.memory)
    for (size_t i = 0; i < block.bytes.size(); ++i)
      s.memory = z3::store(s.memory, c.bv_val(block.address + i, 64), c.bv_val(block.bytes[i], 8));

  Program program(c, start);
  Execution& e = program.run(std::move(s), start.base, start.maxSteps);
  return ConcreteRun{std::move(e.cpu.state), program.pc, e.steps, std::move(program.faults), program.stop};
}

}  // namespace patchcheck::x86_64
