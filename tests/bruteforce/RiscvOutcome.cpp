#include "tests/bruteforce/RiscvOutcome.h"

#include <algorithm>

#include "encoder/Hex.h"
#include "encoder/riscv/Registers.h"
#include "model/ConcreteValues.h"

namespace bruteforce::rv {
namespace {

using patchcheck::concreteValue;
using patchcheck::hex;
namespace riscv = patchcheck::riscv;

constexpr unsigned kRa = 1, kSp = 2;

// RISC-V psABI, "Integer Register Convention": ra, sp, gp, tp; the
// arguments a0-a7 (x10-x17); the callee-saved s0-s11 (x8, x9, x18-x27).
bool liveAtEntry(unsigned r) { return (r >= 1 && r <= 4) || r == 8 || r == 9 || (r >= 10 && r <= 27); }

std::string name(unsigned r) { return std::string(riscv::gprName(r)); }

std::string liveChanged(uint64_t mask, const std::array<uint64_t, 32>& entry, const patchcheck::MachineState& now,
                        const std::vector<unsigned>& except = {}) {
  for (unsigned r = 1; r < 32; ++r) {
    if (!liveAtEntry(r) || std::find(except.begin(), except.end(), r) != except.end()) continue;
    auto v = concreteValue(now.reg(r));
    if (!v) return name(r) + " is not concrete";
    if (*v != (entry[r] & mask)) return name(r) + " clobbered: " + hex(entry[r] & mask) + " -> " + hex(*v);
  }
  return "";
}

// Concrete memory starts all zero; each store is a store() node on it.
std::string memoryAboveSpChanged(bool wide, const std::array<uint64_t, 32>& entry, const patchcheck::MachineState& now) {
  uint64_t sp = wide ? entry[kSp] : uint64_t(int64_t(int32_t(uint32_t(entry[kSp]))));
  z3::expr m = now.memory;
  while (m.is_app() && m.decl().decl_kind() == Z3_OP_STORE) {
    auto a = concreteValue(m.arg(1));
    if (!a) return "a store to a symbolic address";
    if (*a >= sp) {
      auto v = concreteValue(z3::select(now.memory, m.arg(1)));
      if (!v || *v != 0) return "memory at " + hex(*a) + " (at or above the entry sp) changed";
    }
    m = m.arg(0);
  }
  return "";
}

std::string contractBroken(const EntryRule& e, uint64_t mask, const std::array<uint64_t, 32>& entry,
                           const patchcheck::MachineState& now, uint64_t resume) {
  auto value = [&](unsigned r) { return concreteValue(now.reg(r)).value_or(~0ull); };
  std::vector<unsigned> except{e.resume};
  if (value(e.resume) != (resume & mask))
    return name(e.resume) + " holds " + hex(value(e.resume)) + ", not the resume address " + hex(resume & mask);
  if (e.savedRa) {
    except.push_back(*e.savedRa);
    except.push_back(kRa);
    if (value(*e.savedRa) != (entry[kRa] & mask)) return name(*e.savedRa) + " does not hold the caller's ra";
  }
  if (e.stackAdjust) {
    except.push_back(kSp);
    if (value(kSp) != ((entry[kSp] + uint64_t(e.stackAdjust)) & mask)) return "sp is not entry sp + stack_adjust";
  }
  except.insert(except.end(), e.clobbers.begin(), e.clobbers.end());
  return liveChanged(mask, entry, now, except);
}

std::string conditionsFail(const patchcheck::OutcomeSpec& o, uint64_t mask, const patchcheck::MachineState& now) {
  for (const auto& c : o.with) {
    auto r = riscv::parseGpr(c.reg);
    if (!r) return "unknown register " + c.reg;
    auto v = concreteValue(now.reg(*r));
    if (!v || *v != (c.value & mask))
      return "condition " + c.reg + " == " + std::to_string(c.value) + " fails: " + (v ? hex(*v) : "?");
  }
  return "";
}

}  // namespace

Judgement judge(const patchcheck::BehaviourSpec& allowed, const Exit& at, bool wide, const std::array<uint64_t, 32>& entry,
                const patchcheck::MachineState& now, const std::vector<EntryRule>& entries, uint64_t resume) {
  using Kind = patchcheck::OutcomeSpec::Kind;
  uint64_t mask = wide ? ~0ull : 0xffffffffull;
  Judgement j;
  bool applicable = false;
  bool hasCode = std::any_of(entries.begin(), entries.end(), [&](const EntryRule& e) { return e.callee == at.symbol; });
  for (const auto& o : allowed.alternatives) {
    bool here = at.atSymbol ? (o.kind != Kind::Untraced && o.target == at.symbol) : o.kind == Kind::Untraced;
    uint64_t reached = at.entry ? uint64_t(at.entry->offset) : at.offset;
    if (at.atSymbol && o.kind == Kind::Enter && reached != 0) here = false;
    if (at.atSymbol && o.kind == Kind::Call && (o.offset ? o.offset != reached : reached != 0 && !at.entry)) here = false;
    if (!here) continue;
    applicable = true;
    std::string why;
    if (o.kind == Kind::Call && hasCode)
      why = at.entry ? contractBroken(*at.entry, mask, entry, now, resume) : at.symbol + " is reached at no entry its contract lists";
    else if (o.kind == Kind::Call)
      why = "call " + o.target + ": no trampoline contract (not enumerated)";
    else
      why = liveChanged(mask, entry, now);
    if (why.empty()) why = memoryAboveSpChanged(wide, entry, now);
    if (why.empty() && o.kind == Kind::Call) why = conditionsFail(o, mask, now);
    if (why.empty()) {
      j.ok = true;
      j.held = o.str();
      return j;
    }
    if (j.why.empty()) j.why = o.str() + ": " + why;
  }
  if (!applicable)
    j.why = (at.atSymbol ? "reaches " + at.symbol : std::string("runs F's body untraced")) + ", not in the allowed set " +
            allowed.str();
  return j;
}

}  // namespace bruteforce::rv
