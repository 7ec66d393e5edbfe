#include "checker/explore/TrampolineProof.h"

#include <algorithm>
#include <chrono>

#include "encoder/Hex.h"
#include "checker/explore/CallOpsFacts.h"
#include "checker/explore/Trace.h"
#include "model/IsaModel.h"

namespace patchcheck {
namespace {

z3::expr all(z3::context& c, const std::vector<z3::expr>& v) {
  z3::expr_vector x(c);
  for (const z3::expr& e : v) x.push_back(e);
  return v.empty() ? c.bool_val(true) : z3::mk_and(x);
}

z3::expr any(z3::context& c, const std::vector<Violation>& v) {
  z3::expr_vector x(c);
  for (const Violation& e : v) x.push_back(e.when);
  return v.empty() ? c.bool_val(false) : z3::mk_or(x);
}

class Proof {
 public:
  Proof(TrampolineCode& code, const SiteInstance& site, Prover& prover, const Limits& limits)
      : code_(code), site_(site), c_(site.ctx()), t_(site.target()), isa_(modelOf(t_)), abi_(isa_.abi(t_)),
        prover_(prover), maxSteps_(limits.maxSteps), caller_(MachineState::symbolic(c_, t_, "caller.")), atEntry_(caller_),
        resume_(site.bodyStart()), ip_(resume_ + c_.bv_val(uint64_t(code.ipOffset), 64)) {}

  void run() {
    auto start = std::chrono::steady_clock::now();
    TrampolineContract& k = code_.contract;
    unsigned q0 = prover_.queries();
    // The site's facts hold for every trampoline of the site: asserted once
    // on a prover its proofs share; this proof's own facts in a scope.
    for (const z3::expr& e : site_.constraints()) prover_.assumeBase(e);
    Scope scope(prover_);
    for (const z3::expr& e : code_.constraints) prover_.assume(e);
    prover_.assume(isa_.entryAssumptions(caller_));
    buildEntry();
    CallerView view{&caller_, resume_, ip_, apart_};
    Decide decide = [this](const std::vector<z3::expr>& path, const z3::expr& cond) {
      return prover_.check(all(c_, path) && cond);
    };
    std::vector<TrampolineOutcome> outcomes =
        runTrampoline(code_, Cpu(atEntry_, code_.entry()), view, decide, maxSteps_);
    for (const TrampolineOutcome& o : outcomes)
      if (o.undecided && k.unknownReason.empty()) k.unknownReason = *o.undecided;
    // Most outcomes keep the contract: one question for all of them shares
    // the facts' bit-blasting, where one per outcome repeats it. Only when
    // it is not proven are the outcomes asked one by one, for the
    // counterexample (or the reason) of the first that fails.
    if (!allKept(outcomes)) refute(outcomes);
    if (site_.placementUndecided() && k.unknownReason.empty()) k.unknownReason = *site_.placementUndecided();
    k.proven = !k.refutation && k.unknownReason.empty();
    k.proofCounts.paths = unsigned(std::count_if(outcomes.begin(), outcomes.end(),
                                                 [](const TrampolineOutcome& o) { return !o.faulted; }));
    k.proofCounts.executions = unsigned(outcomes.size());
    k.proofCounts.queries = prover_.queries() - q0;
    k.proofCounts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

 private:
  TrampolineCode& code_;
  const SiteInstance& site_;
  z3::context& c_;
  Target t_;
  const IsaModel& isa_;
  const AbiModel& abi_;
  Prover& prover_;
  unsigned maxSteps_;
  MachineState caller_;   // F's entry
  MachineState atEntry_;  // the trampoline's entry
  z3::expr resume_, ip_;
  std::vector<ApartRanges> apart_;  // facts assumed, for the run's AddressFacts

  unsigned reg(const std::string& name) const { return *isa_.parseRegister(name, t_); }

  // No outcome breaks a rule: proven at once (unsat), or not known here.
  bool allKept(const std::vector<TrampolineOutcome>& outcomes) {
    z3::expr_vector broken(c_);
    for (const TrampolineOutcome& o : outcomes)
      if (!o.violations.empty()) broken.push_back(all(c_, o.path) && any(c_, o.violations));
    return broken.empty() || prover_.checkOnce(z3::mk_or(broken)) == Answer::Unsat;
  }

  // Outcome by outcome: the first counterexample, or why one stays open.
  void refute(const std::vector<TrampolineOutcome>& outcomes) {
    TrampolineContract& k = code_.contract;
    for (const TrampolineOutcome& o : outcomes) {
      if (o.violations.empty()) continue;
      z3::expr path = all(c_, o.path);
      Answer a = prover_.checkOnce(path && any(c_, o.violations));
      // One hard disjunction can time out where each rule alone is easy:
      // then ask rule by rule.
      for (size_t i = 0; a == Answer::Unknown && i < o.violations.size(); ++i) {
        Answer one = prover_.check(path && o.violations[i].when);
        if (one == Answer::Sat) a = Answer::Sat;
        if (one == Answer::Unknown && k.unknownReason.empty()) k.unknownReason = prover_.lastUnknownReason();
      }
      if (a == Answer::Unknown && k.unknownReason.empty()) k.unknownReason = prover_.lastUnknownReason();
      if (a != Answer::Sat) continue;
      k.refutation = counterexample(o, prover_.model());
      return;
    }
  }

  // The state the contract promises at the trampoline's entry.
  void buildEntry() {
    const TrampolineContract& k = code_.contract;
    unsigned w = caller_.width();
    unsigned resume = reg(k.resume);
    if (k.savedRa) {
      atEntry_.setReg(reg(*k.savedRa), caller_.reg(abi_.link));
      if (resume != abi_.link) atEntry_.setReg(abi_.link, c_.bv_const("entry.ra", w));
    }
    for (const std::string& r : k.clobbers) atEntry_.setReg(reg(r), c_.bv_const(("entry." + r).c_str(), w));
    if (!k.resumeSlot) atEntry_.setReg(resume, atEntry_.fromAddress(resume_));
    atEntry_.setReg(abi_.sp, caller_.reg(abi_.sp) + c_.bv_val(uint64_t(k.stackAdjust), w));
    if (k.resumeSlot) pushResume(*k.resumeSlot);
    for (const ApartRanges& e : code_.callerFacts(caller_, abi_)) assumeApart(e);
    if (k.mode) {
      z3::expr m = atEntry_.reg(reg(k.mode->reg));
      prover_.assume(m == c_.bv_val(k.mode->regs, w) || m == c_.bv_val(k.mode->noregs, w));
    }
    for (const auto& [name, allowed] : k.values) {
      unsigned r = *registerNumber(isa_, name, t_);
      unsigned bits = isa_.registers(t_)[r].bits;
      z3::expr v = c_.bv_const(("entry." + name).c_str(), bits);
      atEntry_.setReg(r, v);
      z3::expr_vector any(c_);
      for (uint64_t a : allowed) any.push_back(v == c_.bv_val(a, bits));
      prover_.assume(z3::mk_or(any));
    }
    if (k.callback.callOps) assumeCallOps(*k.callback.callOps);
  }

  // x86: the site's call wrote the resume address at the trampoline's
  // entry sp (+ the slot's offset). It is the site's store, not the
  // trampoline's: no candidate for an exception's clobbering, which only
  // reaches below the sp anyway.
  void pushResume(int64_t slot) {
    z3::expr at = atEntry_.address(atEntry_.reg(abi_.sp)) + c_.bv_val(uint64_t(slot), 64);
    atEntry_.store(at, atEntry_.fromAddress(resume_), abi_.slotBytes);
    atEntry_.stored.clear();
    atEntry_.storedSinceBoundary.clear();
  }

  // What the site keeps true of F's ops literal (docs/trampolines.md,
  // "CALL_OPS"): it points to a struct ftrace_ops (any: the symbol is
  // symbolic) with the contract's facts (CallOpsFacts.h). Written into F's
  // memory as stores rather than assumed of it, so that loading them back
  // simplifies to the values; the literal and the struct do not overlap,
  // so the stores say exactly that.
  void assumeCallOps(const TrampolineCallOps& k) {
    unsigned bytes = abi_.pointerBytes;
    z3::expr ops = code_.symbols.at(k.ops), literal = *code_.opsLiteral;
    z3::expr pointer = bytes == 8 ? ops : ops.extract(bytes * 8 - 1, 0);
    for (MachineState* st : {&caller_, &atEntry_}) {
      st->store(literal, pointer, bytes);
      st->stored.clear();  // F's memory, as below
      st->storedSinceBoundary.clear();
    }
    CallOpsFacts facts = storeCallOps(code_, ops, "ops", {&caller_, &atEntry_}, caller_.address(caller_.reg(abi_.sp)), bytes);
    for (const z3::expr& e : facts.assumptions) prover_.assume(e);
    for (const ApartRanges& a : facts.apart) assumeApart(a);
  }

  void assumeApart(const ApartRanges& k) {
    prover_.assume(k.fact());
    apart_.push_back(k);
  }

  Counterexample counterexample(const TrampolineOutcome& o, const z3::model& m) {
    Counterexample cx;
    std::string broken;
    for (const Violation& v : o.violations)
      if (m.eval(v.when, true).is_true()) {
        broken = v.explain(m);
        cx.rule = "trampoline " + code_.contract.key() + " breaks its contract: " + broken;
        if (isa_.dependsOnException(v.when)) cx.details.push_back(isa_.exceptionNote());
        break;
      }
    for (const TrampolineEvent& e : o.events) {
      if (e.kind == TrampolineEvent::Kind::Settle) {
        if (!cx.trace.empty()) cx.trace.back().note += e.taken ? "branch taken" : "branch not taken";
        continue;
      }
      cx.trace.push_back(traceStep(t_, m, e));
    }
    cx.entryRegisters = entryRegisters(caller_, m);
    for (const auto& [name, term] : site_.symbols()) cx.symbols[name] = valueIn(m, term);
    for (const auto& [name, term] : code_.symbols) cx.symbols[name] = valueIn(m, term);
    const TrampolineContract& k = code_.contract;
    std::string resumeAt = k.resumeSlot ? "[" + k.resume + (*k.resumeSlot ? "+" + std::to_string(*k.resumeSlot) : "") + "]"
                                        : k.resume;
    cx.details.push_back("entry registers are F's; at " + k.key() + "'s entry " + resumeAt + " = " +
                         hex(valueIn(m, resume_)) + " (the resume address), sp = F's sp " +
                         (k.stackAdjust < 0 ? "- " + std::to_string(-k.stackAdjust) : "+ " + std::to_string(k.stackAdjust)) +
                         (k.savedRa ? ", " + *k.savedRa + " = F's ra" : ""));
    if (k.mode)
      cx.intermediateState = "mode " + k.mode->reg + " = " + hex(valueIn(m, atEntry_.reg(reg(k.mode->reg))));
    replay(m, cx, broken);
    return cx;
  }

  // Runs the trampoline again on the model's concrete values: one path,
  // which must break the same rule at the same place, with the same
  // values (the rule's text says all three). Another rule broken is not
  // this counterexample confirmed.
  void replay(const z3::model& m, Counterexample& cx, const std::string& broken) {
    MachineState caller = caller_.evaluatedIn(m);
    CallerView view{&caller, resume_, ip_};
    auto o = replayTrampoline(code_, Cpu(atEntry_.evaluatedIn(m), code_.entry()), view, m, maxSteps_);
    cx.replayNote = replayVerdict(o, m, broken, cx.replayed);
  }
};

}  // namespace

void proveTrampoline(TrampolineCode& code, const SiteInstance& site, const Limits& limits) {
  Prover prover(site.ctx(), limits.timeoutMs);
  Proof(code, site, prover, limits).run();
}


std::variant<std::map<std::string, TrampolineContract>, Diagnostics> trampolineContracts(
    const Spec& spec, const Target& t, z3::context& c, const Limits& limits, const SiteChecks* checked) {
  if (spec.trampolines.empty()) return std::map<std::string, TrampolineContract>{};
  auto site = SiteInstance::make(spec, t, c, limits.timeoutMs, checked);
  if (auto* e = std::get_if<Diagnostics>(&site)) return *e;
  return trampolineContracts(std::get<SiteInstance>(site), limits);
}

std::map<std::string, TrampolineContract> trampolineContracts(const SiteInstance& site, const Limits& limits) {
  std::map<std::string, TrampolineContract> out;
  Prover prover(site.ctx(), limits.timeoutMs);
  for (const auto& [key, loaded] : site.trampolines()) {
    TrampolineCode code = loaded;
    Proof(code, site, prover, limits).run();
    out.emplace(key, code.contract);
  }
  return out;
}

TrampolineResult trampolineResult(const TrampolineContract& k, const Target& t) {
  TrampolineResult r;
  r.entry = k.key();
  r.source = k.source;
  r.sourceSha256 = k.sourceSha256;
  r.fromObject = k.fromObject;
  r.target = t;
  r.verdict = k.proven ? Verdict::Safe : k.refutation ? Verdict::Unsafe : Verdict::Unknown;
  r.counts = k.proofCounts;
  r.counterexample = k.refutation;
  r.unknownReason = k.unknownReason;
  return r;
}

}  // namespace patchcheck
