#include "checker/explore/PassExplorer.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <deque>
#include <span>
#include <tuple>

#include "checker/explore/AddressFacts.h"
#include "checker/explore/CallOpsFacts.h"
#include "checker/explore/SideEffects.h"
#include "checker/explore/SymbolOffsets.h"
#include "encoder/Hex.h"
#include "checker/explore/Trace.h"
#include "model/Cpu.h"
#include "model/Executor.h"
#include "model/IsaModel.h"

namespace patchcheck {
namespace {

uint64_t u64(const z3::expr& e) {
  uint64_t v = 0;
  if (e.is_numeral()) e.is_numeral_u64(v);
  return v;
}

std::vector<z3::expr> symbolTerms(const SiteInstance& site) {
  std::vector<z3::expr> out;
  for (const auto& [name, term] : site.symbols()) out.push_back(term);
  return out;
}

struct Event {
  // Call: the pass entered a trampoline (inline mode; `versionName` holds
  // its entry key) and the trampoline's own steps follow as Step events,
  // up to Return, where it is back at the site.
  // Byte: on a byte site, the version of one byte the next Fetch decodes
  // (that Fetch has no image: its term is the bytes it decoded).
  // Handler: the patcher's breakpoint handler ran; `wordTerm` is the
  // instruction it emulates at `pc` (none: it skipped to `pc`).
  enum class Kind { Fetch, Interrupt, Settle, Call, Step, Return, Byte, Handler };
  Kind kind;
  unsigned word = 0;
  std::string versionName;
  std::optional<z3::expr> pc, wordTerm;
  const WordImage* image = nullptr;
  bool taken = false;  // Settle, Step: the branch was taken; Interrupt: in a delay slot
  unsigned landed = 0;
  std::optional<TrampolineEvent> step;  // Step
  std::shared_ptr<const MemoryOverlay> overlay;  // Fetch: what the site's data units may read as
  unsigned length = 0;  // Fetch, Handler: the instruction's bytes
  // A merged Fetch (symbolic fetch choices): the fetch of each image that
  // was merged, the one under guards[k] in alternatives[k]; a model picks one.
  std::vector<Event> alternatives = {};
  std::vector<z3::expr> guards = {};
};

enum class LocKind { Word, RegionEnd, Symbol, Elsewhere };
struct Location {
  LocKind kind;
  unsigned word = 0;
  std::string symbol;  // a declared symbol, or a trampoline entry key ("ftrace_caller+8")
  std::string callee;  // the function `symbol` is an entry of
};

// A trampoline a pass ran inline, and the state at its entry (where the
// behaviour's `with` conditions are checked).
struct Called {
  std::string entry, callee;
  MachineState atEntry;
};

// What the replay must find concretely for a hazard to be confirmed.
// The version each unit was seen in, "byte 0 old, byte 1 new"; a run of
// three or more neighbouring units seen in one version is a range ("bytes
// 0..154 old"), so a large site names only where the versions change.
std::string unitsSeen(const Spec& spec, const std::map<unsigned, std::string>& seen) {
  std::string out;
  auto numbered = [&](unsigned w, std::string& kind, long& n) {
    std::string name = spec.unitName(w);
    size_t sp = name.find(' ');
    if (sp == std::string::npos || name.find_first_not_of("0123456789", sp + 1) != std::string::npos) return false;
    kind = name.substr(0, sp);
    n = std::stol(name.substr(sp + 1));
    return true;
  };
  for (auto it = seen.begin(); it != seen.end();) {
    std::string kind, k2;
    long first = 0, n = 0;
    auto end = std::next(it);
    if (numbered(it->first, kind, first))
      while (end != seen.end() && end->second == it->second && numbered(end->first, k2, n) && k2 == kind &&
             n == first + long(std::distance(it, end)))
        ++end;
    size_t run = size_t(std::distance(it, end));
    if (run < 3) end = std::next(it);
    out += (out.empty() ? "" : ", ") +
           (run < 3 ? spec.unitName(it->first)
                    : kind + "s " + std::to_string(first) + ".." + std::to_string(first + long(run) - 1)) +
           " " + it->second;
    it = end;
  }
  return out;
}

struct Hazard {
  Violation violation;
  enum class Kind { Fault, Exit, Elsewhere, Overwritten, Runaway, Trampoline, Effect, Cmodx } kind;
  std::optional<Location> exit;  // Exit: where the pass left
  size_t events = 0;             // how many events had happened
  FaultKind fault = FaultKind::Unpredictable;
};

// One pass: an execution of the one executor (model/Executor.h) with what
// the fetch model tracks and what the pass has done.
struct Node : Execution {
  using Execution::Execution;
  std::vector<Observer> observers;
  std::vector<Event> events;
  std::vector<Hazard> hazards;
  unsigned interrupts = 0;
  bool inBody = false;
  std::optional<Location> located;  // a location fork already chosen
  std::optional<Called> called;     // inline: the trampoline this pass ran
  unsigned fetchedAt = 0;           // byte site: the unit the last instruction started at
  // The breakpoint handler runs this instruction at `.first` next.
  std::optional<std::pair<z3::expr, Instruction>> emulate;
};

class Explorer final : public Executor<Node>::Client {
 public:
  // `merging`: symbolic fetch choices (FetchChoices.h); `cap`: give up
  // (overCap()) once the exploration takes more executions.
  Explorer(const PassSetup& s, Prover& p, bool merging, std::optional<unsigned> cap = std::nullopt)
      : s_(s), prover_(p), merging_(merging), cap_(cap), c_(s.site->ctx()), t_(s.site->target()),
        isa_(modelOf(t_)), abi_(isa_.abi(t_)),
        entry_(MachineState::symbolic(c_, t_, "in.")), executor_(*this, decider(), options()),
        addresses_([this](const std::vector<z3::expr>&, const z3::expr& fact) {
          return prover_.check(fact);  // base facts only; an open question rewrites nothing
        }),
        offsets_(p, symbolTerms(*s.site)) {
    EntryBranch e = s.site->spec().enteredBy;
    enteredBy_ = isa_.enteredBy(entry_, e != EntryBranch::Indirect, e != EntryBranch::Direct);
  }

  // The exploration passed its cap: its outcome means nothing.
  bool overCap() const { return overCap_; }
  // A merged execution broke a rule on a schedule the fetch model does not
  // allow (merging forgets which fetches each observer made): the outcome
  // means nothing, explore explicitly.
  bool spurious() const { return spurious_; }

  PassOutcome run() {
    auto start = std::chrono::steady_clock::now();
    // The site's and the entry's facts are the same for every run on this
    // prover: asserted once, outside the run's scope.
    std::vector<z3::expr> base = s_.site->constraints();
    base.push_back(isa_.entryAssumptions(entry_));
    if (enteredBy_) base.push_back(*enteredBy_);
    for (const z3::expr& e : base) prover_.assumeBase(e);
    baseSatisfiable_ = prover_.assumesExactly(base) && s_.assumptions.empty() && !s_.site->placementUndecided();
    prover_.push();
    for (const z3::expr& e : s_.assumptions) prover_.assume(e);
    if (s_.inlineTrampolines) assumeCallOps();
    if (const auto& why = s_.site->placementUndecided()) {
      unknown_ = true;
      out_.unknownReason = *why;
    }
    unsigned q0 = prover_.queries();
    z3::expr f = s_.site->symbol(s_.site->spec().function);
    std::vector<Observer> seen;
    for (const Observer& o : s_.fetch->starts()) {
      if (std::find(seen.begin(), seen.end(), o) != seen.end()) continue;
      seen.push_back(o);
      Node n{Cpu(entry_, f)};
      n.observers = {o};
      executor_.later(std::move(n));
    }
    if (auto over = executor_.run()) {
      unknown_ = true;
      out_.unknownReason = *over;
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
  bool merging_;
  std::optional<unsigned> cap_;
  mutable bool overCap_ = false;  // set by the executor's budget check
  bool spurious_ = false;
  unsigned choices_ = 0;  // fetch choice terms made
  z3::context& c_;
  Target t_;
  const IsaModel& isa_;
  const AbiModel& abi_;
  MachineState entry_;
  std::optional<z3::expr> enteredBy_;  // what F's entry branch may have been ([site] entered_by)
  PassOutcome out_;
  bool unknown_ = false;
  // The facts under every path are the site's placement and the entry
  // facts alone, which SiteInstance::make showed to have a model: a path
  // whose condition is true is then feasible without asking.
  bool baseSatisfiable_ = false;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  Executor<Node> executor_;
  // A branch target read back from a placement-dependent immediate
  // (F + sext(T - F) when T is in reach) is T, once proven: then each
  // location question is a numeral, not one solver query per symbol.
  AddressFacts addresses_;
  // An address computed from placement symbols alone (lui/ori, %hi/%lo)
  // is one symbol plus a constant, once proven.
  SymbolOffsets offsets_;

  // Crossed conditional branches (mixesOf) by word, version, racing
  // version and which one gives the condition; kept for the events that
  // point at them.
  std::map<std::tuple<unsigned, unsigned, unsigned, bool>, WordImage> mixes_;

  std::vector<ApartRanges> opsApart_;  // assumeCallOps' ranges, for the inline runs' AddressFacts

  // Inline mode: each struct F's ops literal may name (each version of
  // that data unit) gets at F's entry what the trampoline's [call_ops]
  // contract lets its modular proof assume of the struct (CallOpsFacts.h):
  // without it ops->direct_call is any value and the run jumps anywhere.
  // In F's entry memory rather than at the trampoline's entry, so that a
  // site's own stores stay on top and a replay evaluates the same facts.
  void assumeCallOps() {
    std::vector<std::string> done;
    for (const auto& [key, code] : s_.site->trampolines()) {
      const std::string& symbol = code.contract.symbol;
      if (!code.contract.callback.callOps || !code.opsLiteral) continue;
      if (std::find(done.begin(), done.end(), symbol) != done.end()) continue;
      done.push_back(symbol);
      z3::expr literal = code.opsLiteral->simplify();
      std::vector<z3::expr> named;
      for (unsigned u = 0; u < s_.site->spec().entryUnit(); ++u) {
        if (!z3::eq(s_.site->unitAddress(u).simplify(), literal)) continue;
        for (const WordImage& img : s_.versions[u]) {
          z3::expr v = img.symbolic.term.simplify();
          unsigned bits = v.get_sort().bv_size();
          if (bits != abi_.pointerBytes * 8) continue;  // not a pointer: no struct to speak of
          z3::expr ops = bits < 64 ? z3::sext(v, 64 - bits).simplify() : v;
          if (std::any_of(named.begin(), named.end(), [&](const z3::expr& o) { return z3::eq(o, ops); })) continue;
          named.push_back(ops);
          CallOpsFacts f = storeCallOps(code, ops, symbol + ".ops" + std::to_string(named.size()), {&entry_},
                                        entry_.address(entry_.reg(abi_.sp)), abi_.pointerBytes);
          for (const z3::expr& e : f.assumptions) prover_.assume(e);
          for (const ApartRanges& a : f.apart) {
            prover_.assume(a.fact());
            opsApart_.push_back(a);
          }
        }
      }
    }
  }

  // Units before this are the site's (its data units and words), the rest the body's.
  unsigned siteUnits() const { return s_.site->spec().siteUnits(); }

  // Every question goes to the prover. Unknown: that way is not explored,
  // and the verdict is UNKNOWN.
  Decide decider() {
    return [this](const std::vector<z3::expr>& path, const z3::expr& cond) {
      z3::expr_vector v(c_);
      for (const z3::expr& e : path) v.push_back(e);
      v.push_back(cond);
      Answer a = prover_.check(z3::mk_and(v));
      if (a == Answer::Unknown) {
        unknown_ = true;
        out_.unknownReason = prover_.lastUnknownReason();
      }
      return a;
    };
  }

  Executor<Node>::Options options() const {
    Executor<Node>::Options o;
    o.maxSteps = s_.maxSteps;
    o.exceptionsBetweenSteps = true;  // an exception may come before any instruction
    // Asked before every step: a pass that loops and forks is stopped
    // inside its one execution, not only when it ends.
    o.budget = [this](const Executor<Node>::Effort& done) -> std::optional<std::string> {
      if (cap_ && done.taken > *cap_) {
        overCap_ = true;
        return "the exploration took more than " + std::to_string(*cap_) + " executions";
      }
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
      return s_.budget.exceeded(done.made, done.steps, seconds);
    };
    // The fewest interrupts first: a counterexample has no interrupt it
    // does not need.
    o.rank = [](const Node& n) { return n.interrupts; };
    return o;
  }

  void later(Node&& n) { executor_.later(std::move(n)); }

  // The wall-clock budget checked within one step that may fork many ways
  // (the executor checks it between executions).
  bool timeUp() {
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (seconds <= s_.budget.maxSeconds) return false;
    unknown_ = true;
    out_.unknownReason = "the exploration's time budget is spent (" + std::to_string(s_.budget.maxSeconds) +
                         " s); raise it with --max-seconds";
    return true;
  }
  z3::expr pathOf(const Node& n) const { return n.condition(); }
  bool feasible(const Node& n, const z3::expr& cond) { return executor_.possible(n, cond); }

  bool done() const override { return out_.counterexample || out_.witnessed || spurious_; }

  void addHazard(Node& n, const z3::expr& cond, Hazard::Kind kind,
                 std::function<std::string(const z3::model&)> explain,
                 std::optional<Location> exit = std::nullopt) {
    Hazard h{Violation{pathOf(n) && cond, std::move(explain)}, kind, exit, n.events.size()};
    n.hazards.push_back(std::move(h));
  }

  // "T+0x8 (0x...)": the closest declared symbol at or below, within 4 KiB.
  std::string nameAddress(uint64_t a, const z3::model& m) const {
    std::string best;
    uint64_t bestOffset = 0x1000;
    for (const auto& [name, term] : s_.site->symbols()) {
      uint64_t base = u64(m.eval(term, true));
      if (a >= base && a - base < bestOffset) best = name, bestOffset = a - base;
    }
    if (best.empty()) return hex(a);
    return (bestOffset ? best + "+" + hex(bestOffset) : best) + " (" + hex(a) + ")";
  }

  // ---- one execution, as the executor's client
  void runaway(Node& n) override {
    unsigned limit = s_.maxSteps;
    addHazard(n, c_.bool_val(true), Hazard::Kind::Runaway, [limit](const z3::model&) {
      return "the pass does not leave the site within " + std::to_string(limit) + " instructions";
    });
    finish(n);
  }

  void settled(Node& n, bool taken) override {
    n.events.push_back(Event{Event::Kind::Settle, 0, "", std::nullopt, std::nullopt, nullptr, taken, 0, std::nullopt, nullptr});
  }

  // Where the pass is: an interrupt may come first; the location may fork;
  // a site word may be seen in several versions (each its own execution).
  std::optional<Instruction> fetch(Node& n) override {
    if (n.emulate) {
      // The breakpoint handler emulates the new instruction where the
      // breakpoint lies (poke_int3_handler): as if the CPU ran it there.
      auto [at, instruction] = std::move(*n.emulate);
      n.emulate.reset();
      n.cpu.pc = at;
      n.events.push_back(Event{Event::Kind::Handler, 0, "", at, instruction.term, nullptr, false, 0, std::nullopt,
                               nullptr, instruction.bytes});
      return instruction;
    }
    if (!n.located) {
      forkInterrupt(n);
      auto locs = locate(n);
      if (locs.empty()) return std::nullopt;  // no feasible continuation
      for (size_t i = 1; i < locs.size(); ++i) {
        Node child = n;
        if (locs[i].first.kind == LocKind::Elsewhere) {
          // A jump that may leave for an address nothing allows is a
          // hazard now, not after the other ways ran to their ends (a
          // target the exception entry clobbered loops through the site).
          child.assume(locs[i].second);
          handle(child, locs[i].first);
          if (done()) return std::nullopt;
          continue;
        }
        child.path.push_back(locs[i].second);
        child.located = locs[i].first;
        later(std::move(child));
      }
      n.assume(locs[0].second);
      n.located = locs[0].first;
    }
    Location loc = *n.located;
    n.located.reset();
    return handle(n, loc);
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
    child.events.push_back(Event{Event::Kind::Interrupt, 0, "", child.cpu.pc, std::nullopt, nullptr, inSlot, 0, std::nullopt, nullptr});
    later(std::move(child));
  }

  // Where the next fetch is: a word of the site region, its end, a declared
  // symbol, or anywhere else; each feasible one with its condition.
  std::vector<std::pair<Location, z3::expr>> locate(const Node& n) {
    std::vector<std::pair<Location, z3::expr>> out;
    z3::expr pc = addresses_.rewrite(n.cpu.pc.simplify()).simplify();
    const std::string& fn = s_.site->spec().function;
    z3::expr f = s_.site->symbol(fn);
    const SiteLayout& layout = s_.site->layout();
    unsigned region = layout.size();
    z3::expr_vector known(c_);
    // 32-bit ISAs hold every address sign-extended (pc and, by the site's
    // constraints, F): the low 32 bits decide, and they simplify where the
    // 64-bit difference of two sign extensions does not.
    z3::expr offset = (t_.wide() ? pc - f : z3::sext(pc.extract(31, 0) - f.extract(31, 0), 32)).simplify();
    if (!offset.is_numeral()) {
      pc = offsets_.rewrite(pc);
      offset = (t_.wide() ? pc - f : z3::sext(pc.extract(31, 0) - f.extract(31, 0), 32)).simplify();
    }
    // The declared symbols (F aside), a trampoline's further entries
    // ("ftrace_caller+8") and those an allowed `call T + 8` names, in
    // this order.
    struct Entry {
      std::string name, callee;
      z3::expr at;
    };
    std::vector<Entry> entries;
    for (const auto& [name, term] : s_.site->symbols())
      if (name != fn) entries.push_back({name, name, term});
    for (const auto& [key, code] : s_.site->trampolines())
      if (code.contract.entryOffset != 0) entries.push_back({key, code.contract.symbol, code.entry()});
    for (const OutcomeSpec& o : s_.allowed.alternatives) {
      if (o.kind != OutcomeSpec::Kind::Call || o.offset == 0 || s_.site->trampolines().count(o.entry())) continue;
      auto t = s_.site->symbols().find(o.target);
      if (t != s_.site->symbols().end()) entries.push_back({o.entry(), o.target, t->second + c_.bv_val(o.offset, 64)});
    }
    // A pc that is an entry's very term is there and nowhere else: the
    // placement keeps symbols apart from each other and from the site
    // region, and the questions below would only confirm it.
    for (const Entry& e : entries)
      if ((pc == e.at).simplify().is_true()) return {{Location{LocKind::Symbol, 0, e.name, e.callee}, c_.bool_val(true)}};
    if (offset.is_numeral()) {
      auto off = int64_t(u64(offset));
      std::optional<unsigned> i = off == layout.end() ? std::optional<unsigned>(region) : layout.unitAt(off);
      if (i) return {{Location{*i == region ? LocKind::RegionEnd : LocKind::Word, *i, "", ""}, c_.bool_val(true)}};
    } else {
      // One question rules out the whole site region in the common case of
      // a jump to another function.
      z3::expr off = pc - (f + c_.bv_val(uint64_t(layout.start()), 64));
      z3::expr inRegion = z3::ule(off, c_.bv_val(uint64_t(layout.end() - layout.start()), 64));
      bool maybeInside = feasible(n, inRegion);
      for (unsigned i = 0; maybeInside && i <= region; ++i) {
        z3::expr at = s_.site->unitAddress(i);
        z3::expr eq = (pc == at);
        if (feasible(n, eq))
          out.push_back({Location{i == region ? LocKind::RegionEnd : LocKind::Word, i, "", ""}, eq});
      }
    }
    for (const Entry& e : entries) {
      known.push_back(e.at);
      z3::expr eq = (pc == e.at).simplify();
      if (feasible(n, eq)) out.push_back({Location{LocKind::Symbol, 0, e.name, e.callee}, eq});
    }
    z3::expr elsewhere = c_.bool_val(true);
    if (!offset.is_numeral())
      for (unsigned i = 0; i <= region; ++i) elsewhere = elsewhere && pc != s_.site->unitAddress(i);
    for (unsigned i = 0; i < known.size(); ++i) elsewhere = elsewhere && pc != known[i];
    if (feasible(n, elsewhere)) out.push_back({Location{LocKind::Elsewhere, 0, "", ""}, elsewhere});
    return out;
  }

  // Handles the location: the instruction to run there, or nothing when
  // the execution ended.
  std::optional<Instruction> handle(Node& n, const Location& loc) {
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
        return std::nullopt;
      }
      case LocKind::Symbol:
        if (!n.inBody) {
          if (runInline(n, loc, inSlot)) return std::nullopt;
          exitCheck(n, loc, inSlot);
        }
        finish(n);
        return std::nullopt;
      case LocKind::RegionEnd:
        if (!n.inBody) exitCheck(n, loc, inSlot);
        finish(n);
        return std::nullopt;
      case LocKind::Word:
        if (loc.word == siteUnits() && !n.inBody && !inSlot) {
          // F's body starts here: the untraced check, then the pass runs
          // the declared body words, which must still be the original ones.
          exitCheck(n, loc, false);
          n.inBody = true;
        }
        if (loc.word == s_.site->spec().entryUnit() && n.steps > 0 && !reenter(n)) return std::nullopt;
        return s_.site->spec().byteUnits ? fetchBytes(n, loc.word) : fetchVersions(n, loc.word);
    }
    return std::nullopt;
  }

  // The pass is back at F's entry. With the stack where it was, it runs
  // the site again (a loop, a self-branch waiting for a write); with sp
  // moved, F runs recursively (a torn call to F itself), which nothing
  // the spec allows does. False when no way on is left.
  bool reenter(Node& n) {
    z3::expr now = n.cpu.state.reg(abi_.sp), before = entry_.reg(abi_.sp);
    z3::expr moved = (now != before).simplify();
    if (moved.is_false()) return true;
    addHazard(n, moved, Hazard::Kind::Elsewhere, [now, before](const z3::model& m) {
      return "the pass re-enters F's entry with sp " + hex(valueIn(m, now)) + " instead of " + hex(valueIn(m, before)) +
             ": F runs recursively";
    });
    if (moved.is_true() || !feasible(n, !moved)) {
      finish(n);
      return false;
    }
    n.assume(!moved);
    return true;
  }

  using Alternatives = std::vector<std::pair<std::string, std::vector<Violation>>>;

  const TrampolineContract* contractAt(const std::string& key) const {
    if (!s_.contracts) return nullptr;
    auto it = s_.contracts->find(key);
    return it == s_.contracts->end() ? nullptr : &it->second;
  }

  // Does `call T [+ k]` name the entry `loc`? `call T` names T itself and,
  // when T's code is known, every entry its contract lists.
  bool names(const OutcomeSpec& o, const Location& loc) const {
    if (o.kind != OutcomeSpec::Kind::Call || o.target != loc.callee) return false;
    if (o.offset) return loc.symbol == o.entry();
    return loc.symbol == o.target || s_.site->trampolines().count(loc.symbol) > 0;
  }

  // `call T` where the pass reached `loc`, an entry of T: the contract of
  // that entry, if T's code is known (modular: T's proof covers the rest).
  std::vector<Violation> callAt(const ExitContext& x, const OutcomeSpec& o, const Location& loc) const {
    std::string entries;
    for (const auto& [key, code] : s_.site->trampolines())
      if (code.contract.symbol == loc.callee) entries += (entries.empty() ? "" : ", ") + key;
    if (!entries.empty() && !s_.site->trampolines().count(loc.symbol)) {
      std::string at = loc.symbol;
      return {Violation{c_.bool_val(true), [at, entries](const z3::model&) {
                          return at + " is not an entry of the trampoline (its contract lists " + entries + ")";
                        }}};
    }
    const TrampolineContract* k = contractAt(loc.symbol);
    std::vector<Violation> v = callViolations(x, o, k);
    if (k && k->refutation) {
      std::string why = k->refutation->rule;
      v.push_back(Violation{c_.bool_val(true), [why](const z3::model&) { return why; }});
    }
    if (k) {
      std::vector<Violation> regs = contractRegisters(x, *k);
      v.insert(v.end(), regs.begin(), regs.end());
      if (auto code = s_.site->trampolines().find(loc.symbol); code != s_.site->trampolines().end())
        if (auto ops = opsLiteralViolation(code->second)) v.push_back(*ops);
    }
    return v;
  }

  // CALL_OPS: the trampoline's proof takes F's ops literal to point to a
  // struct ftrace_ops ([call_ops]: ops->func the callback, direct_call 0 or
  // the direct trampoline). A modular proof may rely on that only when
  // every version of the literal a later load may read names a data symbol
  // the spec declares: not a numeral (`.quad 0`: ftrace_caller would load
  // ops->direct_call from address 184), not F or any code the spec calls or
  // enters, not an expression. Every version of the literal in this pass's
  // site counts: the trampoline loads it after the pass enters, at any
  // later time.
  std::optional<Violation> opsLiteralViolation(const TrampolineCode& code) const {
    if (!code.contract.callback.callOps || !code.opsLiteral) return std::nullopt;
    const Spec& spec = s_.site->spec();
    std::vector<std::string> codeSymbols{spec.function};
    for (const auto& [key, c] : s_.site->trampolines()) codeSymbols.push_back(c.contract.symbol);
    auto addTargets = [&](const BehaviourSpec& b) {
      for (const OutcomeSpec& o : b.alternatives)
        if (!o.target.empty()) codeSymbols.push_back(o.target);
    };
    for (const auto& [name, b] : spec.behaviour) addTargets(b);
    for (const TransitionSpec& t : spec.transitions)
      if (t.allow) addTargets(*t.allow);
    std::vector<std::pair<std::string, z3::expr>> structs;
    for (const SymbolSpec& sym : spec.symbols)
      if (std::find(codeSymbols.begin(), codeSymbols.end(), sym.name) == codeSymbols.end())
        structs.emplace_back(sym.name, s_.site->symbol(sym.name));
    z3::expr literal = code.opsLiteral->simplify();
    z3::expr_vector bad(c_);
    std::vector<std::pair<z3::expr, std::string>> shown;
    for (unsigned u = 0; u < s_.site->spec().entryUnit(); ++u) {
      if (!z3::eq(s_.site->unitAddress(u).simplify(), literal)) continue;
      for (const WordImage& img : s_.versions[u]) {
        z3::expr value = img.symbolic.term;
        unsigned bits = value.get_sort().bv_size();
        if (bits < 64) value = z3::sext(value, 64 - bits);
        z3::expr_vector named(c_);
        for (const auto& [name, at] : structs) named.push_back(value == at);
        z3::expr none = named.empty() ? c_.bool_val(true) : !z3::mk_or(named);
        bad.push_back(none);
        shown.emplace_back(value, img.source);
      }
    }
    if (bad.empty()) return std::nullopt;
    z3::expr when = z3::mk_or(bad).simplify();
    if (when.is_false()) return std::nullopt;
    std::string entry = code.contract.symbol, unit = "F" + std::to_string(code.contract.callback.callOps->literal);
    std::vector<z3::expr> terms;
    std::vector<std::string> sources;
    for (const auto& [value, source] : shown) terms.push_back(value), sources.push_back(source);
    auto names = structs;
    return Violation{when, [entry, unit, terms, sources, names](const z3::model& m) {
                       std::string why;
                       for (size_t i = 0; i < terms.size(); ++i) {
                         bool some = false;
                         for (const auto& [name, at] : names)
                           some = some || m.eval(terms[i] == at, true).is_true();
                         if (some) continue;
                         why = "'" + sources[i] + "' (" + hex(u64(m.eval(terms[i], true))) + ")";
                         break;
                       }
                       return "the pass enters " + entry + " while the ops literal at " + unit + " may hold " + why +
                              ", which is no struct ftrace_ops the spec declares: " + entry +
                              "'s proof takes the literal to point to one ([call_ops]); declare the struct in "
                              "[symbols]";
                     }};
  }

  // The trampoline's proof starts from the entry state its contract
  // states: each register of its `values` within them, and every other
  // register outside the general ones that is fixed at a function's entry
  // (arm64's BTYPE, x86's DF) at zero. The pass must arrive so:
  // under arm64-bti BTYPE is the branch type a landing pad judges, so a
  // `br x10` into an entry whose contract takes BTYPE 00 (a BL) or 01 (a
  // `br x16/x17`) is refused, as the inline run's Branch Target exception.
  std::vector<Violation> contractRegisters(const ExitContext& x, const TrampolineContract& k) const {
    const std::vector<RegisterInfo>& file = isa_.registers(t_);
    std::vector<Violation> out;
    auto explainIn = [&](unsigned r, const z3::expr& now, std::string allowed) {
      std::string name = file[r].name, entry = k.key();
      return [name, now, allowed, entry](const z3::model& m) {
        z3::expr v = m.eval(now, true);
        std::string got = v.is_bool() ? (v.is_true() ? "1" : "0") : hex(u64(v));
        return "the pass enters " + entry + " with " + name + " = " + got + ", but its contract's proof takes " +
               name + " " + allowed + " (contract `values`; under arm64-bti BTYPE is the branch type the landing "
               "pad accepts)";
      };
    };
    for (unsigned r = 0; r < file.size(); ++r) {
      const RegisterInfo& info = file[r];
      z3::expr now = x.now.reg(r);
      auto listed = std::find_if(k.values.begin(), k.values.end(), [&](const auto& v) {
        return registerNumber(isa_, v.first, t_) == r;
      });
      if (listed != k.values.end()) {
        z3::expr_vector any(c_);
        std::string allowed;
        for (uint64_t a : listed->second) {
          any.push_back(info.bits == 0 ? now == c_.bool_val(a != 0) : now == c_.bv_val(a, info.bits));
          allowed += (allowed.empty() ? "in {" : ", ") + std::to_string(a);
        }
        z3::expr bad = (!z3::mk_or(any)).simplify();
        if (!bad.is_false()) out.push_back(Violation{bad, explainIn(r, now, allowed + "}")});
        continue;
      }
      if (info.general || info.zero || info.unknownAtEntry) continue;
      // An entry state holds such a register at zero (RegisterInfo), and so
      // does the proof's.
      z3::expr zero = info.bits == 0 ? c_.bool_val(false) : c_.bv_val(0, info.bits);
      z3::expr bad = (now != zero).simplify();
      if (!bad.is_false()) out.push_back(Violation{bad, explainIn(r, now, "= 0, as at a function's entry")});
    }
    return out;
  }

  // The allowed behaviours that fit where the pass left, each with what
  // would break it. A pass that ran a trampoline inline and came back fits
  // only `call T`: its conditions at T's entry, its live state here.
  Alternatives alternatives(const Location& loc, const ExitContext& x, const std::optional<Called>& called) const {
    Alternatives alts;
    for (const OutcomeSpec& o : s_.allowed.alternatives) {
      if (called) {
        if (loc.kind != LocKind::Symbol && names(o, Location{LocKind::Symbol, 0, called->entry, called->callee})) {
          // Memory is checked where the modular proof checks it: up to T's
          // entry here, and each of T's stores by the trampoline run.
          ExitContext atCall{x.entry, called->atEntry, x.abi, x.resumeAddress, x.nameAddress};
          std::vector<Violation> v = conditionViolations(called->atEntry, o);
          std::vector<Violation> memory = memoryChanged(atCall);
          std::vector<Violation> regs = liveRegistersChanged(x, {});
          v.insert(v.end(), memory.begin(), memory.end());
          v.insert(v.end(), regs.begin(), regs.end());
          alts.push_back({o.str(), v});
        }
        continue;
      }
      if (loc.kind != LocKind::Symbol && o.kind == OutcomeSpec::Kind::Untraced)
        alts.push_back({o.str(), untracedViolations(x)});
      if (loc.kind == LocKind::Symbol && names(o, loc)) alts.push_back({o.str(), callAt(x, o, loc)});
      if (loc.kind == LocKind::Symbol && o.kind == OutcomeSpec::Kind::Enter && o.target == loc.symbol)
        alts.push_back({o.str(), enterViolations(x, o)});
    }
    return alts;
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
    std::string where = loc.kind == LocKind::Symbol ? loc.symbol : "F's body";
    if (n.called) where += " (back from " + n.called->entry + ")";
    Alternatives alts = alternatives(loc, x, n.called);
    if (loc.kind == LocKind::Symbol && !n.called)
      if (const TrampolineContract* k = contractAt(loc.symbol); k && !k->proven && !k->refutation) {
        unknown_ = true;  // the pass relies on a contract the solver could not prove
        out_.unknownReason = "the proof of " + loc.symbol + "'s contract: " + k->unknownReason;
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
      std::string what = n.called ? "calls " + n.called->entry + " and then " +
                                        (loc.kind == LocKind::Symbol ? "reaches " + loc.symbol : "runs F's body")
                         : loc.kind == LocKind::Symbol ? "reaches " + loc.symbol
                                                       : "runs F's body untraced";
      addHazard(n, c_.bool_val(true), Hazard::Kind::Exit,
                [what, allowed](const z3::model&) { return what + ", but the allowed behaviours are: " + allowed; },
                loc);
      return;
    }
    Violation none = noneHolds(alts, c_);
    addHazard(n, none.when, Hazard::Kind::Exit,
              [where, e = none.explain](const z3::model& m) { return "at " + where + ": " + e(m); }, loc);
  }

  // Inline mode: at a trampoline entry that an allowed `call` names, the
  // pass runs the trampoline's real words (checker/explore/TrampolineRun.h) and,
  // where it resumes, goes on through the site. False when this is not
  // such a place.
  bool runInline(Node& n, const Location& loc, bool inSlot) {
    // A witness only needs a feasible way to an exit: the trampoline's own
    // run adds nothing to that.
    if (!s_.inlineTrampolines || s_.witnessOnly || inSlot || n.called) return false;
    auto it = s_.site->trampolines().find(loc.symbol);
    if (it == s_.site->trampolines().end()) return false;
    bool named = std::any_of(s_.allowed.alternatives.begin(), s_.allowed.alternatives.end(),
                             [&](const OutcomeSpec& o) { return names(o, loc); });
    if (!named) return false;
    const TrampolineCode& code = it->second;
    z3::expr resume = s_.site->bodyStart();
    CallerView view{&entry_, resume, resume + c_.bv_val(uint64_t(code.ipOffset), 64), opsApart_};
    for (const ApartRanges& e : code.callerFacts(entry_, abi_)) n.assume(e.fact());  // as the modular proof assumes them
    z3::expr before = pathOf(n);
    Decide feasible = [this, before](const std::vector<z3::expr>& path, const z3::expr& cond) {
      z3::expr_vector v(c_);
      v.push_back(before);
      for (const z3::expr& e : path) v.push_back(e);
      v.push_back(cond);
      Answer a = prover_.check(z3::mk_and(v));
      if (a == Answer::Unknown) {
        unknown_ = true;
        out_.unknownReason = prover_.lastUnknownReason();
      }
      return a;
    };
    Called called{loc.symbol, loc.callee, n.cpu.state};
    // The path has pc == the entry; the runner finds its words by offset.
    Cpu atEntry = n.cpu;
    atEntry.pc = code.entry();
    std::vector<TrampolineOutcome> outcomes = runTrampoline(code, atEntry, view, feasible, s_.maxSteps);
    n.events.push_back(Event{Event::Kind::Call, 0, loc.symbol, n.cpu.pc, std::nullopt, nullptr, false, 0, std::nullopt, nullptr});
    for (TrampolineOutcome& o : outcomes) {
      if (o.undecided) {
        unknown_ = true;
        out_.unknownReason = *o.undecided;
        continue;
      }
      Node c = n;
      c.path.insert(c.path.end(), o.path.begin(), o.path.end());
      for (const TrampolineEvent& e : o.events)
        c.events.push_back(Event{Event::Kind::Step, 0, "", e.pc, e.word, nullptr, e.taken, 0, e, nullptr});
      for (const Violation& v : o.violations) addHazard(c, v.when, Hazard::Kind::Trampoline, v.explain);
      if (!o.resumed) {
        finish(c);
        continue;
      }
      c.cpu = *o.resumed;
      c.called = called;
      c.events.push_back(Event{Event::Kind::Return, 0, loc.symbol, c.cpu.pc, std::nullopt, nullptr, false, 0, std::nullopt, nullptr});
      later(std::move(c));
    }
    return true;
  }

  // The distinct images of word i these observers may fetch, each with
  // the observers after it. `merge` = false: each version its own group
  // (a byte site checks each instruction's versions together afterwards,
  // FetchModel::stillFetchable, which needs the version each observer saw).
  struct Group {
    const WordImage* image;
    std::vector<Observer> observers;
    std::string names;
    std::optional<std::string> race;  // a CMODX violation this fetch may be part of
    std::vector<unsigned> versions;   // every version with this image
  };
  std::vector<Group> groupsOf(const std::vector<Observer>& observers, unsigned i, bool merge = true) {
    const auto& vers = s_.versions[i];
    std::vector<Group> groups;
    for (unsigned v = 0; v < vers.size(); ++v) {
      std::vector<Observer> next;
      for (const Observer& o : observers)
        if (auto r = s_.fetch->observe(o, i, v))
          if (std::find(next.begin(), next.end(), *r) == next.end()) next.push_back(*r);
      if (next.empty()) continue;
      ++out_.counts.executions;
      std::optional<std::string> race = cmodxRace(next, i, v);
      auto g = std::find_if(groups.begin(), groups.end(),
                            [&](const Group& x) { return merge && x.image->sameAs(vers[v]); });
      const std::string& nm = s_.versionNames[i][v];
      if (g == groups.end()) {
        groups.push_back(Group{&vers[v], next, nm, race, {v}});
      } else {
        g->versions.push_back(v);
        for (const auto& o : next)
          if (std::find(g->observers.begin(), g->observers.end(), o) == g->observers.end()) g->observers.push_back(o);
        g->names += "/" + nm;
        if (!g->race) g->race = race;
      }
      for (const WordImage* mix : mixesOf(next, i, v)) {
        ++out_.counts.executions;
        groups.push_back(Group{mix, next, mix->source, race, {v}});
      }
    }
    return groups;
  }

  // Arm ARM B2.2.5: a conditional branch fetched while a write turns it into
  // another conditional branch may run with the condition of either and
  // the target of either. The two crossed words, for each version a write
  // racing this fetch of version v puts there. The fetch is one of version
  // v for the fetch model (the mix's bits are v's and the racing write's).
  std::vector<const WordImage*> mixesOf(const std::vector<Observer>& obs, unsigned i, unsigned v) {
    const auto& vers = s_.versions[i];
    std::vector<const WordImage*> out;
    if (!t_.isa->mixesUnderModification(vers[v].assembled)) return out;
    std::vector<unsigned> racing;
    for (const Observer& o : obs)
      for (unsigned j : s_.fetch->racingVersions(o, i, v))
        if (std::find(racing.begin(), racing.end(), j) == racing.end()) racing.push_back(j);
    for (unsigned j : racing) {
      if (!t_.isa->mixesUnderModification(vers[j].assembled) || vers[j].sameAs(vers[v])) continue;
      std::optional<uint64_t> field = t_.isa->mixableTargetField(vers[v].assembled, vers[j].assembled);
      if (!field) {
        // Two kinds of conditional branch: their fields do not line up, and
        // this model does not build the crossed instruction.
        unknown_ = true;
        out_.unknownReason = s_.site->spec().unitName(i) + " changes from '" + vers[v].source + "' to '" +
                             vers[j].source + "' while this pass may fetch it: the Arm ARM lets the fetch take the "
                             "condition of one and the target of the other, and for two kinds of conditional branch "
                             "the model does not build that instruction";
        continue;
      }
      for (bool condOld : {true, false}) {
        auto key = std::make_tuple(i, v, j, condOld);
        auto it = mixes_.find(key);
        if (it == mixes_.end()) {
          const WordImage& cond = condOld ? vers[v] : vers[j];
          const WordImage& target = condOld ? vers[j] : vers[v];
          it = mixes_.emplace(key, crossed(cond, target, *field)).first;
        }
        if (it->second.sameAs(vers[v]) || it->second.sameAs(vers[j])) continue;
        out.push_back(&it->second);
      }
    }
    return out;
  }

  // Is `img` a crossed word fetched as version v of word i?
  bool mixOf(const WordImage* img, unsigned i, unsigned v) const {
    for (const auto& [key, w] : mixes_)
      if (&w == img) return std::get<0>(key) == i && std::get<1>(key) == v;
    return false;
  }

  // The word with `target`'s bits in `field` and `cond`'s elsewhere.
  WordImage crossed(const WordImage& cond, const WordImage& target, uint64_t field) const {
    WordImage w = cond;
    unsigned bits = w.symbolic.term.get_sort().bv_size();
    z3::expr m = c_.bv_val(field, bits);
    w.symbolic.term = ((cond.symbolic.term & ~m) | (target.symbolic.term & m)).simplify();
    w.symbolic.knownMask = (cond.symbolic.knownMask & ~field) | (target.symbolic.knownMask & field);
    w.symbolic.knownBits = ((cond.symbolic.knownBits & ~field) | (target.symbolic.knownBits & field)) &
                           w.symbolic.knownMask;
    w.symbolic.conditions = cond.symbolic.conditions;
    w.symbolic.reasons = cond.symbolic.reasons;
    w.symbolic.conditions.insert(w.symbolic.conditions.end(), target.symbolic.conditions.begin(),
                                 target.symbolic.conditions.end());
    w.symbolic.reasons.insert(w.symbolic.reasons.end(), target.symbolic.reasons.begin(), target.symbolic.reasons.end());
    w.assembled.bits = (cond.assembled.bits & ~field) | (target.assembled.bits & field);
    w.assembled.symbolicMask = (cond.assembled.symbolicMask & ~field) | (target.assembled.symbolicMask & field);
    w.source = "the condition of '" + cond.source + "' with the target of '" + target.source + "'";
    return w;
  }

  // The versions of word i the pass may see: one execution per distinct
  // image; the others run their step now and wait, this one goes on.
  std::optional<Instruction> fetchVersions(Node& n, unsigned i) {
    std::vector<Group> groups = groupsOf(n.observers, i);
    if (groups.empty()) return std::nullopt;
    if (merging_ && groups.size() > 1) return fetchMerged(n, i, groups);
    for (size_t k = groups.size(); k-- > 1;) {
      Node c = n;
      seen(c, i, groups[k].image, groups[k].observers, groups[k].names, groups[k].race);
      if (executor_.step(c, groups[k].image->fetched())) later(std::move(c));
    }
    seen(n, i, groups[0].image, groups[0].observers, groups[0].names, groups[0].race);
    return groups[0].image->fetched();
  }

  // Symbolic fetch choices: each image runs its step from the same state
  // under `choice == k`; the executions that end at the same place with
  // the same kind of state are one again, each register and memory
  // holding its image's result under its guard. Those that differ (a
  // branch in one image, not in another) go on apart: a path is a
  // control-flow path.
  std::optional<Instruction> fetchMerged(Node& n, unsigned i, const std::vector<Group>& groups) {
    z3::expr choice = c_.bv_const(("fetch#" + std::to_string(choices_++)).c_str(), 16);
    size_t paths = n.path.size(), hazards = n.hazards.size();
    std::vector<Node> ran;
    std::vector<z3::expr> guards = {};
    for (size_t k = 0; k < groups.size() && !done(); ++k) {
      Node c = n;
      z3::expr guard = choice == c_.bv_val(unsigned(k), 16);
      c.path.push_back(guard);
      seen(c, i, groups[k].image, groups[k].observers, groups[k].names, groups[k].race);
      if (executor_.step(c, groups[k].image->fetched())) {
        ran.push_back(std::move(c));
        guards.push_back(guard);
      }
    }
    if (done()) return std::nullopt;
    std::vector<bool> taken(ran.size(), false);
    for (size_t a = 0; a < ran.size(); ++a) {
      if (taken[a]) continue;
      std::vector<size_t> same{a};
      for (size_t b = a + 1; b < ran.size(); ++b)
        if (!taken[b] && mergeable(ran[a], ran[b])) same.push_back(b), taken[b] = true;
      later(same.size() == 1 ? std::move(ran[a]) : merged(ran, guards, same, paths, hazards));
    }
    return std::nullopt;
  }

  static bool sameTerms(const std::vector<z3::expr>& a, const std::vector<z3::expr>& b) {
    if (a.size() != b.size()) return false;
    for (size_t k = 0; k < a.size(); ++k)
      if (!z3::eq(a[k], b[k])) return false;
    return true;
  }

  // Executions of one fetch that may be one again: at the same pc with
  // the same pending transfer, the same effects, accesses and fresh
  // values, and the same pass bookkeeping. Registers and memory may differ.
  static bool mergeable(const Node& a, const Node& b) {
    if (a.steps != b.steps || a.interrupts != b.interrupts || a.inBody != b.inBody || a.located || b.located ||
        a.called || b.called || a.emulate || b.emulate || a.fetchedAt != b.fetchedAt ||
        a.events.size() != b.events.size() || !z3::eq(a.cpu.pc.simplify(), b.cpu.pc.simplify()))
      return false;
    if (a.cpu.slot.has_value() != b.cpu.slot.has_value()) return false;
    if (a.cpu.slot) {
      const Cpu::Slot &x = *a.cpu.slot, &y = *b.cpu.slot;
      if (!z3::eq(x.branchPc, y.branchPc) || x.control.kind != y.control.kind || x.control.likely != y.control.likely ||
          x.control.forbiddenSlot != y.control.forbiddenSlot || !z3::eq(x.control.taken, y.control.taken) ||
          !z3::eq(x.control.target, y.control.target))
        return false;
    }
    const MachineState &s = a.cpu.state, &t = b.cpu.state;
    if (s.freshCount != t.freshCount || s.havocCount != t.havocCount || s.effects.size() != t.effects.size() ||
        s.overlayReads.size() != t.overlayReads.size() || s.boundarySp.has_value() != t.boundarySp.has_value() ||
        !sameTerms(s.stored, t.stored) || !sameTerms(s.storedSinceBoundary, t.storedSinceBoundary) ||
        !sameTerms(s.loaded, t.loaded))
      return false;
    if (s.boundarySp && !z3::eq(*s.boundarySp, *t.boundarySp)) return false;
    for (size_t k = 0; k < s.effects.size(); ++k) {
      const SideEffect &x = s.effects[k], &y = t.effects[k];
      if (x.what != y.what || x.kind != y.kind || x.ordering != y.ordering || !z3::eq(x.address, y.address) ||
          x.value.has_value() != y.value.has_value() || (x.value && !z3::eq(*x.value, *y.value)))
        return false;
    }
    for (size_t k = 0; k < s.overlayReads.size(); ++k) {
      const OverlayRead &x = s.overlayReads[k], &y = t.overlayReads[k];
      if (x.unit != y.unit || !z3::eq(x.touched, y.touched) || !z3::eq(x.pick, y.pick) || !z3::eq(x.torn, y.torn))
        return false;
    }
    return true;
  }

  // One execution for ran[which]: each differing value an ite over the
  // guards; the path the disjunction of their own conditions since the
  // fork (`paths`), every hazard of each, the fetch event with each image
  // as an alternative, and observers merged into their meet (which
  // allows more: a counterexample's schedule is checked exactly before
  // it counts).
  Node merged(std::vector<Node>& ran, const std::vector<z3::expr>& guards, const std::vector<size_t>& which,
              size_t paths, size_t hazards) {
    Node out = ran[which.front()];
    auto pick = [&](auto value) {
      z3::expr v = value(ran[which.front()]);
      for (size_t k = 1; k < which.size(); ++k) {
        z3::expr w = value(ran[which[k]]);
        if (!z3::eq(v, w)) v = z3::ite(guards[which[k]], w, v);
      }
      return v;
    };
    for (size_t r = 0; r < out.cpu.state.regs.size(); ++r)
      out.cpu.state.regs[r] = pick([r](const Node& x) { return x.cpu.state.regs[r]; });
    out.cpu.state.memory = pick([](const Node& x) { return x.cpu.state.memory; });
    z3::expr_vector ways(c_);
    for (size_t k : which) {
      z3::expr_vector since(c_);
      for (size_t p = paths; p < ran[k].path.size(); ++p) since.push_back(ran[k].path[p]);
      ways.push_back(z3::mk_and(since));
    }
    out.path.erase(out.path.begin() + long(paths), out.path.end());
    out.path.push_back(z3::mk_or(ways));
    for (size_t k = 1; k < which.size(); ++k)
      for (size_t h = hazards; h < ran[which[k]].hazards.size(); ++h) out.hazards.push_back(ran[which[k]].hazards[h]);
    Event fetch = out.events.back();
    fetch.alternatives.clear();
    fetch.guards.clear();
    for (size_t k : which) {
      fetch.alternatives.push_back(ran[k].events.back());
      fetch.guards.push_back(guards[k]);
    }
    out.events.back() = std::move(fetch);
    Observer least = out.observers.front();
    for (size_t k : which)
      for (const Observer& o : ran[k].observers) least = s_.fetch->meet(least, o);
    out.observers = {least};
    out.cpu.state.overlay = dataOverlay(out.observers);
    return out;
  }

  // The pass's events with each merged fetch replaced by the image the
  // model chose.
  Node resolved(const Node& n, const z3::model& m) const {
    Node r = n;
    for (Event& e : r.events) {
      if (e.alternatives.empty()) continue;
      size_t k = 0;
      while (k + 1 < e.guards.size() && !m.eval(e.guards[k], true).is_true()) ++k;
      Event chosen = e.alternatives[k];
      e = std::move(chosen);
    }
    return r;
  }

  // A byte site (x86): the instruction at unit `first` is decoded from
  // bytes each fetched in any version the fetch model allows, one byte
  // more until the ISA knows its length (IsaPlugin::instructionLength).
  // Each distinct mix of versions is its own execution: a torn
  // instruction is simply one of them.
  std::optional<Instruction> fetchBytes(Node& n, unsigned first) {
    if (!s_.instructionStarts.empty() && !s_.instructionStarts.count(first) && !s_.witnessOnly) {
      std::string unit = s_.site->spec().unitName(first);
      addHazard(n, c_.bool_val(true), Hazard::Kind::Elsewhere, [unit](const z3::model&) {
        return "the pass decodes from " + unit + ", where no state it may see starts an instruction: it runs "
               "bytes nobody wrote as code there (the tail of a torn instruction, or the middle of a new one)";
      });
      finish(n);
      return std::nullopt;
    }
    struct Partial {
      Node node;
      std::vector<const WordImage*> bytes;
      std::vector<std::string> names;
      std::vector<unsigned> version;  // per byte: the version it is
      bool decoded = false;          // the ISA said these bytes need more
      // What the node was after each byte (index k: after byte k - 1), to
      // go back to when a byte is read anew.
      std::vector<Snapshot> after;
    };
    std::vector<Partial> work;
    work.push_back(Partial{n, {}, {}, {}, true, {snapshot(n)}});
    std::optional<std::pair<Node, Instruction>> goesOn;  // the first decoding: this execution goes on with it
    while (!work.empty()) {
      // One fetch may fork hundreds of ways: the time budget holds inside it too.
      if (timeUp()) return std::nullopt;
      Partial p = std::move(work.back());
      work.pop_back();
      if (p.decoded) {
        extend(p, first, work);
        continue;
      }
      std::array<uint8_t, 16> raw{};
      std::array<bool, 16> symbolic{};
      size_t count = std::min<size_t>(p.bytes.size(), raw.size());
      for (size_t k = 0; k < count; ++k) {
        raw[k] = uint8_t(p.bytes[k]->symbolic.knownBits);
        symbolic[k] = p.bytes[k]->symbolic.knownMask != 0xff;
      }
      IsaPlugin::Length len = t_.isa->instructionLength(std::span<const uint8_t>(raw.data(), count),
                                                        std::span<const bool>(symbolic.data(), count), t_);
      if (len.kind == IsaPlugin::Length::NeedMore) {
        p.decoded = true;
        work.push_back(std::move(p));
        continue;
      }
      if (len.kind == IsaPlugin::Length::PlacementDependent) {
        // A torn fetch put an address byte where the opcode is read: one
        // execution per value the placement lets that byte have.
        // The bytes after it were read for the other meaning: they are
        // read again, from the node as it was after this one.
        size_t k = size_t(std::find(symbolic.begin(), symbolic.begin() + count, true) - symbolic.begin());
        for (auto& [value, when] : byteValues(p.node, p.bytes[k]->symbolic.term, first + unsigned(k))) {
          Partial r = p;
          restore(r.node, r.after[k + 1]);
          r.bytes.resize(k + 1), r.names.resize(k + 1), r.version.resize(k + 1), r.after.resize(k + 2);
          r.node.assume(when);
          r.bytes[k] = value;
          r.after[k + 1] = snapshot(r.node);
          work.push_back(std::move(r));
        }
        continue;
      }
      // Known, or Invalid: the model decodes the bytes and raises #UD.
      Instruction insn = compose(p.bytes);
      std::string versions;
      bool same = std::all_of(p.names.begin(), p.names.end(), [&](const std::string& x) { return x == p.names[0]; });
      for (const std::string& x : p.names) versions += (versions.empty() ? "" : " ") + x;
      std::string label = p.bytes.size() == 1 ? p.names[0] : same ? "all " + p.names[0] : versions;
      unsigned landed = ~0u;
      for (const auto& o : p.node.observers) landed = std::min(landed, s_.fetch->landed(o));
      p.node.events.push_back(Event{Event::Kind::Fetch, first, label, p.node.cpu.pc, insn.term, nullptr, false, landed,
                                    std::nullopt, p.node.cpu.state.overlay, insn.bytes});
      p.node.fetchedAt = first;
      if (!goesOn) {
        goesOn.emplace(std::move(p.node), insn);
        continue;
      }
      // Every other decoding runs its instruction now, before the rest
      // are decoded: a torn one that faults (#UD) ends its pass at once,
      // and a counterexample then ends the fetch, where decoding every
      // mix first cost seconds and, for a 10-byte instruction with an
      // address in it, gigabytes. Only the order changes: each decoding
      // still runs, or waits in the queue.
      if (executor_.step(p.node, insn)) later(std::move(p.node));
      if (done()) return std::nullopt;  // that step refuted the transition
    }
    if (!goesOn) return std::nullopt;
    n = std::move(goesOn->first);
    return goesOn->second;
  }

  // What fetching a byte changes on a node, to undo it.
  struct Snapshot {
    std::vector<Observer> observers;
    std::shared_ptr<const MemoryOverlay> overlay;
    size_t events = 0, hazards = 0, path = 0;
  };
  static Snapshot snapshot(const Node& n) {
    return {n.observers, n.cpu.state.overlay, n.events.size(), n.hazards.size(), n.path.size()};
  }
  static void restore(Node& n, const Snapshot& s) {
    n.observers = s.observers;
    n.cpu.state.overlay = s.overlay;
    n.events.erase(n.events.begin() + long(s.events), n.events.end());
    n.hazards.erase(n.hazards.begin() + long(s.hazards), n.hazards.end());
    n.path.erase(n.path.begin() + long(s.path), n.path.end());
  }

  // One byte more for a byte site's instruction: each version the fetch
  // model allows, each its own partial fetch.
  template <class Partial>
  void extend(const Partial& p, unsigned first, std::vector<Partial>& work) {
    unsigned u = first + unsigned(p.bytes.size());
    if (u >= s_.site->regionUnits()) {
      unknown_ = true;  // what lies past the declared bytes is not known
      out_.unknownReason = "a pass decodes an instruction at " + s_.site->spec().unitName(first) +
                           " whose bytes run past the site's declared bytes";
      return;
    }
    for (Group& g : groupsOf(p.node.observers, u, false)) {
      Partial q = p;
      seen(q.node, u, g.image, g.observers, g.names, g.race, true);
      q.bytes.push_back(g.image);
      q.names.push_back(g.names);
      q.version.push_back(g.versions.front());  // unmerged: one version a group
      q.decoded = false;
      q.after.push_back(snapshot(q.node));
      // The whole instruction is fetched between two serialisations of its
      // CPU: keep the observers none of whose bytes a later sync_core rules
      // out (time only moves on, so pruning now loses nothing).
      std::vector<Observer> whole;
      for (const Observer& o : q.node.observers) {
        bool ok = true;
        for (size_t k = 0; k < q.bytes.size() && ok; ++k) ok = s_.fetch->stillFetchable(o, first + unsigned(k), q.version[k]);
        if (ok) whole.push_back(o);
      }
      if (whole.empty()) continue;
      q.node.observers = std::move(whole);
      q.after.back().observers = q.node.observers;
      work.push_back(std::move(q));
    }
  }

  // The values a placement-dependent byte may take on this path, each as
  // a concrete byte image with its condition: a few when alignment fixes
  // the low bits of a displacement. Past kMaxByteValues the ways it may
  // decode are not followed (each value is an instruction of its own) and
  // the verdict is UNKNOWN unless another path refutes the transition;
  // so is it when the solver cannot say.
  static constexpr unsigned kMaxByteValues = 16;
  std::deque<WordImage> concreteBytes_;
  std::vector<std::pair<const WordImage*, z3::expr>> byteValues(const Node& n, const z3::expr& byte, unsigned unit) {
    std::vector<std::pair<const WordImage*, z3::expr>> out;
    z3::expr others = c_.bool_val(true);
    for (unsigned tries = 0;; ++tries) {
      Answer a = prover_.check(pathOf(n) && others);
      if (a == Answer::Unknown) {
        unknown_ = true;
        out_.unknownReason = prover_.lastUnknownReason();
      }
      if (a != Answer::Sat) break;
      if (tries == kMaxByteValues) {
        unknown_ = true;
        out_.unknownReason = "a torn fetch reads an address byte at " + s_.site->spec().unitName(unit) +
                             " as an opcode byte, and it may take more than " + std::to_string(kMaxByteValues) +
                             " values where the symbols may lie: those decodings are not explored";
        break;
      }
      uint64_t v = u64(prover_.model().eval(byte, true));
      z3::expr is = byte == c_.bv_val(v, 8);
      others = others && !is;
      WordImage img = s_.versions[unit][0];
      img.symbolic = SymbolicUnit{c_.bv_val(v, 8), {}, {}, v, 0xff};
      img.assembled.bits = v, img.assembled.symbolicMask = 0;
      concreteBytes_.push_back(std::move(img));
      out.push_back({&concreteBytes_.back(), is});
    }
    return out;
  }

  // The instruction the fetched bytes make, in the ISA's byte order.
  Instruction compose(const std::vector<const WordImage*>& bytes) const {
    bool big = t_.isa->instructionByteOrder(t_) == Endian::Big;
    z3::expr term = bytes[0]->symbolic.term;
    uint64_t known = 0;
    for (size_t k = 0; k < bytes.size(); ++k) {
      const z3::expr& b = bytes[k]->symbolic.term;
      if (k) term = big ? z3::concat(term, b) : z3::concat(b, term);
      size_t significance = big ? bytes.size() - 1 - k : k;
      if (significance < 8) known |= (bytes[k]->symbolic.knownBits & 0xff) << (8 * significance);
    }
    return Instruction{term.simplify(), known, unsigned(bytes.size())};
  }

  // Arm's CMODX rule: fetching version v of word i while a later write to
  // it may be under way is defined only when both instructions are on the
  // architecture's list (IsaPlugin::concurrentlyModifiable).
  std::optional<std::string> cmodxRace(const std::vector<Observer>& obs, unsigned i, unsigned v) const {
    const auto& vers = s_.versions[i];
    auto listed = [&](unsigned k) { return t_.isa->concurrentlyModifiable(vers[k].assembled); };
    for (const Observer& o : obs)
      for (unsigned j : s_.fetch->racingVersions(o, i, v)) {
        // A write of the bits the word already holds modifies nothing.
        if (vers[j].sameAs(vers[v]) || (listed(v) && listed(j))) continue;
        return s_.site->spec().unitName(i) + " changes from '" + vers[v].source + "' to '" + vers[j].source +
               "' while this pass may fetch it: concurrent modification and execution of instructions is "
               "CONSTRAINED UNPREDICTABLE unless both are on the Arm ARM's CMODX list (" +
               t_.isa->concurrentModificationList() + ")";
      }
    return std::nullopt;
  }

  // The pass fetches this version of word i.
  // `byte`: one byte of the instruction a byte site's fetch decodes.
  void seen(Node& c, unsigned i, const WordImage* img, const std::vector<Observer>& obs, const std::string& names,
            const std::optional<std::string>& race = std::nullopt, bool byte = false) {
    c.observers = obs;
    unsigned landed = ~0u;
    for (const auto& o : obs) landed = std::min(landed, s_.fetch->landed(o));
    c.cpu.state.overlay = dataOverlay(obs);
    c.events.push_back(Event{byte ? Event::Kind::Byte : Event::Kind::Fetch, i, names, c.cpu.pc, img->symbolic.term,
                             img, false, landed, std::nullopt, c.cpu.state.overlay});
    if (race) addHazard(c, c_.bool_val(true), Hazard::Kind::Cmodx, [why = *race](const z3::model&) { return why; });
    if (c.inBody && i >= siteUnits() && !img->sameAs(s_.versions[i][0])) {
      std::string orig = s_.versions[i][0].source, now = img->source;
      unsigned bodyIndex = i - siteUnits();
      addHazard(c, c_.bool_val(true), Hazard::Kind::Overwritten, [orig, now, bodyIndex](const z3::model&) {
        return "F's body word " + std::to_string(bodyIndex) + " ('" + orig +
               "') runs after the transition overwrote it with '" + now + "'";
      });
    }
  }

  // What the site's data units (before F) may read as from now on: each
  // version from the oldest the fetch model still allows these observers
  // to see up to the newest (time only moves forward, and the pass may run
  // on into a trampoline meanwhile). Each load chooses anew
  // (MachineState::load); without data units, nothing.
  std::map<std::vector<unsigned>, std::shared_ptr<const MemoryOverlay>> overlays_;
  std::shared_ptr<const MemoryOverlay> dataOverlay(const std::vector<Observer>& obs) {
    const Spec& spec = s_.site->spec();
    if (spec.before.empty()) return nullptr;
    std::vector<unsigned> oldest;
    for (unsigned u = 0; u < spec.entryUnit(); ++u) {
      unsigned least = unsigned(s_.versions[u].size()) - 1;
      for (const Observer& o : obs) least = std::min(least, s_.fetch->oldestLoad(o, u));
      oldest.push_back(least);
    }
    auto& cached = overlays_[oldest];
    if (cached) return cached;
    auto overlay = std::make_shared<MemoryOverlay>();
    for (unsigned u = 0; u < spec.entryUnit(); ++u) {
      OverlayUnit unit{s_.site->unitAddress(u), spec.unitName(u), {}, {}};
      for (unsigned v = oldest[u]; v < s_.versions[u].size(); ++v) {
        const WordImage& img = s_.versions[u][v];
        unsigned length = img.assembled.bytes;
        std::vector<z3::expr> bytes;  // data: in the target's byte order
        for (unsigned k = 0; k < length; ++k) {
          unsigned significance = t_.endian == Endian::Big ? length - 1 - k : k;
          bytes.push_back(img.symbolic.term.extract(8 * significance + 7, 8 * significance).simplify());
        }
        unit.versions.push_back(std::move(bytes));
        unit.versionNames.push_back(s_.versionNames[u][v]);
      }
      overlay->units.push_back(std::move(unit));
    }
    cached = overlay;
    return cached;
  }

  // After one instruction ran: forbidden effects and faults; false when
  // the execution ended.
  bool stepped(Node& c, const std::vector<Fault>& faults, size_t effectsBefore) override {
    for (size_t k = effectsBefore; k < c.cpu.state.effects.size(); ++k)
      if (auto why = forbiddenEffect(c.cpu.state.effects[k], s_.site->spec().allowedEffects)) {
        addHazard(c, c_.bool_val(true), Hazard::Kind::Effect, [why = *why](const z3::model&) { return why; });
        finish(c);
        return false;
      }
    for (const Fault& f : faults) {
      if (f.kind == FaultKind::Wait) continue;  // sleeps until an interrupt: harmless
      if (f.kind == FaultKind::Break && breakpointHandled(c, f)) continue;
      if (f.kind == FaultKind::Unpredictable && s_.unpredictableAsHardware) continue;
      z3::expr when = f.when.simplify();
      if (when.is_false()) continue;
      std::string text = std::string(name(f.kind)) + ": " + f.detail;
      addHazard(c, when, Hazard::Kind::Fault, [text](const z3::model&) { return text; });
      c.hazards.back().fault = f.kind;
      if (when.is_true()) {
        finish(c);
        return false;
      }
      ask(c);
      if (done()) return false;
      c.path.push_back(!when);
    }
    return true;
  }

  // The breakpoint the transition wrote, executed where it wrote it: the
  // patcher's handler finds the address in its vector and emulates the
  // new instruction (or, before Linux 5.2, skips it). A breakpoint
  // anywhere else is no patch's and stays a fault.
  bool breakpointHandled(Node& c, const Fault& f) {
    if (s_.breakpointHandler == ModelSpec::Breakpoint::None || !f.when.simplify().is_true()) return false;
    if (c.events.empty() || c.events.back().kind != Event::Kind::Fetch || c.events.back().image) return false;
    auto it = s_.breakpoints.find(c.fetchedAt);
    if (it == s_.breakpoints.end()) return false;
    // text_poke_bp drops its vector after its last sync_core: a breakpoint
    // a CPU may still fetch after the steps finds no handler.
    const Event* byte = nullptr;
    for (auto e = c.events.rbegin(); e != c.events.rend() && !byte; ++e)
      if (e->kind == Event::Kind::Byte && e->word == c.fetchedAt) byte = &*e;
    const auto& vers = s_.versions[c.fetchedAt];
    for (unsigned v = 0; byte && !s_.vectorOutlivesSteps && v < vers.size(); ++v)
      if (vers[v].sameAs(*byte->image) && s_.fetch->fetchableAfterSteps(c.fetchedAt, v)) {
        std::string unit = s_.site->spec().unitName(c.fetchedAt);
        addHazard(c, c_.bool_val(true), Hazard::Kind::Fault, [unit](const z3::model&) {
          return "Break: the breakpoint at " + unit + " may still be fetched after the last step, when the int3 "
                 "handler no longer has the address in its vector (no sync_core after the final write)";
        });
        c.hazards.back().fault = FaultKind::Break;
        return false;
      }
    z3::expr at = s_.site->unitAddress(it->first);
    Instruction emulated = it->second->fetched();
    if (s_.breakpointHandler == ModelSpec::Breakpoint::Emulate) {
      c.emulate.emplace(at, emulated);
    } else {
      c.cpu.pc = at + c_.bv_val(uint64_t(emulated.bytes), 64);
      c.events.push_back(Event{Event::Kind::Handler, 0, "", c.cpu.pc, std::nullopt, nullptr, false, 0, std::nullopt,
                               nullptr, 0});
    }
    return true;
  }

  // ---- one query per distinct path
  void finish(Node& n) {
    // The first counterexample stands: paths that end later in the same
    // step (the other decodings of one fetch, the other outcomes of one
    // trampoline run) are not asked about, nor may they replace it or
    // unsay a witness.
    if (done()) return;
    ++out_.counts.paths;
    if (s_.witnessOnly) {
      z3::expr path = pathOf(n);
      if (baseSatisfiable_ && path.simplify().is_true()) {
        out_.witnessed = true;
        return;
      }
      Answer a = prover_.check(path);
      if (a == Answer::Unknown) {
        unknown_ = true;
        out_.unknownReason = prover_.lastUnknownReason();
      }
      out_.witnessed = a == Answer::Sat;
      return;
    }
    ask(n);
  }

  // Can any of the path's hazards so far happen? Asked when the path ends,
  // and as soon as a fault may arise on it: a path that loops through the
  // site for --max-steps instructions must not keep a fault it could
  // report at once. Those ruled out (or left open: UNKNOWN) are dropped,
  // so the next question is smaller.
  void ask(Node& n) {
    if (n.hazards.empty() || done()) return;
    z3::expr_vector any(c_);
    for (const Hazard& h : n.hazards) any.push_back(h.violation.when);
    Answer a = s_.inlineTrampolines ? prover_.checkOnce(z3::mk_or(any)) : prover_.check(z3::mk_or(any));
    if (a == Answer::Unknown) {
      unknown_ = true;
      out_.unknownReason = prover_.lastUnknownReason();
    }
    if (a != Answer::Sat) {
      n.hazards.clear();
      return;
    }
    const z3::model& m = prover_.model();
    if (!merging_) {
      out_.counterexample = counterexample(n, m);
      return;
    }
    Node r = resolved(n, m);
    size_t upto = r.events.size();
    for (const Hazard& h : r.hazards)
      if (m.eval(h.violation.when, true).is_true()) {
        upto = h.events;
        break;
      }
    if (!scheduleAllowed(r, m, upto)) {
      spurious_ = true;
      return;
    }
    out_.counterexample = counterexample(r, m);
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
    if (broken && isa_.dependsOnException(broken->violation.when)) cx.details.push_back(isa_.exceptionNote());
    std::map<unsigned, std::string> seen;
    std::optional<std::string> tornBytes;  // the faulting byte-site fetch, when it mixed versions
    // Events after the broken rule happened under other assumptions.
    size_t shown = broken ? broken->events : n.events.size();
    for (size_t k = 0; k < shown; ++k) {
      const Event& e = n.events[k];
      if (e.kind == Event::Kind::Byte) {
        const Spec& spec = s_.site->spec();
        cx.schedule.push_back(FetchEvent{int(spec.writeIndex(e.word)), spec.unitName(e.word), e.versionName, e.landed});
        seen[e.word] = e.versionName;
      } else if (e.kind == Event::Kind::Fetch && !e.image) {
        // A byte site's instruction: which bytes it decoded, in which versions.
        const Spec& spec = s_.site->spec();
        std::string bytes = e.length == 1 ? spec.unitName(e.word)
                                          : spec.unitName(e.word) + ".." + std::to_string(spec.writeIndex(e.word) + e.length - 1);
        cx.trace.push_back(traceStep(t_, m, *e.pc, *e.wordTerm, bytes + " (" + e.versionName + ")"));
        tornBytes.reset();
        if (e.versionName.find("old") != std::string::npos && e.versionName.find_first_of(' ') != std::string::npos &&
            e.versionName.find_first_not_of("old ") != std::string::npos)
          tornBytes = (e.length == 1 ? "byte " : "bytes ") + bytes.substr(bytes.find(' ') + 1) + " (" +
                      e.versionName + ")";
      } else if (e.kind == Event::Kind::Handler) {
        std::string where = nameAddress(u64(m.eval(*e.pc, true)), m);
        if (e.wordTerm) {
          cx.trace.push_back(traceStep(t_, m, *e.pc, *e.wordTerm, "emulated by the int3 handler"));
        } else {
          cx.details.push_back("the int3 handler skips the instruction being patched: the pass resumes at " + where);
          if (!cx.trace.empty()) cx.trace.back().note += "<- trap: the handler resumes at " + where;
        }
      } else if (e.kind == Event::Kind::Fetch) {
        const Spec& spec = s_.site->spec();
        int written = int(spec.writeIndex(e.word));
        std::string unit = e.word < spec.entryUnit() ? spec.unitName(e.word) : "word " + std::to_string(written);
        cx.schedule.push_back(FetchEvent{written, unit, e.versionName, e.landed});
        seen[e.word] = e.versionName;
        cx.trace.push_back(traceStep(
            t_, m, *e.pc, *e.wordTerm,
            s_.site->spec().unitName(e.word) + " (" +
                e.versionName + ")"));
      } else if (e.kind == Event::Kind::Interrupt) {
        std::string where = cx.trace.empty() ? "at entry" : "after " + cx.trace.back().text;
        cx.interrupts.push_back("interrupt " + where + ": resumes at " + nameAddress(u64(m.eval(*e.pc, true)), m));
        if (!cx.trace.empty())
          cx.trace.back().note += e.taken ? "<- interrupt here (in its delay slot: EPC = the branch)" : "<- interrupt here";
      } else if (e.kind == Event::Kind::Call) {
        cx.details.push_back("the pass runs " + e.versionName + "'s code inline (--inline-trampolines)");
      } else if (e.kind == Event::Kind::Step && e.step->kind != TrampolineEvent::Kind::Settle) {
        cx.trace.push_back(traceStep(t_, m, *e.step));
      } else if ((e.kind == Event::Kind::Settle || e.kind == Event::Kind::Step) && !cx.trace.empty()) {
        cx.trace.back().note += std::string(e.taken ? "branch taken" : "branch not taken");
      }
    }
    // A torn fetch that decodes to what no state holds says so first: the
    // fault is a consequence of the mix, not of either state's code.
    if (broken && tornBytes && broken->kind == Hazard::Kind::Fault &&
        broken->fault == FaultKind::ReservedInstruction && !cx.trace.empty() && cx.trace.back().origin.rfind("byte", 0) == 0)
      cx.rule = "torn fetch: " + *tornBytes +
                (cx.trace.back().text.rfind("(bad)", 0) == 0
                     ? " decode as no instruction at all"
                     : " decode as '" + cx.trace.back().text + "', an instruction of neither state") +
                ": " + cx.rule;
    cx.intermediateState = unitsSeen(s_.site->spec(), seen);
    for (const OverlayRead& r : n.cpu.state.overlayReads) {
      if (!m.eval(r.touched, true).is_true()) continue;
      uint64_t k = u64(m.eval(r.pick, true));
      const std::string& v = r.versionNames[std::min<uint64_t>(k, r.versionNames.size() - 1)];
      if (m.eval(r.torn, true).is_true())
        cx.details.push_back("a load reads " + r.unit + " torn: the load or the unit is not naturally aligned, so "
                             "not single-copy atomic (Arm ARM B2.2.1), and each byte may come from another version");
      else
        cx.details.push_back("a load reads " + r.unit + " as its " + v + " version");
    }
    cx.entryRegisters = entryRegisters(entry_, m);
    for (const auto& [name, term] : s_.site->symbols()) cx.symbols[name] = u64(m.eval(term, true));
    replay(n, m, broken, cx);
    return cx;
  }

  // Is the schedule (the version each fetch saw, where interrupts came)
  // one the fetch model allows with F where the model puts it? Checked
  // from scratch, with the I-cache lines of that concrete address.
  bool scheduleAllowed(const Node& n, const z3::model& m, size_t upto) const {
    const ModelSpec& model = s_.site->spec().model;
    std::vector<unsigned> lines;
    if (model.fetch->lineGrained())
      lines = s_.site->layout().cacheLines(u64(m.eval(s_.site->symbol(s_.site->spec().function), true)),
                                           model.lineBytes);
    FetchModel fm = s_.fetch->withLines(lines);
    std::vector<Observer> obs;
    auto add = [](std::vector<Observer>& to, const Observer& o) {
      if (std::find(to.begin(), to.end(), o) == to.end()) to.push_back(o);
    };
    for (const Observer& o : fm.starts()) add(obs, o);
    for (size_t k = 0; k < upto && !obs.empty(); ++k) {
      const Event& e = n.events[k];
      std::vector<Observer> next;
      if ((e.kind == Event::Kind::Fetch && e.image) || e.kind == Event::Kind::Byte) {
        const auto& vers = s_.versions[e.word];
        for (unsigned v = 0; v < vers.size(); ++v)
          if (vers[v].sameAs(*e.image) || mixOf(e.image, e.word, v))
            for (const Observer& o : obs)
              if (auto r = fm.observe(o, e.word, v)) add(next, *r);
      } else if (e.kind == Event::Kind::Interrupt) {
        for (const Observer& o : obs) add(next, fm.interrupt(o).value_or(o));
      } else {
        continue;
      }
      obs = std::move(next);
    }
    return !obs.empty();
  }

  // Runs the same path again through the one executor on the concrete
  // values of the model, and checks that it reaches the same places and
  // breaks the same rule. The pass's events say where interrupts came,
  // which way branches went and what each fetch saw.
  class Replay final : public Executor<Execution>::Client {
   public:
    Replay(Explorer& x, const Node& n, const z3::model& m, const Hazard* broken, Counterexample& cx)
        : x_(x), n_(n), m_(m), broken_(broken), cx_(cx), upto_(broken ? broken->events : n.events.size()),
          entry_(x.entry_.evaluatedIn(m)) {}

    void run() {
      Executor<Execution>::Options o;
      o.maxSteps = x_.s_.maxSteps;
      o.exceptionsBetweenSteps = true;
      // The model decides: on its values exactly one way of each branch holds.
      Decide byModel = [this](const std::vector<z3::expr>& path, const z3::expr& cond) {
        for (const z3::expr& e : path)
          if (!m_.eval(e, true).is_true()) return Answer::Unsat;
        return m_.eval(cond, true).is_true() ? Answer::Sat : Answer::Unsat;
      };
      Executor<Execution> executor(*this, byModel, o);
      z3::expr f = m_.eval(x_.s_.site->symbol(x_.s_.site->spec().function), true);
      executor.later(Execution(Cpu(entry_, f)));
      executor.run();
      if (!ended_) fail("replay: the concrete run stops before the schedule ends");
      if (!decided_) judge();
    }

    std::optional<Instruction> fetch(Execution& e) override {
      for (; k_ < upto_ && !decided_; ++k_) {
        const Event& ev = n_.events[k_];
        switch (ev.kind) {
          case Event::Kind::Call:
            if (!call(e, ev)) return std::nullopt;
            break;
          case Event::Kind::Step:
          case Event::Kind::Return:
          case Event::Kind::Byte:  // its instruction's Fetch follows
            break;
          case Event::Kind::Handler:
            e.cpu.pc = m_.eval(*ev.pc, true);
            if (ev.wordTerm) {
              z3::expr word = m_.eval(*ev.wordTerm, true);
              fetched_ = k_++;
              return Instruction{word, u64(word), ev.length};
            }
            break;
          case Event::Kind::Settle: {  // a branch the values decide (the pass had to fork)
            z3::expr t = e.cpu.slot ? e.cpu.slot->control.taken.simplify() : x_.c_.bool_val(ev.taken);
            if (!(t.is_true() || t.is_false()) || t.is_true() != ev.taken) {
              fail("replay: branch decision differs");
              return std::nullopt;
            }
            e.cpu.settleBranch(ev.taken);
            break;
          }
          case Event::Kind::Interrupt:
            e.cpu.interrupt();
            break;
          case Event::Kind::Fetch: {
            e.cpu.state.overlay = ev.overlay;
            z3::expr pc = e.cpu.pc.simplify();
            uint64_t want = u64(m_.eval(*ev.pc, true)), got = u64(pc);
            if (!pc.is_numeral() || want != got) {
              fail("replay: fetch address differs (" + hex(got) + " vs " + hex(want) + ")");
              return std::nullopt;
            }
            z3::expr word = m_.eval(*ev.wordTerm, true);
            fetched_ = k_++;
            return Instruction{word, u64(word), ev.image ? ev.image->fetched().bytes : ev.length};
          }
        }
      }
      end(e);
      return std::nullopt;
    }

    // The executor settled a branch the values leave symbolic: the pass
    // forked there and recorded the way.
    void settled(Execution&, bool taken) override {
      if (k_ < upto_ && n_.events[k_].kind == Event::Kind::Settle && n_.events[k_].taken == taken) ++k_;
      else fail("replay: branch decision differs");
    }

    bool stepped(Execution&, const std::vector<Fault>& faults, size_t) override {
      if (decided_) return false;
      if (broken_ && broken_->kind == Hazard::Kind::Fault && fetched_ + 1 == upto_) {
        for (const Fault& f : faults)
          if (f.kind == broken_->fault && m_.eval(f.when, true).is_true()) {
            cx_.replayed = true;
            cx_.replayNote = "replayed concretely: the fault happens";
            decided_ = true;
            return false;
          }
        fail("replay: the concrete run does not fault there");
        return false;
      }
      return true;
    }

    void runaway(Execution& e) override { end(e); }
    void stuck(Execution&) override { fail("replay: branch decision differs"); }

   private:
    Explorer& x_;
    const Node& n_;
    const z3::model& m_;
    const Hazard* broken_;
    Counterexample& cx_;
    size_t upto_, k_ = 0, fetched_ = 0;
    MachineState entry_;
    std::optional<Called> called_;
    std::optional<MachineState> final_;  // at the end of the schedule
    bool ended_ = false, decided_ = false;

    void fail(const std::string& why) {
      if (decided_) return;
      cx_.replayNote = why;
      decided_ = ended_ = true;
    }
    void end(const Execution& e) {
      ended_ = true;
      if (!final_) final_ = e.cpu.state;
    }

    // The pass ran a trampoline inline here: so does the replay.
    bool call(Execution& e, const Event& ev) {
      const TrampolineCode& code = x_.s_.site->trampolines().at(ev.versionName);
      called_ = Called{ev.versionName, code.contract.symbol, e.cpu.state};
      z3::expr resume = x_.s_.site->bodyStart();
      CallerView view{&entry_, resume, resume + x_.c_.bv_val(uint64_t(code.ipOffset), 64)};
      auto run = replayTrampoline(code, e.cpu, view, m_, x_.s_.maxSteps);
      if (!run) {
        fail("replay: the concrete run of " + ev.versionName + " takes another path");
        return false;
      }
      // The rule broken in the trampoline is broken by its last run before
      // the rule: that run must break the same rule at the same place.
      bool last = true;
      for (size_t k = k_ + 1; k < upto_; ++k) last = last && n_.events[k].kind != Event::Kind::Call;
      if (broken_ && broken_->kind == Hazard::Kind::Trampoline && last) {
        bool same = false;
        std::string note = replayVerdict(run, m_, broken_->violation.explain(m_), same);
        if (!same) {
          fail(note);
          return false;
        }
        cx_.replayed = true;
        cx_.replayNote = "replayed concretely, " + ev.versionName + " included: " + broken_->violation.explain(m_);
        decided_ = ended_ = true;
        return false;
      }
      if (!run->resumed) {
        fail("replay: the concrete run of " + ev.versionName + " does not come back");
        return false;
      }
      e.cpu = *run->resumed;
      while (k_ + 1 < upto_ && n_.events[k_ + 1].kind != Event::Kind::Return) ++k_;
      return true;
    }

    // The schedule ran to its end: does the concrete state break the rule?
    void judge() {
      decided_ = true;
      if (!broken_) return;
      if (broken_->kind == Hazard::Kind::Exit && broken_->exit) {
        ExitContext x{entry_, *final_, x_.abi_, m_.eval(x_.s_.site->bodyStart(), true), nullptr};
        x.nameAddress = [](uint64_t a) { return hex(a); };
        Alternatives alts = x_.alternatives(*broken_->exit, x, called_);
        // Memory probes stay symbolic: evaluate them in the model.
        bool any = alts.empty() || m_.eval(noneHolds(alts, x_.c_).when, true).is_true();
        cx_.replayed = any;
        cx_.replayNote = any ? "replayed concretely: the state at the exit breaks the rule"
                             : "replay: the concrete state at the exit satisfies the rule";
        return;
      }
      // A jump elsewhere, an overwritten body word, a runaway pass: the
      // concrete pc sequence matched, which is what they are about.
      cx_.replayed = true;
      cx_.replayNote = "replayed concretely: same instructions at the same addresses";
    }
  };

  void replay(const Node& n, const z3::model& m, const Hazard* broken, Counterexample& cx) {
    if (!scheduleAllowed(n, m, broken ? broken->events : n.events.size())) {
      cx.replayNote = "replay: the fetch model does not allow this schedule at this placement";
      return;
    }
    Replay(*this, n, m, broken, cx).run();
  }
};

}  // namespace

// Explicit first under Auto; symbolic once that passes its cap. A merged
// run that is UNKNOWN, found only a schedule the model does not allow or
// (under Auto) passed its own cap gives way to the explicit one, run to
// the end with what is left of the time budget: merging never changes a
// verdict, it only reaches it sooner. Byte sites (x86) and witness runs
// stay explicit: their enumeration is linear already, or stops at the
// first execution.
PassOutcome explorePasses(const PassSetup& s, Prover& p) {
  auto start = std::chrono::steady_clock::now();
  bool automatic = s.fetchChoices == FetchChoices::Auto;
  bool symbolic = s.fetchChoices != FetchChoices::Explicit && !s.witnessOnly && !s.site->spec().byteUnits;
  if (symbolic && automatic) {
    Explorer x(s, p, false, kExplicitExecutions);
    PassOutcome out = x.run();
    if (!x.overCap()) return out;
  }
  if (symbolic) {
    Explorer x(s, p, true, automatic ? std::optional<unsigned>(kSymbolicExecutions) : std::nullopt);
    PassOutcome out = x.run();
    if (!x.spurious() && !x.overCap() && out.verdict != Verdict::Unknown) return out;
  }
  PassSetup rest = s;
  double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rest.budget.maxSeconds = unsigned(std::max(1.0, double(s.budget.maxSeconds) - spent));
  return Explorer(rest, p, false).run();
}

}  // namespace patchcheck
