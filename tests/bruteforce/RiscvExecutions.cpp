#include "tests/bruteforce/RiscvExecutions.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_set>
#include <vector>

#include "encoder/Hex.h"
#include "model/ConcreteValues.h"
#include "model/Cpu.h"
#include "model/riscv/Concrete.h"
#include "model/riscv/RegisterFile.h"
#include "tests/bruteforce/RiscvOutcome.h"

namespace bruteforce::rv {
namespace {

using patchcheck::concreteValue;
using patchcheck::hex;
using patchcheck::When;

struct WriteInfo {
  unsigned step, unit, version;
  unsigned group;  // ordering fences (fence w,w, fence rw,rw, flush_icache_all) before it
};

struct PassNode {
  explicit PassNode(patchcheck::Cpu c) : cpu(std::move(c)) {}
  patchcheck::Cpu cpu;
  unsigned instructions = 0, interrupts = 0;
  bool inBody = false, ended = false;
  std::string violation, held, undecided;
  unsigned fetchUnit = 0;
  int parent = -1;
  std::string label;
  std::map<uint32_t, unsigned> children;
};

enum PassState : uint8_t { NotStarted = 0, Running = 1, Preempted = 2 };

struct World {
  uint8_t p = 0;          // writer steps done
  uint64_t visible = 0;   // ziccid: M
  uint8_t pass = NotStarted;
  unsigned node = 0;
  std::string key() const {
    std::string k(1, char(p));
    k.append(reinterpret_cast<const char*>(&visible), sizeof visible);
    k.push_back(char(pass));
    k.append(reinterpret_cast<const char*>(&node), sizeof node);
    return k;
  }
};

class Enumerator {
 public:
  Enumerator(z3::context& c, const Scenario& s, const Limits& l) : c_(c), s_(s), l_(l) {
    unsigned group = 0;
    for (unsigned i = 0; i < s.steps.size(); ++i) {
      const WriterStep& st = s.steps[i];
      if (st.kind == Step::Write) writes_.push_back(WriteInfo{i, st.unit, st.version, group});
      if (st.kind == Step::FenceWW || st.kind == Step::FlushIcacheAll) ++group;
    }
    computeFloors();
  }

  Enumeration run() {
    if (!s_.brokenEnd.empty()) {
      out_.violations = 1;
      out_.firstViolation = s_.brokenEnd;
    }
    publication();
    if (s_.when == When::Boot) return out_;
    if (writes_.size() > 64) {
      out_.bounded = true;
      return out_;
    }
    nodes_.push_back(rootNode());
    classify(nodes_.back());
    push(World{});
    while (!stack_.empty()) {
      if (out_.worlds >= l_.maxWorlds) {
        out_.bounded = true;
        break;
      }
      World w = stack_.back();
      stack_.pop_back();
      ++out_.worlds;
      expand(w);
    }
    return out_;
  }

 private:
  z3::context& c_;
  const Scenario& s_;
  Limits l_;
  std::vector<WriteInfo> writes_;
  std::vector<std::vector<unsigned>> floor_;  // ziccif: [writer steps done][unit]
  std::vector<PassNode> nodes_;
  std::vector<World> stack_;
  std::unordered_set<std::string> seen_;
  std::unordered_set<unsigned> judged_;
  Enumeration out_;

  unsigned stepCount() const { return unsigned(s_.steps.size()); }
  bool wide() const { return s_.target.registerBits() == 64; }

  // ---- the writer's side

  // Zifencei: a hart's FENCE.I makes its later fetches see the stores
  // already visible to it; the writer's stores are visible to a hart it
  // asks to run FENCE.I only when a data fence ordered them before the
  // request: `fence w,o` then `ipi`, or flush_icache_all (fence.i, fence
  // w,o, the request). The writer's own fence.i reaches no other hart.
  void computeFloors() {
    std::vector<unsigned> f(s_.regionUnits, 0);
    floor_.push_back(f);
    int orderedBefore = -1;  // writes at steps before it are ordered before a later request
    auto raise = [&](int before) {
      for (const WriteInfo& w : writes_)
        if (int(w.step) < before) f[w.unit] = std::max(f[w.unit], w.version);
    };
    for (unsigned q = 0; q < stepCount(); ++q) {
      Step k = s_.steps[q].kind;
      if (k == Step::FenceWO) orderedBefore = int(q);
      if (k == Step::Ipi) raise(orderedBefore);
      if (k == Step::FlushIcacheAll) {
        orderedBefore = int(q);
        raise(int(q));
      }
      floor_.push_back(f);
    }
  }

  unsigned lastDone(unsigned p, unsigned unit) const {
    unsigned v = 0;
    for (const WriteInfo& w : writes_)
      if (w.unit == unit && w.step < p) v = std::max(v, w.version);
    return v;
  }

  // docs/model.md "Publication": every CPU eventually fetches each written
  // instruction unit's final version; with publish = "synchronised" a
  // flush_icache_all or ipi also comes at or after the step that did it.
  void publication() {
    unsigned n = stepCount(), from = 0;
    for (unsigned u = s_.dataUnits; u < s_.regionUnits; ++u) {
      unsigned final = unsigned(s_.versions[u].size()) - 1;
      if (final == 0) continue;
      unsigned at = 0;
      if (s_.fetch == Fetch::Ziccid) {
        for (const WriteInfo& w : writes_)
          if (w.unit == u) at = std::max(at, w.step + 1);
      } else {
        at = n + 1;
        for (unsigned p = 0; p <= n && at > n; ++p)
          if (floor_[p][u] == final) at = p;
        if (at > n) {
          out_.unpublished = "unit " + std::to_string(u) + " may still be fetched as version " +
                             std::to_string(floor_[n][u]) + " after the last step";
          return;
        }
      }
      from = std::max(from, at);
    }
    if (!s_.synchronised) return;
    for (unsigned q = from ? from - 1 : 0; q < n; ++q)
      if (s_.steps[q].kind == Step::Ipi || s_.steps[q].kind == Step::FlushIcacheAll) return;
    out_.unpublished = "not synchronised: no flush_icache_all or ipi after step " + std::to_string(from);
  }

  // ---- the pass

  PassNode rootNode() {
    patchcheck::MachineState st(c_, s_.target);
    st.concrete = true;
    unsigned width = st.width();
    uint64_t mask = width == 64 ? ~0ull : 0xffffffffull;
    for (unsigned r = 1; r < 32; ++r) st.regs[r] = c_.bv_val(s_.entry[r] & mask, width);
    st.regs[patchcheck::riscv::regfile::reservation] = c_.bool_val(false);
    return PassNode(patchcheck::Cpu(st, c_.bv_val(s_.placement.function, 64)));
  }

  void end(PassNode& n, const std::string& violation, const std::string& held = "") {
    n.ended = true;
    n.violation = violation;
    n.held = held;
  }

  void exitAt(PassNode& n, const Exit& at) {
    Judgement j = judge(s_.allowed, at, wide(), s_.entry, n.cpu.state, s_.entries, s_.resume());
    if (j.ok) end(n, "", j.held);
    else end(n, (at.atSymbol ? "at " + at.symbol : std::string("at F's body")) + ": " + j.why);
  }

  void classify(PassNode& n) {
    if (!n.violation.empty() || !n.undecided.empty()) return end(n, n.violation);
    if (n.instructions >= l_.maxInstructions) return end(n, "runaway: the pass does not leave the site");
    auto pc = concreteValue(n.cpu.pc);
    if (!pc) return end(n, "pc is not concrete");
    uint64_t f = s_.placement.function, off = *pc - f;
    unsigned words = s_.regionUnits - s_.dataUnits;
    if (*pc >= f && off <= 4ull * words) {
      if (off % 4) {
        n.undecided = "pc " + hex(*pc) + " inside a unit (a 2-byte instruction)";
        return end(n, "");
      }
      unsigned idx = unsigned(off / 4) + s_.dataUnits;
      if (idx == s_.siteUnits && !n.inBody) {
        exitAt(n, Exit{});
        if (!n.violation.empty() || s_.regionUnits == s_.siteUnits) return;
        out_.reached.insert(n.held);
        n.ended = false;  // untraced so far: run the declared body
        n.inBody = true;
        n.fetchUnit = idx;
        return;
      }
      if (idx < s_.regionUnits) {
        n.fetchUnit = idx;
        return;
      }
      if (!n.inBody) return exitAt(n, Exit{});
      return end(n, "");
    }
    for (const EntryRule& e : s_.entries)
      if (*pc == e.address) return n.inBody ? end(n, "") : exitAt(n, Exit{true, e.callee, &e});
    for (const auto& [name, address] : s_.placement.symbols)
      if (*pc == address) return n.inBody ? end(n, "") : exitAt(n, Exit{true, name});
    for (const auto& o : s_.allowed.alternatives)
      if (o.offset && s_.placement.symbols.count(o.target) && *pc == s_.placement.symbols.at(o.target) + o.offset)
        return n.inBody ? end(n, "") : exitAt(n, Exit{true, o.target, nullptr, o.offset});
    end(n, "jump to " + hex(*pc) + ": not an allowed target");
  }

  unsigned fetchChild(unsigned id, unsigned unit, unsigned version) {
    uint32_t key = (unit << 8) | version;
    if (auto it = nodes_[id].children.find(key); it != nodes_[id].children.end()) return it->second;
    PassNode n = nodes_[id];
    n.children.clear();
    n.parent = int(id);
    uint32_t bits = uint32_t(s_.versions[unit][version]);
    char label[64];
    snprintf(label, sizeof label, "unit %u v%u (%08x)", unit, version, bits);
    n.label = label;
    if (n.inBody && unit >= s_.siteUnits && bits != uint32_t(s_.versions[unit][0])) {
      n.violation = "F's body word " + std::to_string(unit - s_.siteUnits) + " runs after it was overwritten";
    } else if ((bits & 3) == 3 && ((bits & 0x7f) == 0x03 || (bits & 0x7f) == 0x07)) {
      n.undecided = "a load (the data units' loads are not enumerated)";
    } else {
      std::vector<patchcheck::Fault> faults = n.cpu.step(patchcheck::riscv::fetchInstruction(c_, bits));
      ++n.instructions;
      ++out_.instructions;
      for (const patchcheck::Fault& fault : faults) {
        auto happened = concreteValue(fault.when);
        if (!happened) {
          n.violation = "a fault condition is not concrete";
          break;
        }
        if (!*happened || fault.kind == patchcheck::FaultKind::Wait) continue;
        n.violation = std::string(name(fault.kind)) + ": " + fault.detail;
        break;
      }
    }
    classify(n);
    nodes_.push_back(std::move(n));
    unsigned child = unsigned(nodes_.size() - 1);
    nodes_[id].children[key] = child;
    return child;
  }

  unsigned interruptChild(unsigned id) {
    const uint32_t key = 0xffffffffu;
    if (auto it = nodes_[id].children.find(key); it != nodes_[id].children.end()) return it->second;
    PassNode n = nodes_[id];
    n.children.clear();
    n.parent = int(id);
    n.label = "preempted";
    n.cpu.interrupt();
    ++n.interrupts;
    classify(n);
    nodes_.push_back(std::move(n));
    unsigned child = unsigned(nodes_.size() - 1);
    nodes_[id].children[key] = child;
    return child;
  }

  std::string trace(unsigned id) const {
    std::vector<std::string> parts;
    for (int k = int(id); k >= 0 && nodes_[k].parent >= 0; k = nodes_[k].parent) parts.push_back(nodes_[k].label);
    std::string s;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) s += (s.empty() ? "" : ", ") + *it;
    return s;
  }

  void judged(unsigned id, const World& w) {
    if (!judged_.insert(id).second) return;
    ++out_.passes;
    const PassNode& n = nodes_[id];
    if (!n.undecided.empty()) {
      if (out_.undecided.empty()) out_.undecided = n.undecided;
      return;
    }
    if (n.violation.empty()) {
      if (!n.held.empty()) out_.reached.insert(n.held);
      return;
    }
    if (out_.violations++ == 0)
      out_.firstViolation = n.violation + " | pass: " + trace(id) + " | writer steps done: " + std::to_string(w.p);
  }

  // ---- what the observing hart fetches

  std::vector<unsigned> fetchable(const World& w, unsigned unit) const {
    if (s_.fetch == Fetch::Ziccif) {
      std::vector<unsigned> vs;
      for (unsigned v = floor_[w.p][unit]; v <= lastDone(w.p, unit); ++v) vs.push_back(v);
      return vs;
    }
    unsigned v = 0;
    for (unsigned i = 0; i < writes_.size(); ++i)
      if ((w.visible >> i & 1) && writes_[i].unit == unit) v = std::max(v, writes_[i].version);
    return {v};
  }

  bool mayJoin(const World& w, unsigned i) const {
    if ((w.visible >> i & 1) || writes_[i].step >= w.p) return false;
    for (unsigned j = 0; j < writes_.size(); ++j) {
      bool before = writes_[j].group < writes_[i].group ||
                    (writes_[j].unit == writes_[i].unit && writes_[j].version < writes_[i].version);
      if (before && !(w.visible >> j & 1)) return false;
    }
    return true;
  }

  // One writer step; flush_icache_all puts every earlier write in M.
  void doStep(World& x) const {
    if (s_.fetch == Fetch::Ziccid && s_.steps[x.p].kind == Step::FlushIcacheAll)
      for (unsigned i = 0; i < writes_.size(); ++i)
        if (writes_[i].step < x.p) x.visible |= 1ull << i;
    ++x.p;
  }

  void expand(const World& w) {
    unsigned n = stepCount();
    if (w.p < n) {
      if (s_.when == When::StopMachine) {
        if (w.pass != Running && w.p == 0) {
          World x = w;
          while (x.p < n) doStep(x);
          push(x);
        }
      } else if (!(s_.steps[w.p].kind == Step::Wait && w.pass != NotStarted)) {
        World x = w;
        doStep(x);
        push(x);
      }
    }
    if (s_.fetch == Fetch::Ziccid)
      for (unsigned i = 0; i < writes_.size(); ++i)
        if (mayJoin(w, i)) {
          World x = w;
          x.visible |= 1ull << i;
          push(x);
        }
    bool quiet = s_.when == When::Live || w.p == 0 || w.p == n;
    if (w.pass == NotStarted && quiet) {
      World x = w;
      x.pass = Running;
      x.node = 0;
      if (nodes_[0].ended) judged(0, x);
      else push(x);
    }
    if (w.pass == Preempted) {
      World x = w;
      x.pass = Running;
      push(x);
    }
    if (w.pass != Running) return;
    unsigned unit = nodes_[w.node].fetchUnit;
    for (unsigned v : fetchable(w, unit)) {
      unsigned child = fetchChild(w.node, unit, v);
      if (nodes_[child].ended) {
        judged(child, w);
      } else {
        World x = w;
        x.node = child;
        push(x);
      }
    }
    // Preemption inside the site is what stop_machine cannot keep out.
    bool preempt = s_.when == When::StopMachine && s_.preemption && w.p == 0 && n > 0;
    if (!preempt || nodes_[w.node].interrupts >= l_.maxInterrupts) return;
    unsigned ic = interruptChild(w.node);
    if (nodes_[ic].ended) return judged(ic, w);
    World x = w;
    x.node = ic;
    x.pass = Preempted;
    push(x);
  }

  void push(const World& w) {
    if (seen_.insert(w.key()).second) stack_.push_back(w);
  }
};

}  // namespace

Enumeration enumerate(z3::context& c, const Scenario& s, const Limits& l) { return Enumerator(c, s, l).run(); }

}  // namespace bruteforce::rv
