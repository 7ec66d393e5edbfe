#include "checker/explore/TrampolineProof.h"

#include <algorithm>
#include <chrono>

#include "encoder/Hex.h"
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
  Proof(TrampolineCode& code, const SiteInstance& site, const Limits& limits)
      : code_(code), site_(site), c_(site.ctx()), t_(site.target()), isa_(modelOf(t_)), abi_(isa_.abi(t_)),
        prover_(c_, limits.timeoutMs), maxSteps_(limits.maxSteps), caller_(MachineState::symbolic(c_, t_, "caller.")), atEntry_(caller_),
        resume_(site.bodyStart()), ip_(resume_ + c_.bv_val(uint64_t(code.ipOffset), 64)) {}

  void run() {
    auto start = std::chrono::steady_clock::now();
    TrampolineContract& k = code_.contract;
    for (const z3::expr& e : site_.constraints()) prover_.assume(e);
    for (const z3::expr& e : code_.constraints) prover_.assume(e);
    prover_.assume(isa_.entryAssumptions(caller_));
    buildEntry();
    CallerView view{&caller_, resume_, ip_};
    Decide decide = [this](const std::vector<z3::expr>& path, const z3::expr& cond) {
      return prover_.check(all(c_, path) && cond);
    };
    std::vector<TrampolineOutcome> outcomes =
        runTrampoline(code_, Cpu(atEntry_, code_.entry()), view, decide, maxSteps_);
    for (const TrampolineOutcome& o : outcomes) {
      if (o.undecided && k.unknownReason.empty()) k.unknownReason = *o.undecided;
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
      break;
    }
    if (site_.placementUndecided() && k.unknownReason.empty()) k.unknownReason = *site_.placementUndecided();
    k.proven = !k.refutation && k.unknownReason.empty();
    k.proofCounts.paths = unsigned(outcomes.size());
    k.proofCounts.executions = unsigned(outcomes.size());
    k.proofCounts.queries = prover_.queries();
    k.proofCounts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

 private:
  TrampolineCode& code_;
  const SiteInstance& site_;
  z3::context& c_;
  Target t_;
  const IsaModel& isa_;
  const AbiModel& abi_;
  Prover prover_;
  unsigned maxSteps_;
  MachineState caller_;   // F's entry
  MachineState atEntry_;  // the trampoline's entry
  z3::expr resume_, ip_;

  unsigned reg(const std::string& name) const { return *isa_.parseRegister(name, t_); }

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
    atEntry_.setReg(resume, atEntry_.fromAddress(resume_));
    atEntry_.setReg(abi_.sp, caller_.reg(abi_.sp) + c_.bv_val(uint64_t(k.stackAdjust), w));
    if (k.mode) {
      z3::expr m = atEntry_.reg(reg(k.mode->reg));
      prover_.assume(m == c_.bv_val(k.mode->regs, w) || m == c_.bv_val(k.mode->noregs, w));
    }
  }

  Counterexample counterexample(const TrampolineOutcome& o, const z3::model& m) {
    Counterexample cx;
    for (const Violation& v : o.violations)
      if (m.eval(v.when, true).is_true()) {
        cx.rule = "trampoline " + code_.contract.key() + " breaks its contract: " + v.explain(m);
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
    cx.details.push_back("entry registers are F's; at " + k.key() + "'s entry " + k.resume + " = " +
                         hex(valueIn(m, resume_)) + " (the resume address), sp = F's sp " +
                         (k.stackAdjust < 0 ? "- " + std::to_string(-k.stackAdjust) : "+ " + std::to_string(k.stackAdjust)) +
                         (k.savedRa ? ", " + *k.savedRa + " = F's ra" : ""));
    if (k.mode)
      cx.intermediateState = "mode " + k.mode->reg + " = " + hex(valueIn(m, atEntry_.reg(reg(k.mode->reg))));
    replay(m, cx);
    return cx;
  }

  // Runs the trampoline again on the model's concrete values: one path,
  // which must break a rule of the contract again.
  void replay(const z3::model& m, Counterexample& cx) {
    MachineState caller = caller_.evaluatedIn(m);
    CallerView view{&caller, resume_, ip_};
    auto o = replayTrampoline(code_, Cpu(atEntry_.evaluatedIn(m), code_.entry()), view, m, maxSteps_);
    if (o)
      for (const Violation& v : o->violations)
        if (m.eval(v.when, true).is_true()) {
          cx.replayed = true;
          cx.replayNote = "replayed concretely: the trampoline run on these values breaks: " + v.explain(m);
          return;
        }
    cx.replayNote = o ? "replay: the concrete run of the trampoline keeps its contract"
                      : "replay: the concrete run of the trampoline takes another path";
  }
};

}  // namespace

void proveTrampoline(TrampolineCode& code, const SiteInstance& site, const Limits& limits) {
  Proof(code, site, limits).run();
}


std::variant<std::map<std::string, TrampolineContract>, Diagnostics> trampolineContracts(
    const Spec& spec, const Target& t, z3::context& c, const Limits& limits) {
  if (spec.trampolines.empty()) return std::map<std::string, TrampolineContract>{};
  auto site = SiteInstance::make(spec, t, c, limits.timeoutMs);
  if (auto* e = std::get_if<Diagnostics>(&site)) return *e;
  const SiteInstance& s = std::get<SiteInstance>(site);
  std::map<std::string, TrampolineContract> out;
  for (const auto& [key, loaded] : s.trampolines()) {
    TrampolineCode code = loaded;
    proveTrampoline(code, s, limits);
    out.emplace(key, code.contract);
  }
  return out;
}

TrampolineResult trampolineResult(const TrampolineContract& k, const Target& t) {
  TrampolineResult r;
  r.entry = k.key();
  r.source = k.source;
  r.sourceSha256 = k.sourceSha256;
  r.target = t;
  r.verdict = k.proven ? Verdict::Safe : k.refutation ? Verdict::Unsafe : Verdict::Unknown;
  r.counts = k.proofCounts;
  r.counterexample = k.refutation;
  r.unknownReason = k.unknownReason;
  return r;
}

}  // namespace patchcheck
