#include "tests/bruteforce/Outcome.h"

#include <algorithm>

#include "encoder/Hex.h"
#include "encoder/mips/Registers.h"
#include "model/mips/Concrete.h"

namespace bruteforce {
namespace {

using patchcheck::hex;

uint64_t widthMask(const mips::Target& t) { return t.is64() ? ~0ull : 0xffffffffull; }

std::string liveRegistersChanged(const mips::Target& t, const std::array<uint64_t, 32>& entry,
                                 const patchcheck::MachineState& now, const std::vector<unsigned>& except = {}) {
  for (unsigned r = 1; r < 32; ++r) {
    if (!liveAtEntry(r, t.abi)) continue;
    if (std::find(except.begin(), except.end(), r) != except.end()) continue;
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
                                 const patchcheck::MachineState& now) {
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

// The contract of the trampoline entry the pass reached (EntryRules.h).
std::string contractBroken(const EntryRule& e, const mips::Target& t, const std::array<uint64_t, 32>& entry,
                           const patchcheck::MachineState& now, uint64_t resume) {
  uint64_t mask = widthMask(t);
  auto value = [&](unsigned r) { return mips::concreteValue(now.reg(r)).value_or(~0ull); };
  std::vector<unsigned> except{e.resume};
  if ((value(e.resume) & mask) != (resume & mask))
    return std::string(mips::gprName(e.resume, t.abi)) + " holds " + hex(value(e.resume)) + ", not the resume address " +
           hex(resume);
  if (e.savedRa) {
    except.push_back(*e.savedRa);
    except.push_back(31);
    if (value(*e.savedRa) != (entry[31] & mask))
      return std::string(mips::gprName(*e.savedRa, t.abi)) + " does not hold the caller's ra";
  }
  if (e.stackAdjust) {
    except.push_back(29);
    if (value(29) != ((entry[29] + uint64_t(e.stackAdjust)) & mask)) return "sp is not entry sp + stack_adjust";
  }
  except.insert(except.end(), e.clobbers.begin(), e.clobbers.end());
  return liveRegistersChanged(t, entry, now, except);
}

std::string conditionsFail(const patchcheck::OutcomeSpec& o, const mips::Target& t, const patchcheck::MachineState& now) {
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
                const std::array<uint64_t, 32>& entry, const patchcheck::MachineState& now,
                const std::vector<EntryRule>& entries, uint64_t resume) {
  using Kind = patchcheck::OutcomeSpec::Kind;
  Judgement j;
  bool applicable = false;
  bool hasCode = std::any_of(entries.begin(), entries.end(), [&](const EntryRule& e) { return e.callee == at.symbol; });
  for (const auto& o : allowed.alternatives) {
    bool here = at.atSymbol ? (o.kind != Kind::Untraced && o.target == at.symbol) : o.kind == Kind::Untraced;
    uint64_t reached = at.entry ? uint64_t(at.entry->offset) : at.offset;
    if (at.atSymbol && o.kind == Kind::Enter && reached != 0) here = false;  // a function is entered at its symbol
    // `call T + k` names that entry only; `call T` names T, or any entry of T's contract.
    if (at.atSymbol && o.kind == Kind::Call && (o.offset ? o.offset != reached : reached != 0 && !at.entry))
      here = false;
    if (!here) continue;
    applicable = true;
    std::string why;
    if (o.kind == Kind::Call && hasCode) {
      why = at.entry ? contractBroken(*at.entry, t, entry, now, resume) : at.symbol + " is reached at no entry its contract lists";
    } else if (o.kind == Kind::Call) {
      // No contract: ra untouched, or ra = the resume address with the
      // caller's ra in a register that is dead at F's entry (gcc -pg).
      uint64_t mask = widthMask(t);
      uint64_t ra = mips::concreteValue(now.reg(31)).value_or(~0ull);
      bool kept = false;
      for (unsigned r = 1; r < 31; ++r)
        kept = kept || (!liveAtEntry(r, t.abi) && mips::concreteValue(now.reg(r)).value_or(~0ull) == (entry[31] & mask));
      why = liveRegistersChanged(t, entry, now, {31});
      if (why.empty() && ra != (entry[31] & mask) && !(ra == (resume & mask) && kept))
        why = "ra clobbered: " + hex(entry[31] & mask) + " -> " + hex(ra);
    } else {
      why = liveRegistersChanged(t, entry, now);
    }
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
