#include "checker/explore/PassExplorerImpl.h"

#include <algorithm>
#include <chrono>

#include "checker/explore/CallOpsFacts.h"
#include "checker/explore/SideEffects.h"
#include "encoder/Hex.h"

namespace patchcheck::passes {

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

PassOutcome Explorer::run() {
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

void Explorer::assumeCallOps() {
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
      for (const UnitImage& img : s_.versions[u]) {
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

Decide Explorer::decider() {
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

Executor<Node>::Options Explorer::options() const {
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

bool Explorer::timeUp() {
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (seconds <= s_.budget.maxSeconds) return false;
  unknown_ = true;
  out_.unknownReason = "the exploration's time budget is spent (" + std::to_string(s_.budget.maxSeconds) +
                       " s); raise it with --max-seconds";
  return true;
}

void Explorer::addHazard(Node& n, const z3::expr& cond, Hazard::Kind kind,
                         std::function<std::string(const z3::model&)> explain,
                         std::optional<Location> exit) {
  Hazard h{Violation{pathOf(n) && cond, std::move(explain)}, kind, exit, n.events.size()};
  n.hazards.push_back(std::move(h));
}

std::string Explorer::nameAddress(uint64_t a, const z3::model& m) const {
  std::string best;
  uint64_t bestOffset = 0x1000;
  for (const auto& [name, term] : s_.site->symbols()) {
    uint64_t base = u64(m.eval(term, true));
    if (a >= base && a - base < bestOffset) best = name, bestOffset = a - base;
  }
  if (best.empty()) return hex(a);
  return (bestOffset ? best + "+" + hex(bestOffset) : best) + " (" + hex(a) + ")";
}

void Explorer::runaway(Node& n) {
  unsigned limit = s_.maxSteps;
  addHazard(n, c_.bool_val(true), Hazard::Kind::Runaway, [limit](const z3::model&) {
    return "the pass does not leave the site within " + std::to_string(limit) + " instructions";
  });
  finish(n);
}

void Explorer::settled(Node& n, bool taken) {
  n.events.push_back(event::Settle{.taken = taken});
}

std::optional<Instruction> Explorer::fetch(Node& n) {
  n.fetchedInDelaySlot = n.cpu.inDelaySlot();
  if (n.resumeFromSlot && !n.emulate) {
    // After the copy in the slot, the kprobe handler resumes after the
    // probed instruction (arm64 post_kprobe_handler: the BRK after the
    // copy). A copy that branched elsewhere goes on from there.
    auto [slotEnd, back] = std::move(*n.resumeFromSlot);
    n.resumeFromSlot.reset();
    z3::expr off = (n.cpu.pc - slotEnd).simplify();
    if (off.is_numeral() && u64(off) == 0) {
      n.cpu.pc = back;
      n.events.push_back(event::Handler{.pc = back, .by = "the kprobe handler resumes after the probed instruction at "});
    }
  }
  if (!n.emulate && n.emulateNext) {
    n.emulate.emplace(n.emulateNext->at, n.emulateNext->instruction);
    n.emulatedBy = std::move(n.emulateNext->by);
    n.emulateNext.reset();
  }
  if (n.emulate) {
    // The breakpoint handler emulates the new instruction where the
    // breakpoint lies (poke_int3_handler): as if the CPU ran it there.
    auto [at, instruction] = std::move(*n.emulate);
    n.emulate.reset();
    n.cpu.pc = at;
    n.events.push_back(event::Handler{
        .pc = at, .emulated = instruction.term, .length = instruction.bytes, .by = std::move(n.emulatedBy)});
    n.emulatedBy.clear();
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

void Explorer::forkInterrupt(Node& n) {
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
  child.events.push_back(event::Interrupt{.resumesAt = child.cpu.pc, .inDelaySlot = inSlot});
  later(std::move(child));
}

std::vector<std::pair<Location, z3::expr>> Explorer::locate(const Node& n) {
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
    if (i) return {{Location{*i == region ? LocKind::RegionEnd : LocKind::Unit, *i, "", ""}, c_.bool_val(true)}};
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
        out.push_back({Location{i == region ? LocKind::RegionEnd : LocKind::Unit, i, "", ""}, eq});
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

std::optional<Instruction> Explorer::handle(Node& n, const Location& loc) {
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
    case LocKind::Unit:
      if (loc.unit == siteUnits() && !n.inBody && !inSlot) {
        // F's body starts here: the untraced check, then the pass runs
        // the declared body words, which must still be the original ones.
        exitCheck(n, loc, false);
        n.inBody = true;
      }
      if (loc.unit == s_.site->spec().entryUnit() && n.steps > 0 && !reenter(n)) return std::nullopt;
      return s_.site->spec().byteUnits ? fetchBytes(n, loc.unit) : fetchVersions(n, loc.unit);
  }
  return std::nullopt;
}

bool Explorer::reenter(Node& n) {
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

bool Explorer::stepped(Node& c, const std::vector<Fault>& faults, size_t effectsBefore) {
  for (size_t k = effectsBefore; k < c.cpu.state.effects.size(); ++k)
    if (auto why = forbiddenEffect(c.cpu.state.effects[k], s_.site->spec().allowedEffects)) {
      addHazard(c, c_.bool_val(true), Hazard::Kind::Effect, [why = *why](const z3::model&) { return why; });
      finish(c);
      return false;
    }
  for (const Fault& f : faults) {
    if (f.kind == FaultKind::Wait) continue;  // sleeps until an interrupt: harmless
    if (f.kind == FaultKind::Break) {
      size_t hazards = c.hazards.size();
      if (breakpointHandled(c, f) || (c.hazards.size() == hazards && kprobeHandled(c, f))) continue;
    }
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

void Explorer::finish(Node& n) {
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

void Explorer::ask(Node& n) {
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

}  // namespace patchcheck::passes

namespace patchcheck {

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
    passes::Explorer x(s, p, false, kExplicitExecutions);
    PassOutcome out = x.run();
    if (!x.overCap()) return out;
  }
  if (symbolic) {
    passes::Explorer x(s, p, true, automatic ? std::optional<unsigned>(kSymbolicExecutions) : std::nullopt);
    PassOutcome out = x.run();
    if (!x.spurious() && !x.overCap() && out.verdict != Verdict::Unknown) return out;
  }
  PassSetup rest = s;
  double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rest.budget.maxSeconds = unsigned(std::max(1.0, double(s.budget.maxSeconds) - spent));
  return passes::Explorer(rest, p, false).run();
}

}  // namespace patchcheck
