#include "checker/explore/Behaviour.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "encoder/Hex.h"
#include "model/IsaModel.h"

namespace patchcheck {

uint64_t valueIn(const z3::model& m, const z3::expr& e) {
  z3::expr v = m.eval(e, true);
  if (v.is_bool()) return v.is_true() ? 1 : 0;  // a flag (x86 df): 1 when set
  uint64_t out = 0;
  if (v.is_numeral()) v.is_numeral_u64(out);
  return out;
}

namespace {

z3::expr orAll(z3::context& c, const std::vector<Violation>& vs) {
  z3::expr_vector v(c);
  for (const auto& x : vs) v.push_back(x.when);
  return vs.empty() ? c.bool_val(false) : z3::mk_or(v);
}

std::string firstHolding(const z3::model& m, const std::vector<Violation>& vs) {
  for (const auto& v : vs)
    if (m.eval(v.when, true).is_true()) return v.explain(m);
  return "?";
}

// The memory without its stores at sp + k, k a numeral with -64 KB <= k
// < 0: no address at or above sp reads them, since
// AbiModel::entryAssumptions keeps sp 64 KB away from wrapping (every
// question that asks memoryAboveSp assumes them). A pushed return address
// or a frame then costs no array question.
z3::expr withoutStoresJustBelow(const z3::expr& memory, const z3::expr& sp) {
  std::vector<std::pair<z3::expr, z3::expr>> stores;  // outermost first
  z3::expr m = memory;
  while (m.is_app() && m.decl().decl_kind() == Z3_OP_STORE) {
    stores.emplace_back(m.arg(1), m.arg(2));
    m = m.arg(0);
  }
  bool dropped = false;
  for (auto it = stores.rbegin(); it != stores.rend(); ++it) {
    z3::expr d = (it->first - sp).simplify();
    uint64_t v = 0;
    int64_t k = d.is_numeral() && d.is_numeral_u64(v) ? int64_t(v) : 0;
    if (k < 0 && k >= -0x10000) {
      dropped = true;
      continue;
    }
    m = z3::store(m, it->first, it->second);
  }
  return dropped ? m : memory;
}

// Memory at and above the entry sp must keep its contents: a fresh address
// stands for "any such address" (an existential in one query).
std::optional<Violation> memoryAboveSp(const ExitContext& x) {
  z3::context& c = x.entry.ctx;
  z3::expr a = c.bv_const("probe.addr", 64);
  z3::expr sp = x.entry.address(x.entry.reg(x.abi.sp));
  z3::expr now = withoutStoresJustBelow(x.now.memory, sp);
  if (z3::eq(now, x.entry.memory)) return std::nullopt;
  z3::expr when = z3::uge(a, sp) && z3::select(now, a) != z3::select(x.entry.memory, a);
  return Violation{when, [a, sp](const z3::model& m) {
                     return "memory at " + hex(valueIn(m, a)) + " (at or above the entry sp " +
                            hex(valueIn(m, sp)) + ") changed";
                   }};
}

std::optional<unsigned> resolve(const std::string& name, const MachineState& s) {
  return modelOf(s.target).parseRegister(name, s.target);
}

}  // namespace

std::vector<Violation> liveStateChanged(const ExitContext& x, const std::vector<unsigned>& except) {
  std::vector<Violation> out = liveRegistersChanged(x, except);
  std::vector<Violation> memory = memoryChanged(x);
  out.insert(out.end(), memory.begin(), memory.end());
  return out;
}

std::vector<Violation> memoryChanged(const ExitContext& x) {
  // No store on the way: memory is the entry memory, nothing to ask.
  if (z3::eq(x.now.memory, x.entry.memory)) return {};
  if (auto v = memoryAboveSp(x)) return {*v};
  return {};
}

std::vector<Violation> liveRegistersChanged(const ExitContext& x, const std::vector<unsigned>& except) {
  std::vector<Violation> out;
  for (unsigned r : x.abi.liveAtEntry) {
    if (std::find(except.begin(), except.end(), r) != except.end()) continue;
    z3::expr before = x.entry.reg(r), after = x.now.reg(r);
    if (z3::eq(before, after)) continue;  // untouched: nothing to ask
    std::string name = modelOf(x.entry.target).registers(x.entry.target)[r].name;
    out.push_back(Violation{before != after, [name, before, after](const z3::model& m) {
                              return name + " clobbered: " + hex(valueIn(m, before)) + " at entry, " +
                                     hex(valueIn(m, after)) + " here";
                            }});
  }
  return out;
}

std::vector<Violation> untracedViolations(const ExitContext& x) { return liveStateChanged(x, {}); }

namespace {

// An ABI without a link register (x86: AbiModel::link == sp): a call
// pushes the resume address, so at the callee's entry sp is one slot below
// the entry sp and that slot holds the address where the site resumes.
// A trampoline's contract may place the slot elsewhere ("[rsp+8]" with its
// stack_adjust): `adjust` and `offset` say where.
std::vector<Violation> returnAddressPushed(const ExitContext& x, int64_t adjust, int64_t offset) {
  z3::context& c = x.entry.ctx;
  unsigned slot = x.abi.slotBytes;
  bool pushed1 = adjust == -int64_t(slot) && offset == 0;
  z3::expr sp = x.now.reg(x.abi.sp), want = x.entry.reg(x.abi.sp) + c.bv_val(uint64_t(adjust), x.entry.width());
  z3::expr pushed = x.now.peek(x.now.address(sp) + c.bv_val(uint64_t(offset), 64), slot), resume = x.resumeAddress;
  auto nameAddress = x.nameAddress;
  std::string name = modelOf(x.entry.target).registers(x.entry.target)[x.abi.sp].name;
  std::string where = pushed1 ? "one return-address slot below the entry " + name
                              : "the entry " + name + (adjust < 0 ? " - " + std::to_string(-adjust) : " + " + std::to_string(adjust)) +
                                    " the trampoline's contract wants";
  return {Violation{sp != want,
                    [sp, want, name, where](const z3::model& m) {
                      return name + " is " + hex(valueIn(m, sp)) + " at the call's target, not " + where + " (" +
                             hex(valueIn(m, want)) + ")";
                    }},
          Violation{sp == want && pushed != resume, [pushed, resume, nameAddress](const z3::model& m) {
                      auto show = [&](uint64_t a) { return nameAddress ? nameAddress(a) : hex(a); };
                      return "the return address pushed is " + show(valueIn(m, pushed)) + ", but the site resumes at " +
                             show(valueIn(m, resume));
                    }}};
}

}  // namespace

std::vector<Violation> callViolations(const ExitContext& x, const OutcomeSpec& o,
                                      const TrampolineContract* contract) {
  std::vector<unsigned> except;
  std::vector<Violation> out;
  z3::context& c = x.entry.ctx;
  bool onStack = x.abi.link == x.abi.sp;
  bool slotted = contract && contract->resumeSlot;  // the contract's "[rsp]"
  if (onStack || slotted) {
    except.push_back(x.abi.sp);
    out = slotted ? returnAddressPushed(x, contract->stackAdjust, *contract->resumeSlot)
                  : returnAddressPushed(x, -int64_t(x.abi.slotBytes), 0);
  }
  if (contract) {
    if (slotted) {
      // checked above
    } else if (auto r = resolve(contract->resume, x.now)) {
      except.push_back(*r);
      z3::expr got = x.now.address(x.now.reg(*r));
      z3::expr want = x.resumeAddress;
      std::string name = contract->resume;
      auto nameAddress = x.nameAddress;
      out.push_back(Violation{got != want, [got, want, name, nameAddress](const z3::model& m) {
                                return name + " holds " + nameAddress(valueIn(m, got)) +
                                       " at the trampoline's entry, but the site resumes at " +
                                       nameAddress(valueIn(m, want));
                              }});
    }
    if (contract->savedRa) {
      if (auto r = resolve(*contract->savedRa, x.now)) {
        except.push_back(*r);
        except.push_back(x.abi.link);
        z3::expr got = x.now.reg(*r), want = x.entry.reg(x.abi.link);
        std::string name = *contract->savedRa;
        out.push_back(Violation{got != want, [got, want, name](const z3::model& m) {
                                  return name + " should hold the caller's ra " + hex(valueIn(m, want)) +
                                         " but holds " + hex(valueIn(m, got));
                                }});
      }
    }
    for (const std::string& cl : contract->clobbers)
      if (auto r = resolve(cl, x.now)) except.push_back(*r);
    if (contract->stackAdjust != 0 && !onStack && !slotted) {
      except.push_back(x.abi.sp);
      z3::expr got = x.now.reg(x.abi.sp);
      z3::expr want = x.entry.reg(x.abi.sp) +
                      c.bv_val(uint64_t(contract->stackAdjust), x.entry.width());
      int64_t adj = contract->stackAdjust;
      out.push_back(Violation{got != want, [got, want, adj](const z3::model& m) {
                                return "sp is " + hex(valueIn(m, got)) + " at the trampoline's entry; its contract wants entry sp" +
                                       (adj < 0 ? " - " + std::to_string(-adj) : " + " + std::to_string(adj)) +
                                       " = " + hex(valueIn(m, want));
                              }});
    }
  }
  if (!contract && !onStack) {
    // No trampoline file, so no contract: the call conventions a
    // trampoline can serve are accepted. The link register is either
    // untouched (MIPS `jalr t1, at`), or holds the resume address while a
    // dead register keeps the caller's (gcc -pg's `move at, ra; jal _mcount`).
    except.push_back(x.abi.link);
    z3::expr ra = x.now.reg(x.abi.link), callerRa = x.entry.reg(x.abi.link);
    z3::expr_vector kept(c);
    for (unsigned r : x.abi.dead)
      if (r != x.abi.link) kept.push_back(x.now.reg(r) == callerRa);
    z3::expr linked = x.now.address(ra) == x.resumeAddress && z3::mk_or(kept);
    std::string link = modelOf(x.entry.target).registers(x.entry.target)[x.abi.link].name;
    out.push_back(Violation{ra != callerRa && !linked, [ra, callerRa, link](const z3::model& m) {
                              return link + " clobbered: " + hex(valueIn(m, callerRa)) + " at entry, " +
                                     hex(valueIn(m, ra)) +
                                     " here, which is neither the resume address with the caller's " + link + " kept in "
                                     "a dead register nor the caller's " + link;
                            }});
  }
  auto live = liveStateChanged(x, except);
  out.insert(out.end(), live.begin(), live.end());
  auto conds = conditionViolations(x.now, o);
  out.insert(out.end(), conds.begin(), conds.end());
  return out;
}

std::vector<Violation> conditionViolations(const MachineState& at, const OutcomeSpec& o) {
  std::vector<Violation> out;
  z3::context& c = at.ctx;
  for (const ConditionSpec& cond : o.with) {
    auto r = resolve(cond.reg, at);
    if (!r) continue;  // the loader rejects unknown registers
    z3::expr v = at.reg(*r);
    z3::expr want = c.bv_val(cond.value, at.width());
    std::string name = cond.reg;
    uint64_t expected = cond.value;
    out.push_back(Violation{v != want, [v, name, expected](const z3::model& m) {
                              return "condition " + name + " == " + std::to_string(expected) +
                                     " fails: " + name + " is " + hex(valueIn(m, v));
                            }});
  }
  return out;
}

std::vector<Violation> enterViolations(const ExitContext& x, const OutcomeSpec&) {
  return liveStateChanged(x, {});
}

Violation noneHolds(const std::vector<std::pair<std::string, std::vector<Violation>>>& alts,
                    z3::context& c) {
  z3::expr_vector all(c);
  for (const auto& [name, vs] : alts) all.push_back(orAll(c, vs));
  z3::expr when = alts.empty() ? c.bool_val(true) : z3::mk_and(all);
  auto copy = alts;
  return Violation{when, [copy](const z3::model& m) {
                     if (copy.size() == 1) return firstHolding(m, copy[0].second);
                     std::string s = "no allowed behaviour holds:";
                     for (const auto& [name, vs] : copy) s += " [" + name + ": " + firstHolding(m, vs) + "]";
                     return s;
                   }};
}

}  // namespace patchcheck
