#include "tests/bruteforce/Outcome.h"

#include <cstdio>

#include "encoder/Registers.h"
#include "model/Concrete.h"

namespace bruteforce {
namespace {

std::string hex(uint64_t v) {
  char b[32];
  snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
  return b;
}

uint64_t widthMask(const mips::Target& t) { return t.is64() ? ~0ull : 0xffffffffull; }

std::string liveRegistersChanged(const mips::Target& t, const std::array<uint64_t, 32>& entry,
                                 const mips::MachineState& now) {
  for (unsigned r = 1; r < 32; ++r) {
    if (!liveAtEntry(r, t.abi)) continue;
    auto v = mips::concreteValue(now.reg(r));
    if (!v) return "register $" + std::to_string(r) + " is not concrete";
    if (*v != (entry[r] & widthMask(t)))
      return std::string(mips::gprName(r, t.abi)) + " clobbered: " + hex(entry[r] & widthMask(t)) + " -> " + hex(*v);
  }
  return "";
}

// The concrete memory starts as the all-zero array; every store the pass did
// is a store() node on top of it. Each stored address at or above the entry
// sp must still hold what it held (zero).
std::string memoryAboveSpChanged(const mips::Target& t, const std::array<uint64_t, 32>& entry,
                                 const mips::MachineState& now) {
  uint64_t sp = t.is64() ? entry[29] : uint64_t(int64_t(int32_t(uint32_t(entry[29]))));
  z3::expr m = now.memory;
  while (m.is_app() && m.decl().decl_kind() == Z3_OP_STORE) {
    auto a = mips::concreteValue(m.arg(1));
    if (!a) return "a store to a symbolic address";
    if (*a >= sp) {
      auto now8 = mips::concreteValue(z3::select(now.memory, m.arg(1)));
      if (!now8 || *now8 != 0) return "memory at " + hex(*a) + " (at or above the entry sp) changed";
    }
    m = m.arg(0);
  }
  return "";
}

std::string conditionsFail(const patchcheck::OutcomeSpec& o, const mips::Target& t, const mips::MachineState& now) {
  for (const auto& c : o.with) {
    auto r = mips::parseGpr(c.reg, t.abi);
    if (!r) return "unknown register " + c.reg;
    auto v = mips::concreteValue(now.reg(*r));
    if (!v || *v != (c.value & widthMask(t)))
      return "condition " + c.reg + " == " + std::to_string(c.value) + " fails: " + (v ? hex(*v) : "?");
  }
  return "";
}

}  // namespace

bool liveAtEntry(unsigned r, mips::Abi abi) {
  unsigned lastArg = abi == mips::Abi::O32 ? 7 : 11;
  return (r >= 4 && r <= lastArg) || (r >= 16 && r <= 23) || r == 28 || r == 29 || r == 30 || r == 31;
}

Judgement judge(const patchcheck::BehaviourSpec& allowed, const Exit& at, const mips::Target& t,
                const std::array<uint64_t, 32>& entry, const mips::MachineState& now) {
  using Kind = patchcheck::OutcomeSpec::Kind;
  Judgement j;
  bool applicable = false;
  for (const auto& o : allowed.alternatives) {
    bool here = at.atSymbol ? (o.kind != Kind::Untraced && o.target == at.symbol) : o.kind == Kind::Untraced;
    if (!here) continue;
    applicable = true;
    std::string why = liveRegistersChanged(t, entry, now);
    if (why.empty()) why = memoryAboveSpChanged(t, entry, now);
    if (why.empty() && o.kind == Kind::Call) why = conditionsFail(o, t, now);
    if (why.empty()) {
      j.ok = true;
      j.held = o.str();
      return j;
    }
    if (j.why.empty()) j.why = o.str() + ": " + why;
  }
  if (!applicable)
    j.why = (at.atSymbol ? "reaches " + at.symbol : std::string("runs F's body untraced")) +
            ", not in the allowed set " + allowed.str();
  return j;
}

}  // namespace bruteforce
