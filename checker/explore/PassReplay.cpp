#include "checker/explore/PassExplorerImpl.h"

#include <algorithm>

#include "checker/explore/Trace.h"
#include "encoder/Hex.h"

namespace patchcheck::passes {

// What the replay must find concretely for a hazard to be confirmed.
// The version each unit was seen in, "byte 0 old, byte 1 new"; a run of
// three or more neighbouring units seen in one version is a range ("bytes
// 0..154 old"), so a large site names only where the versions change.
std::string unitsSeen(const Spec& spec, const std::map<unsigned, std::string>& seen) {
  std::string out;
  auto numbered = [&](unsigned w, std::string& kind, long& n) {
    std::string name = spec.unitName(w);
    size_t sp = name.rfind(' ');  // "body byte 2": the number is last
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

Counterexample Explorer::counterexample(const Node& n, const z3::model& m) {
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
    const Event& ev = n.events[k];
    const Spec& spec = s_.site->spec();
    if (const auto* e = as<event::Byte>(ev)) {
      cx.schedule.push_back(FetchEvent{int(spec.writeIndex(e->unit)), spec.unitName(e->unit), e->version, e->landed});
      seen[e->unit] = e->version;
    } else if (const auto* e = as<event::Fetch>(ev); e && !e->image) {
      // A byte site's instruction: which bytes it decoded, in which versions.
      std::string bytes = e->length == 1 ? spec.unitName(e->unit)
                                         : spec.unitName(e->unit) + ".." +
                                               std::to_string(spec.writeIndex(e->unit) + e->length - 1);
      cx.trace.push_back(traceStep(t_, m, e->pc, e->term, bytes + " (" + e->versions + ")"));
      cx.trace.back().siteUnits = e->length;
      tornBytes.reset();
      if (e->versions.find("old") != std::string::npos && e->versions.find_first_of(' ') != std::string::npos &&
          e->versions.find_first_not_of("old ") != std::string::npos)
        tornBytes = (e->length == 1 ? "byte " : "bytes ") + bytes.substr(bytes.find(' ') + 1) + " (" + e->versions +
                    ")";
    } else if (const auto* e = as<event::Fetch>(ev)) {
      int written = int(spec.writeIndex(e->unit));
      std::string unit = e->unit < spec.entryUnit() ? spec.unitName(e->unit) : "word " + std::to_string(written);
      cx.schedule.push_back(FetchEvent{written, unit, e->versions, e->landed});
      seen[e->unit] = e->versions;
      cx.trace.push_back(traceStep(t_, m, e->pc, e->term, spec.unitName(e->unit) + " (" + e->versions + ")"));
      cx.trace.back().siteUnits = 1;
    } else if (const auto* e = as<event::Handler>(ev)) {
      std::string where = nameAddress(u64(m.eval(e->pc, true)), m);
      if (e->emulated) {
        cx.trace.push_back(
            traceStep(t_, m, e->pc, *e->emulated, e->by.empty() ? "emulated by the int3 handler" : e->by));
      } else if (!e->by.empty()) {
        cx.details.push_back(e->by + where);
      } else {
        cx.details.push_back("the int3 handler skips the instruction being patched: the pass resumes at " + where);
        if (!cx.trace.empty()) cx.trace.back().note += "<- trap: the handler resumes at " + where;
      }
    } else if (const auto* e = as<event::Interrupt>(ev)) {
      std::string where = cx.trace.empty() ? "at entry" : "after " + cx.trace.back().text;
      cx.interrupts.push_back("interrupt " + where + ": resumes at " + nameAddress(u64(m.eval(e->resumesAt, true)), m));
      if (!cx.trace.empty())
        cx.trace.back().note +=
            e->inDelaySlot ? "<- interrupt here (in its delay slot: EPC = the branch)" : "<- interrupt here";
    } else if (const auto* e = as<event::Call>(ev)) {
      cx.details.push_back("the pass runs " + e->entry + "'s code inline (--inline-trampolines)");
    } else if (const auto* e = as<event::Step>(ev); e && e->step.kind != TrampolineEvent::Kind::Settle) {
      cx.trace.push_back(traceStep(t_, m, e->step));
    } else if (const auto* e = as<event::Step>(ev); e && !cx.trace.empty()) {
      cx.trace.back().note += std::string(e->step.taken ? "branch taken" : "branch not taken");
    } else if (const auto* e = as<event::Settle>(ev); e && !cx.trace.empty()) {
      cx.trace.back().note += std::string(e->taken ? "branch taken" : "branch not taken");
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

bool Explorer::scheduleAllowed(const Node& n, const z3::model& m, size_t upto) const {
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
    // A unit's version the pass fetched: a unit site's fetch, or a byte.
    const UnitImage* image = nullptr;
    unsigned unit = 0;
    if (const auto* f = as<event::Fetch>(e); f && f->image) image = f->image, unit = f->unit;
    if (const auto* b = as<event::Byte>(e)) image = b->image, unit = b->unit;
    if (image) {
      const auto& vers = s_.versions[unit];
      for (unsigned v = 0; v < vers.size(); ++v)
        if (vers[v].sameAs(*image) || mixOf(image, unit, v))
          for (const Observer& o : obs)
            if (auto r = fm.observe(o, unit, v)) add(next, *r);
    } else if (as<event::Interrupt>(e)) {
      for (const Observer& o : obs) add(next, fm.interrupt(o).value_or(o));
    } else {
      continue;
    }
    obs = std::move(next);
  }
  return !obs.empty();
}

class Explorer::Replay final : public Executor<Execution>::Client {
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
      // Step, Return: the trampoline ran in call(); Byte: its
      // instruction's Fetch follows.
      if (const auto* c = as<event::Call>(ev)) {
        if (!call(e, *c)) return std::nullopt;
      } else if (const auto* h = as<event::Handler>(ev)) {
        e.cpu.pc = m_.eval(h->pc, true);
        if (h->emulated) {
          z3::expr word = m_.eval(*h->emulated, true);
          fetched_ = k_++;
          return Instruction{word, u64(word), h->length};
        }
      } else if (const auto* s = as<event::Settle>(ev)) {  // a branch the values decide (the pass had to fork)
        z3::expr t = e.cpu.slot ? e.cpu.slot->control.taken.simplify() : x_.c_.bool_val(s->taken);
        if (!(t.is_true() || t.is_false()) || t.is_true() != s->taken) {
          fail("replay: branch decision differs");
          return std::nullopt;
        }
        e.cpu.settleBranch(s->taken);
      } else if (as<event::Interrupt>(ev)) {
        e.cpu.interrupt();
      } else if (const auto* f = as<event::Fetch>(ev)) {
        e.cpu.state.overlay = f->overlay;
        z3::expr pc = e.cpu.pc.simplify();
        uint64_t want = u64(m_.eval(f->pc, true)), got = u64(pc);
        if (!pc.is_numeral() || want != got) {
          fail("replay: fetch address differs (" + hex(got) + " vs " + hex(want) + ")");
          return std::nullopt;
        }
        z3::expr word = m_.eval(f->term, true);
        fetched_ = k_++;
        return Instruction{word, u64(word), f->image ? f->image->fetched().bytes : f->length};
      }
    }
    end(e);
    return std::nullopt;
  }

  // The executor settled a branch the values leave symbolic: the pass
  // forked there and recorded the way.
  void settled(Execution&, bool taken) override {
    if (k_ < upto_) {
      if (const auto* s = as<event::Settle>(n_.events[k_]); s && s->taken == taken) ++k_;
      else fail("replay: branch decision differs");
    }
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
  bool call(Execution& e, const event::Call& ev) {
    const TrampolineCode& code = x_.s_.site->trampolines().at(ev.entry);
    called_ = Called{ev.entry, code.contract.symbol, e.cpu.state};
    z3::expr resume = x_.s_.site->bodyStart();
    CallerView view{&entry_, resume, resume + x_.c_.bv_val(uint64_t(code.ipOffset), 64)};
    auto run = replayTrampoline(code, e.cpu, view, m_, x_.s_.maxSteps);
    if (!run) {
      fail("replay: the concrete run of " + ev.entry + " takes another path");
      return false;
    }
    // The rule broken in the trampoline is broken by its last run before
    // the rule: that run must break the same rule at the same place.
    bool last = true;
    for (size_t k = k_ + 1; k < upto_; ++k) last = last && !as<event::Call>(n_.events[k]);
    if (broken_ && broken_->kind == Hazard::Kind::Trampoline && last) {
      bool same = false;
      std::string note = replayVerdict(run, m_, broken_->violation.explain(m_), same);
      if (!same) {
        fail(note);
        return false;
      }
      cx_.replayed = true;
      cx_.replayNote = "replayed concretely, " + ev.entry + " included: " + broken_->violation.explain(m_);
      decided_ = ended_ = true;
      return false;
    }
    if (!run->resumed) {
      fail("replay: the concrete run of " + ev.entry + " does not come back");
      return false;
    }
    e.cpu = *run->resumed;
    while (k_ + 1 < upto_ && !as<event::Return>(n_.events[k_ + 1])) ++k_;
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

void Explorer::replay(const Node& n, const z3::model& m, const Hazard* broken, Counterexample& cx) {
  if (!scheduleAllowed(n, m, broken ? broken->events : n.events.size())) {
    cx.replayNote = "replay: the fetch model does not allow this schedule at this placement";
    return;
  }
  Replay(*this, n, m, broken, cx).run();
}

}  // namespace patchcheck::passes
