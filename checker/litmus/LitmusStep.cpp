#include "checker/litmus/LitmusStep.h"

#include <algorithm>

#include "model/ConcreteProgram.h"
#include "model/ConcreteValues.h"

namespace patchcheck::litmus {

namespace {

// One instruction through the plug-in's semantics: the word it is given,
// then the run ends (model/ConcreteProgram.h).
class OneStep final : public ConcreteProgram {
 public:
  explicit OneStep(uint32_t word) : word_(word) {}
  std::optional<patchcheck::Instruction> fetch(Execution& e) override {
    if (given_) {
      pc = concreteValue(e.cpu.pc).value_or(0);
      return end(e, "stepped");
    }
    given_ = true;
    return patchcheck::Instruction{e.cpu.state.ctx.bv_val(word_, 32), word_, 4};
  }

 private:
  uint32_t word_;
  bool given_ = false;
};

void put(std::string& k, uint64_t v) { k.append(reinterpret_cast<const char*>(&v), sizeof v); }

}  // namespace

std::string StepSemantics::keyOf(uint32_t word, uint64_t pc, const std::vector<uint64_t>& regs) {
  std::string key;
  key.reserve(16 + 8 * regs.size());
  put(key, word), put(key, pc);
  for (uint64_t r : regs) put(key, r);
  return key;
}

const StepOutcome& StepSemantics::withMemory(std::string key, uint32_t word, uint64_t pc,
                                             const std::vector<uint64_t>& regs, const Memory& memory) {
  key.reserve(key.size() + 9 * memory.size());
  for (const auto& [a, b] : memory) put(key, a), key.push_back(char(b));
  auto it = seen_.find(key);
  if (it == seen_.end()) it = seen_.emplace(std::move(key), run(word, pc, regs, memory)).first;
  return it->second;
}

StepOutcome StepSemantics::run(uint32_t word, uint64_t pc, const std::vector<uint64_t>& regs, const Memory& memory) {
  MachineState s(c_, target_);
  s.concrete = true;
  for (unsigned r = 0; r < regs_.size(); ++r)
    if (!regs_[r].zero) s.regs[r] = regs_[r].bits ? c_.bv_val(regs[r], regs_[r].bits) : c_.bool_val(regs[r] != 0);
  for (const auto& [a, b] : memory) {
    if (b == 0) continue;  // the state's memory is zero already: a shorter chain
    s.memory = z3::store(s.memory, c_.bv_val(a, 64), c_.bv_val(b, 8));
  }

  OneStep one(word);
  Execution& e = one.run(std::move(s), pc, 2);
  const MachineState& after = e.cpu.state;

  StepOutcome out;
  for (const SideEffect& fx : after.effects) {
    StepEffect se{fx.ordering, fx.kind, concreteValue(fx.address), bool(fx.value), std::nullopt, fx.what};
    if (fx.value) se.value = concreteValue(*fx.value);
    out.effects.push_back(std::move(se));
  }
  for (const z3::expr& a : after.loaded) out.loaded.push_back(concreteValue(a));
  for (const z3::expr& a : after.stored)
    if (auto v = concreteValue(a)) out.storedBytes.push_back(*v);
  out.regs.resize(regs_.size());
  for (unsigned r = 0; r < regs_.size(); ++r)
    if (!regs_[r].zero) out.regs[r] = concreteValue(after.regs[r]);

  // The stored bytes as runs of consecutive addresses, one store each.
  std::vector<uint64_t> bytes = out.storedBytes;
  std::sort(bytes.begin(), bytes.end());
  bytes.erase(std::unique(bytes.begin(), bytes.end()), bytes.end());
  for (size_t k = 0; k < bytes.size();) {
    size_t j = k;
    while (j + 1 < bytes.size() && bytes[j + 1] == bytes[j] + 1) ++j;
    StepStore st{bytes[k], unsigned(j - k + 1), 0};
    for (unsigned b = 0; b < std::min(st.bytes, 8u); ++b)  // loadByte, not concreteBytes: see above
      st.value |= concreteValue(after.loadByte(c_.bv_val(st.address + b, 64))).value_or(0) << (8 * b);
    out.stores.push_back(st);
    k = j + 1;
  }
  for (const Fault& f : one.faults) out.faults.push_back({f.kind, f.detail});
  out.stop = one.stop;
  out.pc = one.pc;
  return out;
}

}  // namespace patchcheck::litmus
