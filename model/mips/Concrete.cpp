#include "model/mips/Concrete.h"

#include "encoder/mips/Decoder.h"
#include "encoder/mips/Plugin.h"


namespace patchcheck::mips {

std::optional<uint64_t> concreteValue(const z3::expr& e) {
  uint64_t out = 0;
  if (e.is_numeral() && e.is_numeral_u64(out)) return out;
  z3::expr v = e.simplify();
  if (v.is_bool()) {
    if (v.is_true()) return 1;
    if (v.is_false()) return 0;
    return std::nullopt;
  }
  if (v.is_numeral() && v.is_numeral_u64(out)) return out;
  return std::nullopt;
}

Instruction fetchWord(z3::context& c, uint32_t word) { return Instruction{c.bv_val(word, 32), word, 4}; }

Fetched decodedWord(z3::context& c, uint32_t word, Isa isa) {
  return Fetched{decode(word, isa), word, c.bv_val(word, 32)};
}

std::optional<uint64_t> ConcreteRun::byte(uint64_t address) const {
  return concreteValue(state.loadByte(state.ctx.bv_val(address, 64)));
}

std::vector<std::optional<uint8_t>> ConcreteRun::bytes(uint64_t address, size_t n) const {
  std::vector<std::optional<uint8_t>> out(n);
  std::vector<bool> done(n, false);
  size_t left = n;
  z3::expr m = state.memory;
  // Newest store first: the first store to an address decides its byte.
  while (left > 0 && m.is_app()) {
    Z3_decl_kind k = m.decl().decl_kind();
    if (k == Z3_OP_CONST_ARRAY) {
      auto v = concreteValue(m.arg(0));
      for (size_t i = 0; i < n; ++i)
        if (!done[i] && v) out[i] = uint8_t(*v);
      return out;
    }
    if (k != Z3_OP_STORE) break;
    auto at = concreteValue(m.arg(1));
    if (!at) break;
    if (*at >= address && *at - address < n && !done[*at - address]) {
      auto v = concreteValue(m.arg(2));
      if (v) out[*at - address] = uint8_t(*v);
      done[*at - address] = true;
      --left;
    }
    m = m.arg(0);
  }
  for (size_t i = 0; i < n; ++i)
    if (!done[i]) out[i] = byte(address + i);
  return out;
}

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

  Cpu cpu(std::move(s), c.bv_val(start.base, 64));
  struct {
    uint64_t pc = 0;
    unsigned steps = 0;
    std::vector<Fault> faults;
    std::string stop;
  } run;
  size_t nextInterrupt = 0;
  uint64_t end = start.base + 4 * start.words.size();
  for (;;) {
    auto pc = concreteValue(cpu.pc);
    if (!pc) {
      run.stop = "symbolic pc";
      break;
    }
    run.pc = *pc;
    if (!cpu.slot && (*pc < start.base || *pc >= end)) {
      run.stop = "left the program";
      break;
    }
    if (run.steps >= start.maxSteps) {
      run.stop = "step limit";
      break;
    }
    if (nextInterrupt < start.interruptBefore.size() && start.interruptBefore[nextInterrupt] == run.steps) {
      ++nextInterrupt;
      cpu.interrupt();
      continue;
    }
    if (*pc < start.base || *pc >= end || (*pc & 3)) {
      run.stop = "delay slot outside the program";
      break;
    }
    uint32_t word = start.words[(*pc - start.base) / 4];
    std::vector<Fault> faults = cpu.step(fetchWord(c, word));
    ++run.steps;
    for (const Fault& f : faults)
      if (auto happened = concreteValue(f.when); happened && *happened) run.faults.push_back(f);
    if (!run.faults.empty()) {
      run.stop = "fault";
      break;
    }
  }
  return ConcreteRun{std::move(cpu.state), run.pc, run.steps, std::move(run.faults), run.stop};
}

}  // namespace patchcheck::mips
