#include "checker/explore/TrampolineRun.h"

#include <algorithm>

#include "checker/explore/AddressFacts.h"
#include "checker/explore/FrameAddresses.h"
#include "checker/explore/SideEffects.h"
#include "encoder/Hex.h"
#include "model/IsaModel.h"

namespace patchcheck {
namespace {

// Paths of one run; past this the run answers undecided instead of
// growing without bound.
constexpr unsigned kMaxPaths = 4096;

struct Work : Execution {
  using Execution::Execution;
  TrampolineOutcome out;
  size_t at = 0;  // the word the current step runs
  // Where the tracer's frame writes send control, once the callback ran
  // with [[callback.writes]]: the resume address unless it wrote one.
  std::optional<z3::expr> redirectedTo;
};

// A way out of the trampoline other than the callback.
struct Exit {
  enum class Kind { Resume, Enter, Direct } kind;
  z3::expr at;
  std::string name;
  const TrampolineContract* handoff = nullptr;  // Direct: the entry it must meet
  bool redirect = false;                        // only a tracer's write may ask for it
};

class Runner final : public Executor<Work>::Client {
 public:
  Runner(const TrampolineCode& code, const CallerView& view, const Decide& decide, unsigned maxSteps)
      : code_(code), view_(view), isa_(modelOf(view.caller->target)), abi_(isa_.abi(view.caller->target)),
        c_(view.caller->ctx), frames_(*view.caller), addresses_(decide, view.apart), executor_(*this, decide, options(maxSteps)) {}

  std::vector<TrampolineOutcome> run(const Cpu& start) {
    entry_.emplace(start.state);
    executor_.later(Work(start));
    if (auto over = executor_.run()) undecided(*over);
    if (executor_.undecided()) undecided("the solver could not decide a branch in " + code_.contract.key());
    if (undecided_) {
      TrampolineOutcome gap;
      gap.undecided = *undecided_;
      done_.push_back(std::move(gap));
    }
    return std::move(done_);
  }

  std::optional<Instruction> fetch(Work& w) override {
    // A call or jump target computed from a placement-dependent field
    // (F + sext(T - F)) is T under the placement: located, and asked about
    // at an exit, as T.
    w.cpu.pc = addresses_.rewrite(w.cpu.pc.simplify()).simplify();
    auto k = unitAt(w);
    if (!k) {
      leave(w);
      return std::nullopt;
    }
    const TrampolineUnit& tw = code_.words[*k];
    w.at = *k;
    w.out.events.push_back(TrampolineEvent{TrampolineEvent::Kind::Step, w.cpu.pc, tw.fetched.term, &tw.fetched,
                                           trampolineOrigin(code_, *k), false});
    return tw.fetched;
  }

  void beforeStep(Work& w) override {
    frames_.canonicalize(w.cpu.state);
    memoryBefore_ = w.cpu.state.memory;
  }

  bool stepped(Work& w, const std::vector<Fault>& faults, size_t effectsBefore) override {
    const TrampolineUnit& tw = code_.words[w.at];
    std::string origin = trampolineOrigin(code_, w.at);
    for (size_t e = effectsBefore; e < w.cpu.state.effects.size(); ++e)
      if (auto why = forbiddenEffect(w.cpu.state.effects[e], code_.allowedEffects)) {
        violation(w, c_.bool_val(true), [why = *why, origin](const z3::model&) { return why + " at " + origin; });
        finish(w);
        return false;
      }
    frames_.canonicalize(w.cpu.state);
    addresses_.simplify(w.cpu.state);
    storesBelowSp(w, *memoryBefore_, origin, tw.text);
    for (const Fault& f : faults) {
      if (f.kind == FaultKind::Wait) continue;
      z3::expr when = f.when.simplify();
      if (when.is_false()) continue;
      std::string text = std::string(patchcheck::name(f.kind)) + " at " + origin + " ('" + tw.text + "'): " + f.detail;
      if (when.is_true()) {
        violation(w, when, [text](const z3::model&) { return text; });
        finish(w);
        return false;
      }
      // The fault ends a path of its own (on w's path, `when` is ruled
      // out, so a violation kept there could never be met); the run goes
      // on where it is not raised.
      Work faulted = w;
      faulted.out.faulted = true;
      violation(faulted, when, [text](const z3::model&) { return text; });
      finish(faulted);
      w.assume(!when);
    }
    return true;
  }

  void runaway(Work& w) override {
    unsigned n = executor_.maxSteps();
    violation(w, c_.bool_val(true), [n](const z3::model&) {
      return "does not reach the resume address within " + std::to_string(n) + " instructions";
    });
    finish(w);
  }

  void settled(Work& w, bool taken) override {
    w.out.events.push_back(TrampolineEvent{TrampolineEvent::Kind::Settle, {}, {}, nullptr, "", taken});
  }

 private:
  const TrampolineCode& code_;
  const CallerView& view_;
  const IsaModel& isa_;
  const AbiModel& abi_;
  z3::context& c_;
  FrameAddresses frames_;
  AddressFacts addresses_;  // loads of the ops literal and struct past the frame's stores
  Executor<Work> executor_;
  std::optional<MachineState> entry_;  // at the trampoline's entry
  std::optional<z3::expr> memoryBefore_;  // of the step that runs
  std::vector<TrampolineOutcome> done_;
  std::optional<std::string> undecided_;

  Executor<Work>::Options options(unsigned maxSteps) const {
    Executor<Work>::Options o;
    o.maxSteps = maxSteps;
    o.exceptionsBetweenSteps = true;  // an interrupt may come before any instruction
    std::string key = code_.contract.key();
    o.budget = [key](const Executor<Work>::Effort& done) -> std::optional<std::string> {
      if (done.taken <= kMaxPaths) return std::nullopt;
      return "more than " + std::to_string(kMaxPaths) + " paths through " + key;
    };
    return o;
  }

  void undecided(const std::string& why) {
    if (!undecided_) undecided_ = why;
  }

  const MachineState& caller() const { return *view_.caller; }
  std::string name(unsigned r) const { return isa_.registers(entry_->target)[r].name; }
  unsigned argument(unsigned i) const { return abi_.arguments.at(i); }

  bool possible(const Work& w, const z3::expr& cond) { return executor_.possible(w, cond); }

  void violation(Work& w, const z3::expr& when, std::function<std::string(const z3::model&)> explain) {
    z3::expr s = when.simplify();
    if (s.is_false()) return;
    std::string where = code_.contract.key();
    w.out.violations.push_back(
        Violation{s, [where, explain](const z3::model& m) { return "in " + where + ": " + explain(m); }});
  }

  void finish(Work& w) {
    w.out.path = std::move(w.path);
    done_.push_back(std::move(w.out));
  }

  // The trampoline word at pc, if pc is one.
  std::optional<size_t> unitAt(const Work& w) {
    const z3::expr& pc = w.cpu.pc;
    bool wide = caller().width() == 64;
    z3::expr d = wide ? pc - code_.base : pc.extract(31, 0) - code_.base.extract(31, 0);
    d = d.simplify();
    auto word = [&](const z3::expr& numeral) -> std::optional<size_t> {
      uint64_t v = 0;
      numeral.is_numeral_u64(v);
      int64_t off = wide ? int64_t(v) : int64_t(int32_t(uint32_t(v)));
      for (size_t k = 0; k < code_.words.size(); ++k)
        if (code_.words[k].offset == off) return k;
      return std::nullopt;
    };
    if (d.is_numeral()) return word(d);
    // A return address read back from the stack byte by byte may stay in
    // pieces the simplifier does not join (its low byte's sum split off):
    // if it is one offset on this path, any assignment shows which, and
    // the solver confirms it. (Register-held addresses need no question.)
    if (!returnOnStack() || d.is_const()) return std::nullopt;
    z3::expr v = z3::model(c_).eval(d, true);
    if (!v.is_numeral()) return std::nullopt;
    std::optional<size_t> k = word(v);
    if (!k || executor_.decide(w, d != v) != Answer::Unsat) return std::nullopt;
    return k;
  }

  // Memory at and above F's entry sp belongs to F's callers: every byte a
  // store writes must lie below it. (Checked per store rather than by
  // comparing whole memories at the end, which is the same property and
  // far easier for the solver.)
  void storesBelowSp(Work& w, const z3::expr& before, const std::string& origin, const std::string& text) {
    z3::expr now = w.cpu.state.memory;
    if (z3::eq(now, before)) return;
    z3::expr sp = callerSp();
    z3::expr_vector written(c_);
    z3::expr m = now;
    while (!z3::eq(m, before) && m.is_app() && m.decl().decl_kind() == Z3_OP_STORE) {
      written.push_back(m.arg(1));
      m = m.arg(0);
    }
    if (!z3::eq(m, before)) {  // not a chain of stores: no claim about it can be made
      violation(w, c_.bool_val(true), [origin](const z3::model&) {
        return "'" + origin + "' changes memory in a way the proof cannot follow";
      });
      return;
    }
    z3::expr_vector above(c_);
    for (unsigned i = 0; i < written.size(); ++i)
      if (!justBelow(written[i], sp)) above.push_back(z3::uge(written[i], sp));
    if (above.empty()) return;
    z3::expr first = written[written.size() - 1];
    violation(w, z3::mk_or(above), [origin, text, first, sp](const z3::model& m) {
      return "'" + text + "' at " + origin + " writes memory at " + hex(valueIn(m, first)) +
             ", at or above F's entry sp " + hex(valueIn(m, sp));
    });
  }

  // `a` is sp + k for a numeral -64 KB <= k < 0: below sp, since
  // AbiModel::entryAssumptions keeps sp above 64 KB (no wrap-around). Decided
  // here rather than by the solver, which pays for every such comparison.
  bool justBelow(const z3::expr& a, const z3::expr& sp) const {
    bool wide = caller().width() == 64;
    z3::expr d = (wide ? a - sp : a.extract(31, 0) - sp.extract(31, 0)).simplify();
    uint64_t v = 0;
    if (!d.is_numeral() || !d.is_numeral_u64(v)) return false;
    int64_t k = wide ? int64_t(v) : int64_t(int32_t(uint32_t(v)));
    return k < 0 && k >= -0x10000;
  }

  z3::expr callerSp() const { return caller().address(caller().reg(abi_.sp)); }

  // F's return address: its link register, or (x86, AbiModel::link == sp)
  // the slot at its entry sp, which nothing may write.
  z3::expr callerReturnAddress() const {
    if (abi_.link != abi_.sp) return caller().reg(abi_.link);
    return caller().fromAddress(caller().peek(callerSp(), abi_.slotBytes));
  }
  bool returnOnStack() const { return abi_.link == abi_.sp; }

  // The resume address as the contract `k` places it in `st`: its resume
  // register, or the slot at sp.
  z3::expr resumeHeld(const TrampolineContract& k, const MachineState& st) {
    unsigned r = *isa_.parseRegister(k.resume, entry_->target);
    if (!k.resumeSlot) return st.reg(r);
    z3::expr at = st.address(st.reg(r)) + c_.bv_val(uint64_t(*k.resumeSlot), 64);
    return st.fromAddress(frames_.rewrite(st.peek(at, abi_.slotBytes)).simplify());
  }
  static std::string resumeName(const TrampolineContract& k) {
    if (!k.resumeSlot) return k.resume;
    return "[" + k.resume + (*k.resumeSlot ? "+" + std::to_string(*k.resumeSlot) : "") + "]";
  }

  // Every way out the contract allows besides the callback.
  std::vector<Exit> exits() const {
    std::vector<Exit> out{{Exit::Kind::Resume, view_.resume, "the resume address", nullptr, false}};
    const TrampolineCallback& cb = code_.contract.callback;
    if (auto d = code_.direct())
      out.push_back({Exit::Kind::Direct, *d, cb.callOps->direct, cb.callOps->handoff.get(), false});
    for (const TrampolineRedirect& r : cb.redirects)
      out.push_back({r.enter ? Exit::Kind::Enter : Exit::Kind::Direct, code_.symbols.at(r.target), r.target,
                     r.handoff.get(), true});
    return out;
  }

  // pc left the trampoline's words: the callback, the resume address, or a fault.
  void leave(Work& w) {
    z3::expr pc = w.cpu.pc;
    if (w.cpu.slot) {
      violation(w, c_.bool_val(true), [pc](const z3::model& m) {
        return "the delay slot at " + hex(valueIn(m, pc)) + " lies outside the trampoline";
      });
      finish(w);
      return;
    }
    bool calls = !code_.contract.callback.none();
    z3::expr atCallback = calls ? (pc == code_.callback()).simplify() : c_.bool_val(false);
    std::vector<Exit> ways = exits();
    z3::expr elsewhere = !atCallback;
    std::string allowed = calls ? code_.contract.callback.symbol : "";
    for (const Exit& e : ways) {
      elsewhere = elsewhere && pc != e.at;
      if (e.kind == Exit::Kind::Direct) allowed += (allowed.empty() ? "" : ", ") + ("the direct trampoline " + e.name);
      if (e.kind == Exit::Kind::Enter) allowed += (allowed.empty() ? "" : ", ") + (e.name + " (replacing F)");
    }
    elsewhere = elsewhere.simplify();
    if (possible(w, elsewhere)) {
      Work bad = w;
      bad.assume(elsewhere);
      z3::expr resume = view_.resume;
      violation(bad, c_.bool_val(true), [pc, allowed, resume](const z3::model& m) {
        return "jumps to " + hex(valueIn(m, pc)) + ", which is none of " + allowed + (allowed.empty() ? "" : ", ") +
               "the resume address " + hex(valueIn(m, resume));
      });
      finish(bad);
    }
    for (const Exit& e : ways) {
      z3::expr here = (pc == e.at).simplify();
      if (!possible(w, here)) continue;
      Work out = w;
      out.assume(here);
      asked(out, e);
      if (e.kind == Exit::Kind::Direct) handOff(out, *e.handoff, e.name);
      else resume(out, e);
    }
    if (possible(w, atCallback)) {
      w.assume(atCallback);
      if (call(w)) executor_.later(std::move(w));
    }
  }

  // Control leaves where the tracer's frame writes send it, and a way out
  // that only such a write names is taken only when the tracer wrote it.
  void asked(Work& w, const Exit& e) {
    z3::expr pc = w.cpu.pc;
    std::string name = e.name;
    if (w.redirectedTo) {
      z3::expr want = *w.redirectedTo;
      violation(w, want != pc, [want, pc](const z3::model& m) {
        return "leaves for " + hex(valueIn(m, pc)) + ", but the tracer's frame says " + hex(valueIn(m, want));
      });
    } else if (e.redirect) {
      violation(w, c_.bool_val(true), [name](const z3::model&) {
        return "goes to " + name + ", which only the tracer may ask for (through the regs frame)";
      });
    }
  }

  // What the ops pointer at `at` holds for this run: F's memory (the
  // modular proof stores the literal there), or, when it is a data unit the
  // writer may change meanwhile (an inline run: model/MemoryOverlay.h), the
  // version the run's own last load of it took. No such load: F's memory,
  // which nothing ties to the literal.
  z3::expr literalAsRead(const MachineState& st, const z3::expr& at, unsigned bytes) const {
    if (st.overlay)
      for (const OverlayUnit& u : st.overlay->units) {
        if (u.versions.front().size() != bytes || !z3::eq(u.address.simplify(), at.simplify())) continue;
        for (size_t r = st.overlayReads.size(); r-- > entry_->overlayReads.size();) {
          const OverlayRead& read = st.overlayReads[r];
          if (read.unit != u.name) continue;
          auto value = [&](size_t v) {  // the bytes in address order, as a number
            const std::vector<z3::expr>& b = u.versions[v];
            z3::expr x = b[st.target.endian == Endian::Big ? 0 : bytes - 1];
            for (unsigned i = 1; i < bytes; ++i) x = z3::concat(x, b[st.target.endian == Endian::Big ? i : bytes - 1 - i]);
            return x;
          };
          size_t n = u.versions.size();
          z3::expr out = value(n - 1);  // MachineState::load: a pick past the last is the last
          for (size_t v = n - 1; v-- > 0;)
            out = z3::ite(read.pick == c_.bv_val(uint64_t(v), read.pick.get_sort().bv_size()), value(v), out);
          return out.simplify();
        }
      }
    return caller().peek(at, bytes);
  }

  // The callback: its arguments are checked, then the ABI models the call.
  // False when the run ends here (a second call is already a fault).
  bool call(Work& w) {
    MachineState& st = w.cpu.state;
    const TrampolineCallback& cb = code_.contract.callback;
    unsigned bytes = abi_.slotBytes;
    ++w.steps;
    if (w.out.callbacks > 0) {
      violation(w, c_.bool_val(true), [cb](const z3::model&) { return "calls " + cb.symbol + " a second time"; });
      finish(w);
      return false;
    }
    std::string a0 = name(argument(0)), a1 = name(argument(1)), a2 = name(argument(2)), a3 = name(argument(3));
    z3::expr ip = st.address(st.reg(argument(0))), wantIp = view_.ip;
    violation(w, ip != wantIp, [ip, wantIp, a0](const z3::model& m) {
      return "the ip argument (" + a0 + ") is " + hex(valueIn(m, ip)) + "; the traced site's ip is " +
             hex(valueIn(m, wantIp));
    });
    z3::expr parent = st.reg(argument(1)), wantParent = callerReturnAddress();
    violation(w, parent != wantParent, [parent, wantParent, a1](const z3::model& m) {
      return "the parent ip argument (" + a1 + ") is " + hex(valueIn(m, parent)) +
             "; the traced function's return address is " + hex(valueIn(m, wantParent));
    });
    if (cb.ops || code_.opsLiteral) {
      // The ops pointer is a C pointer: 4 bytes under n32 (lw, sign-extended
      // into the 64-bit register), 8 under n64. CALL_OPS: the one F keeps.
      z3::expr ops = st.reg(argument(2));
      z3::expr at = code_.opsLiteral ? *code_.opsLiteral : code_.symbols.at(*cb.ops);
      z3::expr want = addresses_.rewrite(literalAsRead(st, at, abi_.pointerBytes));
      if (abi_.pointerBytes * 8 < st.width()) want = z3::sext(want, st.width() - abi_.pointerBytes * 8);
      std::string sym = cb.ops ? *cb.ops : "F's ops literal";
      violation(w, ops != want, [ops, want, sym, a2](const z3::model& m) {
        return "the ops argument (" + a2 + ") is " + hex(valueIn(m, ops)) + "; " + sym + " holds " + hex(valueIn(m, want));
      });
    }
    z3::expr regsMode = c_.bool_val(true);
    bool canRegs = false;
    if (cb.regs) {
      if (const auto& mode = code_.contract.mode)
        if (auto r = isa_.parseRegister(mode->reg, entry_->target))
          regsMode = entry_->reg(*r) == c_.bv_val(mode->regs, entry_->width());
      z3::expr regs = st.reg(argument(3)), zero = c_.bv_val(0, st.width());
      // The mode test has usually forked the path already: ask only what
      // this path allows (loads from a null frame are not worth building).
      canRegs = possible(w, regsMode);
      bool canNoregs = possible(w, !regsMode);
      if (canRegs)
        violation(w, regsMode && regs == zero,
                  [a3](const z3::model&) { return "regs mode, but the regs argument (" + a3 + ") is null"; });
      if (canNoregs)
        violation(w, !regsMode && regs != zero, [regs, a3](const z3::model& m) {
          return "noregs mode, but the regs argument (" + a3 + ") is " + hex(valueIn(m, regs)) + ", not null";
        });
      if (canRegs)
      for (const auto& [slot, offset] : cb.ptRegs) {
        z3::expr addr = frames_.index(st.normalize(st.address(regs) + c_.bv_val(uint64_t(offset), 64)));
        z3::expr got = frames_.rewrite(st.load(addr, bytes)).simplify();
        z3::expr want = slot == "epc"      ? st.fromAddress(view_.ip)
                        : slot == "resume" ? st.fromAddress(view_.resume)
                                           : caller().reg(*isa_.parseRegister(slot, entry_->target));
        std::string what = "pt_regs' " + slot + " (regs + " + std::to_string(offset) + ")";
        violation(w, regsMode && got != want, [what, got, want](const z3::model& m) {
          return what + " holds " + hex(valueIn(m, got)) + " at the call; F's entry value is " +
                 hex(valueIn(m, want));
        });
      }
    }
    z3::expr sp = frames_.index(st.address(st.reg(abi_.sp)));
    unsigned align = abi_.stackAlign;
    violation(w, (sp & c_.bv_val(align - 1, 64)) != 0, [sp, align](const z3::model& m) {
      return "sp is " + hex(valueIn(m, sp)) + " at the call, not " + std::to_string(align) + "-byte aligned";
    });
    // The callee owns the stack below its sp (and the ABI's home area at
    // sp, o32's 16 bytes): all of it must lie below F's entry sp.
    z3::expr owned = sp + c_.bv_val(abi_.homeBytes, 64);
    z3::expr top = callerSp();
    bool fits = z3::eq(owned.simplify(), top.simplify()) || justBelow(owned, top);
    if (!fits) violation(w, z3::ugt(owned, top), [owned, top, cb](const z3::model& m) {
      return cb.symbol + " may write memory up to " + hex(valueIn(m, owned)) + ", above F's entry sp " +
             hex(valueIn(m, top));
    });
    // The call itself: returns to ra (x86: to the address its call pushed
    // at sp, popping it) with the ABI's guarantees only.
    z3::expr back = returnOnStack() ? addresses_.rewrite(frames_.rewrite(st.peek(sp, abi_.slotBytes)).simplify())
                                    : st.address(st.reg(abi_.link));
    z3::expr regs = st.reg(argument(3));
    z3::expr memory = st.memory;
    isa_.callExternal(st, cb.symbol, w.out.callbacks);
    // Memory: the ABI model's "below sp changes", written as an offset from
    // sp (the 2^63 bytes below it) so that reading the frame back at
    // sp + k simplifies to what was stored there. The callee may also store
    // its register arguments in the ABI's home area at sp (o32: 16 bytes).
    std::string prefix = cb.symbol + "#" + std::to_string(w.out.callbacks) + ".";
    z3::sort bytes8 = c_.array_sort(c_.bv_sort(64), c_.bv_sort(8));
    z3::expr below = c_.constant((prefix + "mem").c_str(), bytes8);
    z3::expr home = c_.constant((prefix + "home").c_str(), bytes8);
    z3::expr a = c_.bv_const((prefix + "addr").c_str(), 64);
    z3::expr offset = a - sp;
    z3::expr inHome = abi_.homeBytes ? z3::ult(offset, c_.bv_val(abi_.homeBytes, 64)) : c_.bool_val(false);
    st.memory = z3::lambda(a, z3::ite(offset < c_.bv_val(0, 64), z3::select(below, a),
                                      z3::ite(inHome, z3::select(home, a), z3::select(memory, a))));
    if (returnOnStack()) st.setReg(abi_.sp, st.fromAddress(sp + c_.bv_val(abi_.slotBytes, 64)));
    if (!cb.redirects.empty() && canRegs) redirect(w, regs, regsMode, prefix);
    w.out.events.push_back(TrampolineEvent{TrampolineEvent::Kind::Callback, w.cpu.pc, {}, nullptr, cb.symbol, false});
    w.cpu.pc = back;
    ++w.out.callbacks;
    return true;
  }

  // [[callback.writes]]: the tracer writes one of the named addresses into
  // its slot of the frame, or nothing (a fresh choice). The slots must lie
  // in the trampoline's frame, below F's entry sp, or the tracer would
  // write F's caller's memory.
  void redirect(Work& w, const z3::expr& regs, const z3::expr& regsMode, const std::string& prefix) {
    MachineState& st = w.cpu.state;
    const auto& redirects = code_.contract.callback.redirects;
    z3::expr choice = c_.bv_const((prefix + "writes").c_str(), 8);
    z3::expr to = view_.resume;
    z3::expr top = callerSp();
    for (size_t k = 0; k < redirects.size(); ++k) {
      const TrampolineRedirect& r = redirects[k];
      z3::expr slot = frames_.index(st.normalize(st.address(regs) + c_.bv_val(uint64_t(r.at), 64)));
      z3::expr end = slot + c_.bv_val(abi_.pointerBytes, 64);
      if (!justBelow(slot, top) || !(z3::eq(end.simplify(), top.simplify()) || justBelow(end, top)))
        violation(w, regsMode && (z3::ugt(end, top) || z3::ult(end, slot)), [r, slot, top](const z3::model& m) {
          return "the tracer's regs + " + std::to_string(r.at) + " is " + hex(valueIn(m, slot)) +
                 ", not below F's entry sp " + hex(valueIn(m, top));
        });
      z3::expr chosen = regsMode && choice == c_.bv_val(k + 1, 8);
      z3::expr target = code_.symbols.at(r.target);
      z3::expr old = st.peek(slot, abi_.pointerBytes);
      z3::expr value = abi_.pointerBytes * 8 < 64 ? target.extract(abi_.pointerBytes * 8 - 1, 0) : target;
      st.store(slot, z3::ite(chosen, value, old).simplify(), abi_.pointerBytes);
      to = z3::ite(chosen, target, to);
    }
    w.redirectedTo = to.simplify();
  }

  // Back at the site (or at the function a tracer's write put in its
  // place): the caller's live state must be whole again.
  void resume(Work& w, const Exit& e) {
    const MachineState& now = w.cpu.state;
    std::string cb = code_.contract.callback.symbol;
    if (e.kind == Exit::Kind::Resume && w.out.callbacks == 0 && !code_.contract.callback.none())
      violation(w, c_.bool_val(true), [cb](const z3::model&) {
        return "returns to the resume address without calling " + cb;
      });
    std::string where = e.kind == Exit::Kind::Resume ? "the resume address" : e.name;
    std::vector<unsigned> except;
    for (const std::string& r : code_.contract.clobbers)
      if (auto n = isa_.parseRegister(r, entry_->target)) except.push_back(*n);
    for (unsigned r : abi_.liveAtEntry) {
      if (std::find(except.begin(), except.end(), r) != except.end()) continue;
      z3::expr before = caller().reg(r), after = now.reg(r);
      if (z3::eq(before, after)) continue;
      std::string n = name(r);
      violation(w, before != after, [n, before, after, where](const z3::model& m) {
        return n + " is not restored: " + hex(valueIn(m, before)) + " at F's entry, " + hex(valueIn(m, after)) +
               " at " + where;
      });
    }
    // Entering a replacement ends the pass as a hand-over does: the site
    // is not resumed.
    if (e.kind == Exit::Kind::Resume) w.out.resumed = w.cpu;
    else w.out.handedOff = true;
    finish(w);
  }

  // CALL_OPS with a direct call: control goes to the direct trampoline,
  // which must find the entry its own contract (TrampolineCallOps::handoff)
  // is proven from: the resume register holding the resume address, the
  // saved-ra register F's lr, sp as the convention says, the listed
  // registers (arm64's BTYPE after `br x17`) within their values and
  // every other live register as at F's entry. That trampoline's proof
  // covers what follows; the tracer callback is its business, not ours.
  void handOff(Work& w, const TrampolineContract& k, const std::string& who) {
    const MachineState& now = w.cpu.state;
    const Target& t = entry_->target;
    auto must = [&](const z3::expr& ok, const std::string& what, const z3::expr& got, const z3::expr& want) {
      violation(w, !ok, [who, what, got, want](const z3::model& m) {
        return "hands over to " + who + " with " + what + " = " + hex(valueIn(m, got)) + ", not " +
               hex(valueIn(m, want)) + " as its contract needs";
      });
    };
    std::vector<unsigned> set;
    unsigned resume = *isa_.parseRegister(k.resume, t);
    z3::expr wantResume = now.fromAddress(view_.resume), heldResume = resumeHeld(k, now);
    must(heldResume == wantResume, resumeName(k) + " (the resume address)", heldResume, wantResume);
    if (!k.resumeSlot) set.push_back(resume);
    if (k.savedRa) {
      unsigned ra = *isa_.parseRegister(*k.savedRa, t);
      z3::expr want = callerReturnAddress();
      must(now.reg(ra) == want, *k.savedRa + " (F's return address)", now.reg(ra), want);
      set.push_back(ra);
      set.push_back(abi_.link);
    }
    z3::expr wantSp = caller().reg(abi_.sp) + c_.bv_val(uint64_t(k.stackAdjust), caller().width());
    must(now.reg(abi_.sp) == wantSp, "sp", now.reg(abi_.sp), wantSp);
    set.push_back(abi_.sp);
    for (const auto& [name, allowed] : k.values) {
      unsigned r = *registerNumber(isa_, name, t);
      z3::expr v = now.reg(r);
      z3::expr_vector any(c_);
      for (uint64_t a : allowed) any.push_back(v == c_.bv_val(a, v.get_sort().bv_size()));
      std::string n = name;
      violation(w, !z3::mk_or(any), [who, n, v](const z3::model& m) {
        return "hands over to " + who + " with " + n + " = " + hex(valueIn(m, v)) +
               ", which its entry does not accept";
      });
      set.push_back(r);
    }
    for (const std::string& r : k.clobbers) set.push_back(*isa_.parseRegister(r, t));
    for (unsigned r : abi_.liveAtEntry) {
      if (std::find(set.begin(), set.end(), r) != set.end()) continue;
      z3::expr before = caller().reg(r), after = now.reg(r);
      if (z3::eq(before, after)) continue;
      std::string n = name(r);
      violation(w, before != after, [who, n, before, after](const z3::model& m) {
        return n + " is not restored when handing over to " + who + ": " + hex(valueIn(m, before)) +
               " at F's entry, " + hex(valueIn(m, after)) + " at the hand-over";
      });
    }
    w.out.handedOff = true;
    finish(w);
  }
};

}  // namespace

z3::expr TrampolineCode::entry() const {
  z3::context& c = base.ctx();
  return base + c.bv_val(uint64_t(contract.entryOffset), 64);
}

std::vector<ApartRanges> TrampolineCode::callerFacts(const MachineState& caller, const AbiModel& abi) const {
  std::vector<ApartRanges> out;
  const auto& ops = contract.callback.ops;
  if (!ops) return out;
  z3::context& c = base.ctx();
  z3::expr sp = caller.address(caller.reg(abi.sp));
  out.push_back({symbols.at(*ops), abi.pointerBytes, sp - c.bv_val(0x10000, 64), 0x10000});
  return out;
}

std::string replayVerdict(const std::optional<TrampolineOutcome>& o, const z3::model& m, const std::string& broken,
                          bool& reproduced) {
  reproduced = false;
  if (!o) return "replay: the concrete run of the trampoline takes another path";
  std::string other;
  for (const Violation& v : o->violations) {
    if (!m.eval(v.when, true).is_true()) continue;
    std::string text = v.explain(m);
    if (text == broken) {
      reproduced = true;
      return "replayed concretely: the trampoline run on these values breaks: " + text;
    }
    if (other.empty()) other = text;
  }
  if (other.empty()) return "replay: the concrete run of the trampoline keeps its contract";
  return "replay: the concrete run of the trampoline breaks another rule (" + other + "), not this one";
}

std::string trampolineOrigin(const TrampolineCode& code, size_t word) {
  int64_t at = code.words[word].offset;
  return at == 0 ? code.contract.symbol : code.contract.symbol + "+" + hex(uint64_t(at));
}

std::vector<TrampolineOutcome> runTrampoline(const TrampolineCode& code, const Cpu& atEntry,
                                             const CallerView& view, const Decide& decide, unsigned maxSteps) {
  return Runner(code, view, decide, maxSteps).run(atEntry);
}

std::optional<TrampolineOutcome> replayTrampoline(const TrampolineCode& code, const Cpu& atEntry,
                                                  const CallerView& view, const z3::model& m, unsigned maxSteps) {
  TrampolineCode concrete = code;
  concrete.base = m.eval(code.base, true);
  for (auto& [name, term] : concrete.symbols) term = m.eval(term, true);
  for (TrampolineUnit& w : concrete.words) {
    // A plug-in decodes from the bits every placement shares and takes a
    // placement's field from the term: on the model's values every bit is
    // known. (Left as they were, a `lui t9, %hi(callback)` ran as
    // `lui t9, 0` and the replay jumped to 0.)
    w.fetched.term = m.eval(w.fetched.term, true);
    unsigned bits = w.fetched.term.get_sort().bv_size();
    z3::expr low = bits > 64 ? w.fetched.term.extract(63, 0).simplify() : w.fetched.term;
    uint64_t v = 0;
    if (low.is_numeral_u64(v)) w.fetched.known = v;
  }
  CallerView concreteView{view.caller, m.eval(view.resume, true), m.eval(view.ip, true)};  // no facts: all concrete
  Cpu cpu = atEntry;
  cpu.pc = m.eval(atEntry.pc, true);
  auto holds = [&m](const std::vector<z3::expr>& path) {
    for (const z3::expr& e : path)
      if (!m.eval(e, true).is_true()) return false;
    return true;
  };
  Decide decided = [&](const std::vector<z3::expr>& path, const z3::expr& cond) {
    return holds(path) && m.eval(cond, true).is_true() ? Answer::Sat : Answer::Unsat;
  };
  for (TrampolineOutcome& o : runTrampoline(concrete, cpu, concreteView, decided, maxSteps))
    if (holds(o.path)) return o;
  return std::nullopt;
}

}  // namespace patchcheck
