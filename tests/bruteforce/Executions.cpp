#include "tests/bruteforce/Executions.h"

#include <cstdio>
#include <map>
#include <unordered_set>
#include <vector>

#include "encoder/Hex.h"
#include "model/mips/Concrete.h"
#include "model/Cpu.h"
#include "tests/bruteforce/Outcome.h"

namespace bruteforce {
namespace {

using patchcheck::hex;
using patchcheck::When;

struct WriteInfo {
  unsigned step, word, version;
  unsigned group;  // barriers (sync or flush) before it
};

// One prefix of a pass: the CPU after the instructions fetched so far.
struct PassNode {
  explicit PassNode(patchcheck::Cpu c) : cpu(std::move(c)) {}
  patchcheck::Cpu cpu;
  unsigned instructions = 0, interrupts = 0;
  bool inBody = false;
  bool ended = false;
  std::string violation;  // ended outside the allowed set (why)
  std::string held;       // the allowed alternative that held at the exit
  unsigned fetchWord = 0; // not ended: the region word at pc
  int parent = -1;
  std::string label;      // how this prefix extends its parent
  std::map<uint32_t, unsigned> children;
};

enum PassState : uint8_t { NotStarted = 0, Running = 1, Preempted = 2 };

struct World {
  uint8_t p = 0;             // writer steps done
  uint32_t visible = 0;      // M: writes visible to the observer (weak, stale)
  std::vector<uint8_t> lines;  // stale: the version of each region word the I-cache holds
  uint8_t pass = NotStarted;
  unsigned node = 0;

  std::string key() const {
    std::string k;
    k.push_back(char(p));
    k.append(reinterpret_cast<const char*>(&visible), sizeof visible);
    k.append(lines.begin(), lines.end());
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
      if (st.kind == WriterStep::Kind::Write) writes_.push_back(WriteInfo{i, st.word, st.version, group});
      if (st.kind == WriterStep::Kind::Sync || st.kind == WriterStep::Kind::Flush) ++group;
    }
    // The model by name: this enumeration is written from docs/model.md,
    // not from checker/fetch/.
    fetch_ = s.model.fetch->name();
    stale_ = fetch_ == "stale";
    if (stale_) {
      uint64_t bytes = s.model.lineBytes ? s.model.lineBytes : 32;
      uint64_t first = s.placement.function / bytes;
      for (unsigned i = 0; i < s.regionWords; ++i)
        lineOf_.push_back(unsigned((s.placement.function + 4ull * i) / bytes - first));
    }
  }

  Enumeration run() {
    if (!s_.brokenEnd.empty()) {
      out_.violations = 1;
      out_.firstViolation = s_.brokenEnd;
    }
    if (s_.when == When::Boot) return out_;  // nothing executes the site meanwhile
    if (writes_.size() > 31) {  // M is a 32-bit set
      out_.bounded = true;
      return out_;
    }
    nodes_.push_back(rootNode());
    classify(nodes_.back());
    World start;
    if (stale_) start.lines.assign(s_.regionWords, 0);
    push(start);
    while (!stack_.empty()) {
      if (out_.worlds >= l_.maxWorlds) {
        out_.bounded = true;
        break;
      }
      World w = std::move(stack_.back());
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
  std::string_view fetch_;  // sc, weak or stale (Scenario.cpp refuses the others)
  bool stale_ = false;
  std::vector<unsigned> lineOf_;
  std::vector<PassNode> nodes_;
  std::vector<World> stack_;
  std::unordered_set<std::string> seen_;
  std::unordered_set<unsigned> judged_;
  Enumeration out_;

  unsigned stepCount() const { return unsigned(s_.steps.size()); }

  void push(const World& w) {
    if (seen_.insert(w.key()).second) stack_.push_back(w);
  }

  PassNode rootNode() {
    patchcheck::MachineState st(c_, s_.target);
    st.concrete = true;
    unsigned width = st.width();
    uint64_t mask = width == 64 ? ~0ull : 0xffffffffull;
    for (unsigned r = 1; r < 32; ++r) st.regs[r] = c_.bv_val(s_.entry[r] & mask, width);
    return PassNode(patchcheck::Cpu(st, c_.bv_val(s_.placement.function, 64)));
  }

  // ---- the pass

  void end(PassNode& n, const std::string& violation, const std::string& held = "") {
    n.ended = true;
    n.violation = violation;
    n.held = held;
  }

  void exitAt(PassNode& n, const Exit& at) {
    uint64_t resume = s_.placement.function + 4ull * s_.siteUnitCount;
    Judgement j = judge(s_.allowed, at, s_.target, s_.entry, n.cpu.state, s_.entries, resume);
    if (j.ok) end(n, "", j.held);
    else end(n, (at.atSymbol ? "at " + at.symbol : std::string("at F's body")) + ": " + j.why);
  }

  // Where the next fetch is, or how the pass ended (DESIGN.md: it leaves the
  // site at the body start, a declared symbol, or anywhere else: a fault).
  void classify(PassNode& n) {
    if (!n.violation.empty()) return end(n, n.violation);
    if (n.instructions >= l_.maxInstructions) return end(n, "runaway: the pass does not leave the site");
    auto pc = mips::concreteValue(n.cpu.pc);
    if (!pc) return end(n, "pc is not concrete");
    uint64_t off = *pc - s_.placement.function;
    bool inRegion = off % 4 == 0 && off / 4 <= s_.regionWords;
    unsigned idx = inRegion ? unsigned(off / 4) : 0;
    if (n.cpu.inDelaySlot()) {
      if (inRegion && idx < s_.regionWords) n.fetchWord = idx;
      else end(n, "the delay slot at " + hex(*pc) + " lies outside the site and the declared body");
      return;
    }
    if (inRegion) {
      if (idx == s_.siteUnitCount && !n.inBody) {
        exitAt(n, Exit{});
        if (!n.violation.empty() || s_.regionWords == s_.siteUnitCount) return;
        out_.reached.insert(n.held);
        n.ended = false;  // untraced so far: run the declared body words
        n.inBody = true;
        n.fetchWord = idx;
        return;
      }
      if (idx < s_.regionWords) {
        n.fetchWord = idx;
        return;
      }
      if (!n.inBody) return exitAt(n, Exit{});
      return end(n, "", "");
    }
    for (const EntryRule& e : s_.entries)  // a trampoline's entries, its symbol included
      if (*pc == e.address) {
        if (n.inBody) return end(n, "", "");
        return exitAt(n, Exit{true, e.callee, &e});
      }
    for (const auto& [name, address] : s_.placement.symbols)
      if (*pc == address) {
        if (n.inBody) return end(n, "", "");
        return exitAt(n, Exit{true, name});
      }
    for (const auto& o : s_.allowed.alternatives)  // `call T + k`: T entered at T + k
      if (o.offset && s_.placement.symbols.count(o.target) && *pc == s_.placement.symbols.at(o.target) + o.offset) {
        if (n.inBody) return end(n, "", "");
        return exitAt(n, Exit{true, o.target, nullptr, o.offset});
      }
    end(n, "jump to " + hex(*pc) + ": not an allowed target");
  }

  unsigned fetchChild(unsigned id, unsigned word, unsigned version) {
    uint32_t key = (word << 8) | version;
    if (auto it = nodes_[id].children.find(key); it != nodes_[id].children.end()) return it->second;
    PassNode n = nodes_[id];
    n.children.clear();
    n.parent = int(id);
    uint32_t bits = s_.versions[word][version];
    char label[64];
    snprintf(label, sizeof label, "word %u v%u (%08x)", word, version, bits);
    n.label = label;
    if (n.inBody && word >= s_.siteUnitCount && bits != s_.versions[word][0]) {
      n.violation = "F's body word " + std::to_string(word - s_.siteUnitCount) + " runs after it was overwritten";
    } else {
      std::vector<patchcheck::Fault> faults = n.cpu.step(mips::fetchWord(c_, bits));
      ++n.instructions;
      ++out_.instructions;
      for (const patchcheck::Fault& f : faults) {
        auto happened = mips::concreteValue(f.when);
        if (!happened) {
          n.violation = "a fault condition is not concrete";
          break;
        }
        if (!*happened || f.kind == patchcheck::FaultKind::Wait) continue;
        if (f.kind == patchcheck::FaultKind::Unpredictable && s_.model.unpredictableAsHardware) continue;
        n.violation = std::string(name(f.kind)) + ": " + f.detail;
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
    n.label = "interrupt";
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
    if (n.violation.empty()) {
      if (!n.held.empty()) out_.reached.insert(n.held);
      return;
    }
    if (out_.violations++ == 0)
      out_.firstViolation = n.violation + " | pass: " + trace(id) + " | writer steps done: " + std::to_string(w.p);
  }

  // ---- what the observing CPU sees

  unsigned newestIn(uint32_t visible, unsigned word) const {
    unsigned v = 0;
    for (unsigned i = 0; i < writes_.size(); ++i)
      if ((visible >> i & 1) && writes_[i].word == word && writes_[i].version > v) v = writes_[i].version;
    return v;
  }

  unsigned view(const World& w, unsigned word) const {
    if (fetch_ == "sc") {
      unsigned v = 0;
      for (const WriteInfo& x : writes_)
        if (x.word == word && x.step < w.p) v = x.version;
      return v;
    }
    if (fetch_ == "weak") return newestIn(w.visible, word);
    if (fetch_ == "stale") return w.lines[word];
    return 0;  // arm, x86: refused by the scenario (Scenario.cpp)
  }

  bool mayBecomeVisible(const World& w, unsigned i) const {
    if ((w.visible >> i & 1) || writes_[i].step >= w.p) return false;
    for (unsigned j = 0; j < writes_.size(); ++j) {
      bool before = writes_[j].group < writes_[i].group ||
                    (writes_[j].word == writes_[i].word && writes_[j].version < writes_[i].version);
      if (before && !(w.visible >> j & 1)) return false;
    }
    return true;
  }

  void refillAll(World& w) const {
    for (unsigned i = 0; i < w.lines.size(); ++i) w.lines[i] = uint8_t(newestIn(w.visible, i));
  }

  // A flush at step q: every earlier write visible, every line refilled.
  void flushAt(World& w, unsigned q) const {
    for (unsigned i = 0; i < writes_.size(); ++i)
      if (writes_[i].step < q) w.visible |= 1u << i;
    if (stale_) refillAll(w);
  }

  // What the last flush done by time p forced: all that another CPU must see.
  uint32_t forced(unsigned p) const {
    int last = -1;
    for (unsigned q = 0; q < p; ++q)
      if (s_.steps[q].kind == WriterStep::Kind::Flush) last = int(q);
    uint32_t m = 0;
    for (unsigned i = 0; i < writes_.size(); ++i)
      if (int(writes_[i].step) < last) m |= 1u << i;
    return m;
  }

  // ---- one global step from w, every way

  void expand(const World& w) {
    unsigned n = stepCount();
    if (w.p < n) {
      if (s_.when == When::StopMachine) {
        if (w.pass != Running && w.p == 0) {
          World x = w;
          for (unsigned q = 0; q < n; ++q)
            if (s_.steps[q].kind == WriterStep::Kind::Flush) flushAt(x, q);
          x.p = uint8_t(n);
          for (unsigned i = 0; i < writes_.size(); ++i) x.visible |= 1u << i;  // memory has them all
          push(x);
        }
      } else {
        const WriterStep& st = s_.steps[w.p];
        bool blocked = st.kind == WriterStep::Kind::Wait && w.pass != NotStarted;
        if (!blocked) {
          World x = w;
          if (st.kind == WriterStep::Kind::Flush) flushAt(x, w.p);
          ++x.p;
          push(x);
        }
      }
    }
    if (fetch_ != "sc")
      for (unsigned i = 0; i < writes_.size(); ++i)
        if (mayBecomeVisible(w, i)) {
          World x = w;
          x.visible |= 1u << i;
          push(x);
        }
    if (stale_) {
      std::map<unsigned, std::vector<unsigned>> byLine;
      for (unsigned i = 0; i < s_.regionWords; ++i) byLine[lineOf_[i]].push_back(i);
      for (const auto& [line, words] : byLine) {
        World x = w;
        for (unsigned i : words) x.lines[i] = uint8_t(newestIn(w.visible, i));
        if (x.lines != w.lines) push(x);
      }
    }
    bool quiet = s_.when == When::Live || w.p == 0 || w.p == n;  // stop_machine: not inside the block
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

    unsigned word = nodes_[w.node].fetchWord;
    unsigned child = fetchChild(w.node, word, view(w, word));
    if (nodes_[child].ended) {
      judged(child, w);
    } else {
      World x = w;
      x.node = child;
      push(x);
    }
    const PassNode& here = nodes_[w.node];
    if (here.interrupts >= l_.maxInterrupts) return;
    bool inSlot = here.cpu.inDelaySlot();
    if (inSlot && !s_.model.delaySlotInterrupts) return;
    bool preempt = s_.when == When::StopMachine && s_.model.preemption && w.p == 0 && n > 0;
    bool migrate = stale_ && s_.model.preemption;
    if (!inSlot && !preempt && !migrate) return;  // an interrupt here changes nothing
    unsigned ic = interruptChild(w.node);
    if (nodes_[ic].ended) {
      judged(ic, w);
      return;
    }
    World x = w;
    x.node = ic;
    push(x);  // handled on the same CPU
    if (preempt) {
      World y = x;
      y.pass = Preempted;
      push(y);
    }
    if (migrate) {  // resumes on a CPU that holds only what a flush forced
      World y = x;
      y.visible = forced(w.p);
      refillAll(y);
      push(y);
    }
  }
};

}  // namespace

Enumeration enumerate(z3::context& c, const Scenario& s, const Limits& l) { return Enumerator(c, s, l).run(); }

}  // namespace bruteforce
