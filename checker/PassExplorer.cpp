#include "checker/PassExplorer.h"

#include <algorithm>
#include <chrono>

#include "encoder/Printer.h"
#include "encoder/Registers.h"
#include "model/Cpu.h"

namespace patchcheck {
namespace {

constexpr unsigned kMaxSteps = 64;

uint64_t u64(const z3::expr& e) {
  uint64_t v = 0;
  if (e.is_numeral()) e.is_numeral_u64(v);
  return v;
}

struct Event {
  enum class Kind { Fetch, Interrupt, Settle };
  Kind kind;
  unsigned word = 0;
  std::string versionName;
  std::optional<z3::expr> pc, wordTerm;
  const WordImage* image = nullptr;
  bool taken = false;
  unsigned landed = 0;
};

enum class LocKind { Word, RegionEnd, Symbol, Elsewhere };
struct Location {
  LocKind kind;
  unsigned word = 0;
  std::string symbol;
};

// What the replay must find concretely for a hazard to be confirmed.
struct Hazard {
  Violation violation;
  enum class Kind { Fault, Exit, Elsewhere, Overwritten, Runaway } kind;
  std::optional<Location> exit;  // Exit: where the pass left
  size_t events = 0;             // how many events had happened
  mips::FaultKind fault = mips::FaultKind::Unpredictable;
};

struct Node {
  mips::Cpu cpu;
  std::vector<Observer> observers;
  std::vector<z3::expr> path;
  std::vector<Event> events;
  std::vector<Hazard> hazards;
  unsigned steps = 0, interrupts = 0;
  bool inBody = false;
  std::optional<Location> located;  // a location fork already chosen
};

class Explorer {
 public:
  Explorer(const PassSetup& s, Prover& p)
      : s_(s), prover_(p), c_(s.site->ctx()), t_(s.site->target()),
        abi_(mips::AbiModel::of(t_.abi)),
        entry_(mips::MachineState::symbolic(c_, t_, "in.")) {}

  PassOutcome run() {
    auto start = std::chrono::steady_clock::now();
    prover_.push();
    for (const z3::expr& e : s_.site->constraints()) prover_.assume(e);
    for (const z3::expr& e : entryFacts()) prover_.assume(e);
    unsigned q0 = prover_.queries();
    z3::expr f = s_.site->symbol(s_.site->spec().function);
    std::vector<Observer> seen;
    for (const Observer& o : s_.fetch->starts()) {
      if (std::find(seen.begin(), seen.end(), o) != seen.end()) continue;
      seen.push_back(o);
      later(Node{mips::Cpu(entry_, f), {o}, {}, {}, {}, 0, 0, false, std::nullopt});
    }
    while (!out_.counterexample) {
      auto bucket = std::find_if(pending_.begin(), pending_.end(), [](const auto& b) { return !b.empty(); });
      if (bucket == pending_.end()) break;
      Node n = std::move(bucket->back());
      bucket->pop_back();
      advance(n);
    }
    prover_.pop();
    out_.counts.queries = prover_.queries() - q0;
    out_.counts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (out_.counterexample) out_.verdict = Verdict::Unsafe;
    else if (unknown_) out_.verdict = Verdict::Unknown;
    return out_;
  }

 private:
  const PassSetup& s_;
  Prover& prover_;
  z3::context& c_;
  mips::Target t_;
  mips::AbiModel abi_;
  mips::MachineState entry_;
  // Executions waiting to be explored, by how many interrupts they took:
  // the fewest first, so a counterexample has no interrupt it does not need.
  std::vector<std::vector<Node>> pending_;
  PassOutcome out_;
  bool unknown_ = false;

  unsigned siteWords() const { return s_.site->spec().words; }

  void later(Node&& n) {
    if (pending_.size() <= n.interrupts) pending_.resize(n.interrupts + 1);
    pending_[n.interrupts].push_back(std::move(n));
  }

  // An ABI-conformant entry: sp aligned; under n32, pointers are
  // sign-extended 32-bit values.
  std::vector<z3::expr> entryFacts() {
    std::vector<z3::expr> out;
    unsigned w = entry_.width();
    z3::expr sp = entry_.reg(mips::reg::sp);
    out.push_back((sp & c_.bv_val(abi_.stackAlign - 1, w)) == 0);
    if (t_.abi == mips::Abi::N32)
      for (unsigned r : {mips::reg::sp, mips::reg::ra, mips::reg::gp})
        out.push_back(z3::sext(entry_.reg(r).extract(31, 0), 32) == entry_.reg(r));
    return out;
  }

  z3::expr pathOf(const Node& n) const {
    if (n.path.empty()) return c_.bool_val(true);
    z3::expr_vector v(c_);
    for (const auto& e : n.path) v.push_back(e);
    return z3::mk_and(v);
  }

  bool feasible(const Node& n, const z3::expr& cond) {
    z3::expr s = cond.simplify();
    if (s.is_false()) return false;
    if (s.is_true() && n.path.empty()) return true;
    Answer a = prover_.check(pathOf(n) && s);
    if (a == Answer::Unknown) {
      unknown_ = true;
      out_.unknownReason = prover_.lastUnknownReason();
    }
    return a != Answer::Unsat;
  }

  void addHazard(Node& n, const z3::expr& cond, Hazard::Kind kind,
                 std::function<std::string(const z3::model&)> explain,
                 std::optional<Location> exit = std::nullopt) {
    Hazard h{Violation{pathOf(n) && cond, std::move(explain)}, kind, exit, n.events.size()};
    n.hazards.push_back(std::move(h));
  }

  std::string nameAddress(uint64_t a, const z3::model& m) const {
    for (const auto& [name, term] : s_.site->symbols()) {
      uint64_t base = u64(m.eval(term, true));
      if (a == base) return name + " (" + hex(a) + ")";
      if (name == s_.site->spec().function && a > base && a - base <= 4ull * 64)
        return name + "+" + hex(a - base) + " (" + hex(a) + ")";
    }
    return hex(a);
  }

  // ---- the main loop of one execution
  void advance(Node& n) {
    while (true) {
      if (n.steps >= kMaxSteps) {
        addHazard(n, c_.bool_val(true), Hazard::Kind::Runaway, [](const z3::model&) {
          return "the pass does not leave the site within " + std::to_string(kMaxSteps) + " instructions";
        });
        finish(n);
        return;
      }
      if (!n.located) {
        if (n.cpu.branchUnsettled() && !settle(n)) return;
        forkInterrupt(n);
        auto locs = locate(n);
        if (locs.empty()) return;  // no feasible continuation
        for (size_t i = 1; i < locs.size(); ++i) {
          Node child = n;
          child.path.push_back(locs[i].second);
          child.located = locs[i].first;
          later(std::move(child));
        }
        if (!locs[0].second.simplify().is_true()) n.path.push_back(locs[0].second);
        n.located = locs[0].first;
      }
      Location loc = *n.located;
      n.located.reset();
      if (!handle(n, loc)) return;
    }
  }

  // Forks a symbolic branch decision; false when neither way is feasible.
  bool settle(Node& n) {
    z3::expr taken = n.cpu.slot->control.taken.simplify();
    bool yes = feasible(n, taken), no = feasible(n, !taken);
    if (yes && no) {
      Node other = n;
      other.path.push_back(!taken);
      other.cpu.settleBranch(false);
      other.events.push_back(Event{Event::Kind::Settle, 0, "", std::nullopt, std::nullopt, nullptr, false, 0});
      later(std::move(other));
    }
    if (!yes && !no) return false;
    n.path.push_back(yes ? taken : !taken);
    n.cpu.settleBranch(yes);
    n.events.push_back(Event{Event::Kind::Settle, 0, "", std::nullopt, std::nullopt, nullptr, yes, 0});
    return true;
  }

  void forkInterrupt(Node& n) {
    if (n.interrupts > s_.timeline->writes.size() + 1) return;
    bool inSlot = n.cpu.inDelaySlot();
    bool changed = false;
    std::vector<Observer> after;
    for (const Observer& o : n.observers) {
      auto m = s_.fetch->interrupt(o);
      if (m) changed = true;
      const Observer& next = m ? *m : o;
      if (std::find(after.begin(), after.end(), next) == after.end()) after.push_back(next);
    }
    bool allowed = inSlot ? s_.delaySlotInterrupts : true;
    bool matters = inSlot || (changed && s_.fetch->interruptsAnywhere());
    if (!allowed || !matters) return;
    Node child = n;
    child.cpu.interrupt();
    child.observers = after;
    ++child.interrupts;
    child.events.push_back(Event{Event::Kind::Interrupt, 0, "", child.cpu.pc, std::nullopt, nullptr, false, 0});
    later(std::move(child));
  }

  // Where the next fetch is: a word of the site region, its end, a declared
  // symbol, or anywhere else; each feasible one with its condition.
  std::vector<std::pair<Location, z3::expr>> locate(const Node& n) {
    std::vector<std::pair<Location, z3::expr>> out;
    z3::expr pc = n.cpu.pc.simplify();
    const std::string& fn = s_.site->spec().function;
    z3::expr f = s_.site->symbol(fn);
    unsigned region = s_.site->regionWords();
    z3::expr_vector known(c_);
    z3::expr offset = (pc - f).simplify();
    if (offset.is_numeral()) {
      uint64_t off = u64(offset);
      if (off % 4 == 0 && off / 4 <= region) {
        unsigned i = unsigned(off / 4);
        return {{Location{i == region ? LocKind::RegionEnd : LocKind::Word, i, ""}, c_.bool_val(true)}};
      }
    } else {
      // One question rules out the whole site region in the common case of
      // a jump to another function.
      z3::expr off = pc - f;
      z3::expr inRegion = z3::ule(off, c_.bv_val(uint64_t(4) * region, 64)) && (off & c_.bv_val(3, 64)) == 0;
      bool maybeInside = feasible(n, inRegion);
      for (unsigned i = 0; maybeInside && i <= region; ++i) {
        z3::expr at = s_.site->wordAddress(i);
        z3::expr eq = (pc == at);
        if (feasible(n, eq))
          out.push_back({Location{i == region ? LocKind::RegionEnd : LocKind::Word, i, ""}, eq});
      }
    }
    for (const auto& [name, term] : s_.site->symbols()) {
      if (name == fn) continue;
      known.push_back(term);
      z3::expr eq = (pc == term).simplify();
      if (eq.is_true()) return {{Location{LocKind::Symbol, 0, name}, c_.bool_val(true)}};
      if (feasible(n, eq)) out.push_back({Location{LocKind::Symbol, 0, name}, eq});
    }
    z3::expr elsewhere = c_.bool_val(true);
    if (!offset.is_numeral())
      for (unsigned i = 0; i <= region; ++i) elsewhere = elsewhere && pc != s_.site->wordAddress(i);
    for (unsigned i = 0; i < known.size(); ++i) elsewhere = elsewhere && pc != known[i];
    if (feasible(n, elsewhere)) out.push_back({Location{LocKind::Elsewhere, 0, ""}, elsewhere});
    return out;
  }

  // Handles the location; false when the execution ended.
  bool handle(Node& n, const Location& loc) {
    bool inSlot = n.cpu.inDelaySlot();
    switch (loc.kind) {
      case LocKind::Elsewhere: {
        z3::expr pc = n.cpu.pc;
        std::string allowed = s_.allowed.str();
        addHazard(n, c_.bool_val(true), Hazard::Kind::Elsewhere, [this, pc, allowed](const z3::model& m) {
          return "jump to " + nameAddress(u64(m.eval(pc, true)), m) +
                 ": not an allowed target (allowed: " + allowed + ")";
        });
        finish(n);
        return false;
      }
      case LocKind::Symbol:
        if (!n.inBody) exitCheck(n, loc, inSlot);
        finish(n);
        return false;
      case LocKind::RegionEnd:
        if (!n.inBody) exitCheck(n, loc, inSlot);
        finish(n);
        return false;
      case LocKind::Word:
        if (loc.word == siteWords() && !n.inBody && !inSlot) {
          // F's body starts here: the untraced check, then the pass runs
          // the declared body words, which must still be the original ones.
          exitCheck(n, loc, false);
          n.inBody = true;
        }
        return fetchAndStep(n, loc.word);
    }
    return false;
  }

  void exitCheck(Node& n, const Location& loc, bool inSlot) {
    if (inSlot) {
      z3::expr pc = n.cpu.pc;
      addHazard(n, c_.bool_val(true), Hazard::Kind::Elsewhere, [this, pc](const z3::model& m) {
        return "the delay slot at " + nameAddress(u64(m.eval(pc, true)), m) +
               " lies outside the declared site and body (declare F's first instructions in [site] body)";
      });
      return;
    }
    ExitContext x{entry_, n.cpu.state, abi_, s_.site->bodyStart(), nullptr};
    x.nameAddress = [](uint64_t a) { return hex(a); };
    std::vector<std::pair<std::string, std::vector<Violation>>> alts;
    std::string where = loc.kind == LocKind::Symbol ? loc.symbol : "F's body";
    for (const OutcomeSpec& o : s_.allowed.alternatives) {
      if (loc.kind != LocKind::Symbol && o.kind == OutcomeSpec::Kind::Untraced)
        alts.push_back({o.str(), untracedViolations(x)});
      if (loc.kind == LocKind::Symbol && o.target == loc.symbol) {
        if (o.kind == OutcomeSpec::Kind::Call) {
          const TrampolineContract* k = nullptr;
          if (s_.contracts)
            if (auto it = s_.contracts->find(o.target); it != s_.contracts->end()) k = &it->second;
          alts.push_back({o.str(), callViolations(x, o, k)});
        } else if (o.kind == OutcomeSpec::Kind::Enter) {
          alts.push_back({o.str(), enterViolations(x, o)});
        }
      }
    }
    if (s_.trackReached)
      for (const auto& [name, vs] : alts) {
        z3::expr_vector any(c_);
        for (const auto& v : vs) any.push_back(v.when);
        z3::expr holds = vs.empty() ? c_.bool_val(true) : !z3::mk_or(any);
        if (!out_.reached.count(name) && feasible(n, holds)) out_.reached.insert(name);
      }
    if (alts.empty()) {
      std::string allowed = s_.allowed.str();
      std::string what = loc.kind == LocKind::Symbol ? "reaches " + loc.symbol : "runs F's body untraced";
      addHazard(n, c_.bool_val(true), Hazard::Kind::Exit,
                [what, allowed](const z3::model&) { return what + ", but the allowed behaviours are: " + allowed; },
                loc);
      return;
    }
    Violation none = noneHolds(alts, c_);
    addHazard(n, none.when, Hazard::Kind::Exit,
              [where, e = none.explain](const z3::model& m) { return "at " + where + ": " + e(m); }, loc);
  }

  bool fetchAndStep(Node& n, unsigned i) {
    const auto& vers = s_.versions[i];
    struct Group {
      const WordImage* image;
      std::vector<Observer> observers;
      std::string names;
    };
    std::vector<Group> groups;
    for (unsigned v = 0; v < vers.size(); ++v) {
      std::vector<Observer> next;
      for (const Observer& o : n.observers)
        if (auto r = s_.fetch->observe(o, i, v))
          if (std::find(next.begin(), next.end(), *r) == next.end()) next.push_back(*r);
      if (next.empty()) continue;
      ++out_.counts.executions;
      auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) { return x.image->sameAs(vers[v]); });
      const std::string& nm = s_.versionNames[i][v];
      if (g == groups.end()) {
        groups.push_back(Group{&vers[v], next, nm});
      } else {
        for (const auto& o : next)
          if (std::find(g->observers.begin(), g->observers.end(), o) == g->observers.end()) g->observers.push_back(o);
        g->names += "/" + nm;
      }
    }
    if (groups.empty()) return false;
    for (size_t k = groups.size(); k-- > 0;) {
      Node c = k == 0 ? std::move(n) : n;
      if (!stepWith(c, i, groups[k].image, groups[k].observers, groups[k].names)) continue;
      if (k == 0) {
        n = std::move(c);
        return true;
      }
      later(std::move(c));
    }
    return false;
  }

  // Executes one fetched version; false when the execution ended.
  bool stepWith(Node& c, unsigned i, const WordImage* img, const std::vector<Observer>& obs,
                const std::string& names) {
    c.observers = obs;
    unsigned landed = ~0u;
    for (const auto& o : obs) landed = std::min(landed, s_.fetch->landed(o));
    c.events.push_back(Event{Event::Kind::Fetch, i, names, c.cpu.pc, img->symbolic.word, img, false, landed});
    if (c.inBody && i >= siteWords() && !img->sameAs(s_.versions[i][0])) {
      std::string orig = s_.versions[i][0].source, now = img->source;
      unsigned bodyIndex = i - siteWords();
      addHazard(c, c_.bool_val(true), Hazard::Kind::Overwritten, [orig, now, bodyIndex](const z3::model&) {
        return "F's body word " + std::to_string(bodyIndex) + " ('" + orig +
               "') runs after the transition overwrote it with '" + now + "'";
      });
    }
    if (c.cpu.likelyUnsettled()) settle(c);
    std::vector<mips::Fault> faults = c.cpu.step(img->fetched(t_));
    ++c.steps;
    for (const mips::Fault& f : faults) {
      if (f.kind == mips::FaultKind::Wait) continue;  // sleeps until an interrupt: harmless
      if (f.kind == mips::FaultKind::Unpredictable && s_.unpredictableAsHardware) continue;
      z3::expr when = f.when.simplify();
      if (when.is_false()) continue;
      std::string text = std::string(mips::name(f.kind)) + ": " + f.detail;
      Hazard::Kind kind = Hazard::Kind::Fault;
      addHazard(c, when, kind, [text](const z3::model&) { return text; });
      c.hazards.back().fault = f.kind;
      if (when.is_true()) {
        finish(c);
        return false;
      }
      c.path.push_back(!when);
    }
    return true;
  }

  // ---- one query per distinct path
  void finish(Node& n) {
    ++out_.counts.paths;
    if (n.hazards.empty()) return;
    z3::expr_vector any(c_);
    for (const Hazard& h : n.hazards) any.push_back(h.violation.when);
    Answer a = prover_.check(z3::mk_or(any));
    if (a == Answer::Unknown) {
      unknown_ = true;
      out_.unknownReason = prover_.lastUnknownReason();
    }
    if (a != Answer::Sat) return;
    out_.counterexample = counterexample(n, prover_.model());
  }

  Counterexample counterexample(const Node& n, const z3::model& m) {
    Counterexample cx;
    const Hazard* broken = nullptr;
    for (const Hazard& h : n.hazards)
      if (m.eval(h.violation.when, true).is_true()) {
        broken = &h;
        break;
      }
    cx.rule = broken ? broken->violation.explain(m) : "?";
    std::map<unsigned, std::string> seen;
    // Events after the broken rule happened under other assumptions.
    size_t shown = broken ? broken->events : n.events.size();
    for (size_t k = 0; k < shown; ++k) {
      const Event& e = n.events[k];
      if (e.kind == Event::Kind::Fetch) {
        cx.schedule.push_back(FetchEvent{e.word, e.versionName, e.landed});
        TraceStep step;
        step.address = u64(m.eval(*e.pc, true));
        step.word = uint32_t(u64(m.eval(*e.wordTerm, true)));
        step.text = mips::disassemble(step.word, step.address, t_);
        std::replace(step.text.begin(), step.text.end(), '\t', ' ');
        bool body = e.word >= siteWords();
        step.origin = (body ? "body " + std::to_string(e.word - siteWords()) : "word " + std::to_string(e.word)) +
                      " (" + e.versionName + ")";
        seen[e.word] = e.versionName;
        cx.trace.push_back(step);
      } else if (e.kind == Event::Kind::Interrupt) {
        std::string where = cx.trace.empty() ? "at entry" : "after " + cx.trace.back().text;
        cx.interrupts.push_back("interrupt " + where + ": resumes at " + nameAddress(u64(m.eval(*e.pc, true)), m));
        if (!cx.trace.empty()) cx.trace.back().note += "<- interrupt here (in its delay slot: EPC = the branch)";
      } else if (!cx.trace.empty()) {
        cx.trace.back().note += std::string(e.taken ? "branch taken" : "branch not taken");
      }
    }
    for (const auto& [w, v] : seen) cx.intermediateState += (cx.intermediateState.empty() ? "" : ", ") +
                                                           ("word " + std::to_string(w) + " " + v);
    for (unsigned r = 1; r < 32; ++r)
      cx.entryRegisters.push_back({std::string(mips::gprName(r, t_.abi)), u64(m.eval(entry_.reg(r), true))});
    for (const auto& [name, term] : s_.site->symbols()) cx.symbols[name] = u64(m.eval(term, true));
    replay(n, m, broken, cx);
    return cx;
  }

  // Runs the same path again through the same semantics on the concrete
  // values of the model, and checks that it reaches the same places and
  // breaks the same rule.
  void replay(const Node& n, const z3::model& m, const Hazard* broken, Counterexample& cx) {
    mips::MachineState st(c_, t_);
    for (unsigned r = 1; r < 32; ++r) st.gpr[r] = m.eval(entry_.reg(r), true);
    st.hi = m.eval(entry_.hi, true);
    st.lo = m.eval(entry_.lo, true);
    st.memory = m.eval(entry_.memory, true);
    st.llbit = m.eval(entry_.llbit, true);
    st.concrete = true;
    mips::MachineState concreteEntry = st;
    mips::Cpu cpu(st, m.eval(s_.site->symbol(s_.site->spec().function), true));
    size_t upto = broken ? broken->events : n.events.size();
    for (size_t k = 0; k < upto; ++k) {
      const Event& e = n.events[k];
      if (e.kind == Event::Kind::Settle) {
        z3::expr t = cpu.slot ? cpu.slot->control.taken.simplify() : c_.bool_val(e.taken);
        if (!t.is_bool() || (t.is_true() != e.taken) || !(t.is_true() || t.is_false())) {
          cx.replayNote = "replay: branch decision differs";
          return;
        }
        cpu.settleBranch(e.taken);
      } else if (e.kind == Event::Kind::Interrupt) {
        cpu.interrupt();
      } else {
        uint64_t want = u64(m.eval(*e.pc, true)), got = u64(cpu.pc.simplify());
        if (!cpu.pc.simplify().is_numeral() || want != got) {
          cx.replayNote = "replay: fetch address differs (" + hex(got) + " vs " + hex(want) + ")";
          return;
        }
        z3::expr word = m.eval(*e.wordTerm, true);
        mips::Fetched f{e.image->fetched(t_).desc, uint32_t(u64(word)), word};
        if (cpu.likelyUnsettled()) cpu.settleBranch(cpu.slot->control.taken.simplify().is_true());
        auto faults = cpu.step(f);
        if (broken && broken->kind == Hazard::Kind::Fault && k + 1 == upto)
          for (const auto& fl : faults)
            if (fl.kind == broken->fault && fl.when.simplify().is_true()) {
              cx.replayed = true;
              cx.replayNote = "replayed concretely: the fault happens";
              return;
            }
      }
    }
    if (!broken) return;
    if (broken->kind == Hazard::Kind::Exit && broken->exit) {
      ExitContext x{concreteEntry, cpu.state, abi_, m.eval(s_.site->bodyStart(), true), nullptr};
      std::vector<Violation> vs;
      for (const OutcomeSpec& o : s_.allowed.alternatives) {
        if (broken->exit->kind != LocKind::Symbol && o.kind == OutcomeSpec::Kind::Untraced) {
          auto u = untracedViolations(x);
          vs.insert(vs.end(), u.begin(), u.end());
        }
        if (broken->exit->kind == LocKind::Symbol && o.target == broken->exit->symbol) {
          const TrampolineContract* k = nullptr;
          if (s_.contracts)
            if (auto it = s_.contracts->find(o.target); it != s_.contracts->end()) k = &it->second;
          auto u = o.kind == OutcomeSpec::Kind::Call ? callViolations(x, o, k) : enterViolations(x, o);
          vs.insert(vs.end(), u.begin(), u.end());
        }
      }
      // Memory probes stay symbolic: evaluate them in the model.
      bool any = vs.empty();
      for (const auto& v : vs)
        if (m.eval(v.when, true).is_true()) any = true;
      cx.replayed = any;
      cx.replayNote = any ? "replayed concretely: the state at the exit breaks the rule"
                          : "replay: the concrete state at the exit satisfies the rule";
      return;
    }
    // A jump elsewhere, an overwritten body word, a runaway pass: the
    // concrete pc sequence matched, which is what they are about.
    cx.replayed = true;
    cx.replayNote = "replayed concretely: same instructions at the same addresses";
  }
};

}  // namespace

PassOutcome explorePasses(const PassSetup& s, Prover& p) { return Explorer(s, p).run(); }

}  // namespace patchcheck
