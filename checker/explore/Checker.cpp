#include "checker/explore/Checker.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "checker/explore/Breakpoints.h"
#include "checker/explore/FetchChunks.h"
#include "checker/explore/Kprobes.h"
#include "checker/explore/PassExplorer.h"
#include "checker/explore/SiteInstance.h"
#include "checker/explore/TrampolineProof.h"

namespace patchcheck {

std::string_view name(Verdict v) {
  switch (v) {
    case Verdict::Safe: return "SAFE";
    case Verdict::Unsafe: return "UNSAFE";
    case Verdict::Unknown: return "UNKNOWN";
  }
  return "?";
}

std::vector<Target> targetsOf(const Spec& s, bool matrix) {
  if (!matrix || s.matrix.empty()) return {s.target};
  std::vector<Target> out;
  // Each entry in both byte orders, or in the one its ISA has (RISC-V:
  // little-endian only).
  for (const Target& t : s.matrix)
    for (Endian e : {Endian::Big, Endian::Little}) {
      Target x = t;
      x.endian = e;
      if (!x.problem()) out.push_back(x);
    }
  return out;
}

namespace {

BehaviourSpec unionOf(const BehaviourSpec& a, const BehaviourSpec& b) {
  BehaviourSpec u = a;
  for (const OutcomeSpec& o : b.alternatives) {
    bool dup = std::any_of(u.alternatives.begin(), u.alternatives.end(),
                           [&](const OutcomeSpec& x) { return x.str() == o.str(); });
    if (!dup) u.alternatives.push_back(o);
  }
  u.text = u.str();
  return u;
}

// How each call's trampoline code enters the proof.
std::vector<std::string> callNotes(const BehaviourSpec& b, const CheckOptions& opt) {
  std::vector<std::string> out;
  for (const OutcomeSpec& o : b.alternatives) {
    if (o.kind != OutcomeSpec::Kind::Call) continue;
    std::string proven, refuted;
    for (const auto& [key, k] : opt.contracts) {
      if (k.symbol != o.target) continue;
      std::string& list = k.proven ? proven : refuted;
      list += (list.empty() ? "" : ", ") + key;
    }
    if (proven.empty() && refuted.empty())
      out.push_back("call " + o.entry() + ": checked at the site only (entry state and condition); " + o.target +
                    "'s own code is outside this proof");
    else if (opt.inlineTrampolines)
      out.push_back("call " + o.target + ": its code runs inside each pass (--inline-trampolines)");
    else
      out.push_back("call " + o.target + ": checked against the contract of " + proven + (proven.empty() ? "" : " (proven)") +
                    (refuted.empty() ? "" : (proven.empty() ? "" : "; ") + refuted + " (NOT proven)"));
  }
  return out;
}

}  // namespace

class SpecChecker {
 public:
  SpecChecker(const Spec& s, const SiteInstance& site, z3::context& c, const CheckOptions& o)
      : spec_(s), site_(site), c_(c), opt_(o), prover_(c, o.limits.timeoutMs) {}

  StateResult checkState(const StateSpec& st) {
    StateResult r;
    r.state = st.name;
    if (auto e = spec_.stateExpect.find(st.name); e != spec_.stateExpect.end()) r.expect = e->second;
    r.target = site_.target();
    const BehaviourSpec& declared = spec_.behaviour.at(st.name);
    r.declared = declared.str();
    Timeline tl = Timeline::of(TransitionSpec{}, regionUnits());
    ModelSpec m = spec_.model;
    FetchModel fm(tl, m, When::Live);
    starts_.clear();
    if (spec_.byteUnits)
      for (const auto& [unit, insn] : site_.instructions(st.name)) starts_.insert(unit);
    PassSetup ps = setup(tl, fm, declared);
    // The state's own probes are registered (an armed probe stays so).
    ps.kprobeLife = kprobeLife(probes(), st.name, st.name);
    for (unsigned i = 0; i < spec_.siteUnits(); ++i) ps.versions[i] = {site_.state(st.name)[i]};
    ps.trackReached = true;
    PassOutcome out = explorePasses(ps, prover_);
    r.counts = out.counts;
    r.counts.intermediateStates = 1;
    r.verdict = out.verdict;
    r.counterexample = out.counterexample;
    r.unknownReason = out.unknownReason;
    r.notes = callNotes(declared, opt_);
    if (r.verdict == Verdict::Safe)
      for (const OutcomeSpec& o : declared.alternatives)
        if (!out.reached.count(o.str())) {
          r.verdict = Verdict::Unsafe;
          Counterexample cx;
          cx.rule = "state '" + st.name + "' is declared '" + declared.str() + "' but no pass does '" +
                    o.str() + "'";
          cx.replayNote = "found by exhausting every pass through the state";
          r.counterexample = cx;
          break;
        }
    return r;
  }

  std::variant<TransitionResult, Diagnostics> checkTransition(const TransitionSpec& t) {
    auto start = std::chrono::steady_clock::now();
    TransitionResult r;
    r.spec = spec_.name;
    r.specPath = spec_.path;
    r.transition = t.name();
    r.from = t.from, r.to = t.to;
    r.where = t.where;
    r.target = site_.target();
    r.expect = t.expect;
    r.culprit = t.where;
    Timeline tl = Timeline::of(t, regionUnits());
    // Versions of each unit: before the transition, then one per write.
    std::vector<std::vector<UnitImage>> versions(regionUnits());
    std::vector<std::vector<std::string>> names(regionUnits());
    const auto& from = site_.state(t.from);
    const auto& to = site_.state(t.to);
    for (unsigned i = 0; i < regionUnits(); ++i) {
      versions[i].push_back(i < spec_.siteUnits() ? from[i] : site_.body()[i - spec_.siteUnits()]);
      names[i].push_back("old");
    }
    Diagnostics errs;
    for (const StepSpec& s : t.steps) {
      if (s.kind != StepSpec::Kind::Write) continue;
      if (s.index >= regionUnits()) {
        errs.push_back({s.where, "write " + std::to_string(spec_.writeIndex(s.index)) + " is outside the site (" +
                                     std::to_string(spec_.siteUnits()) + " units) and the declared body"});
        continue;
      }
      if (s.interim) {
        auto img = site_.interim(*s.interim, s.index);
        if (auto* e = std::get_if<Diagnostics>(&img)) {
          errs.insert(errs.end(), e->begin(), e->end());
          continue;
        }
        versions[s.index].push_back(std::get<UnitImage>(img));
        names[s.index].push_back("interim '" + s.interim->text + "'");
      } else if (!s.source.empty()) {  // the loader holds it to the site
        versions[s.index].push_back(site_.state(s.source)[s.index]);
        names[s.index].push_back("'" + s.source + "'");
      } else if (s.index < spec_.siteUnits()) {
        versions[s.index].push_back(to[s.index]);
        names[s.index].push_back("new");
      } else {
        std::string w = std::to_string(spec_.writeIndex(s.index));
        errs.push_back({s.where, "write " + w + " addresses a body word, which no state holds: give the word as "
                                     "write " + w + " = \"insn\""});
      }
    }
    starts_ = instructionStarts(site_, t);
    auto bp = transitionBreakpoints(site_, t);
    if (auto* e = std::get_if<Diagnostics>(&bp)) errs.insert(errs.end(), e->begin(), e->end());
    else breakpoints_ = std::get<Breakpoints>(std::move(bp));
    probes();
    errs.insert(errs.end(), kprobeErrors_.begin(), kprobeErrors_.end());
    if (!errs.empty()) return errs;
    // The steps must end in `to` (a synthesis prefix need not).
    for (unsigned i = 0; i < spec_.siteUnits() && !opt_.prefix; ++i)
      if (!versions[i].back().sameAs(to[i])) {
        r.verdict = Verdict::Unsafe;
        Counterexample cx;
        cx.rule = "the steps do not end in '" + t.to + "': " + spec_.unitName(i) + " ends as '" +
                  versions[i].back().source + "', '" + t.to + "' has '" + to[i].source + "'";
        cx.replayNote = "found by applying the writes in order";
        r.counterexample = cx;
        r.counts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return r;
      }
    r.counts.intermediateStates = intermediateStates(tl, versions);
    // The steps must publish `to` (docs/model.md "Publication"): a
    // finding of the writer's steps alone, no pass needed.
    if (!opt_.prefix)
      if (auto cx = unpublished(t, tl, versions, names, r.culprit)) {
        r.verdict = Verdict::Unsafe;
        r.counterexample = std::move(cx);
        r.counts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return r;
      }
    BehaviourSpec allowed = t.allow ? *t.allow : unionOf(spec_.behaviour.at(t.from), spec_.behaviour.at(t.to));
    r.notes = callNotes(allowed, opt_);
    if (t.when == When::Boot) {
      r.notes.push_back("boot: nothing executes the site during the steps; only the final state matters");
      r.counts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return r;
    }
    unsigned states = r.counts.intermediateStates;
    r.counts = Counts{};
    r.counts.intermediateStates = states;
    std::vector<std::pair<LineSplit, ChunkSplit>> splits;
    for (const LineSplit& lines : lineSplits())
      for (const ChunkSplit& chunks : chunkSplits(spec_, tl)) splits.push_back({lines, chunks});
    for (const auto& [split, chunks] : splits) {
      FetchModel fm(tl, spec_.model, t.when, split.lines);
      PassSetup ps = setup(tl, fm, allowed);
      ps.kprobeLife = kprobeLife(probes(), t.from, t.to);
      ps.versions = versions;
      ps.versionNames = names;
      ps.fetchedWithPrevious = chunks.withPrevious;
      if (!split.when.is_true()) ps.assumptions.push_back(split.when);
      if (chunks.residue) {
        uint64_t chunk = spec_.model.fetch->atomicFetchBytes();
        ps.assumptions.push_back((site_.symbol(spec_.function) & c_.bv_val(chunk - 1, 64)) ==
                                 c_.bv_val(*chunks.residue, 64));
      }
      PassOutcome out = explorePasses(ps, prover_);
      r.counts.executions += out.counts.executions;
      r.counts.paths += out.counts.paths;
      r.counts.queries += out.counts.queries;
      if (out.verdict == Verdict::Unsafe) {
        r.verdict = Verdict::Unsafe;
        r.counterexample = out.counterexample;
        break;
      }
      if (out.verdict == Verdict::Unknown) {
        r.verdict = Verdict::Unknown;
        r.unknownReason = out.unknownReason;
      }
    }
    if (r.verdict == Verdict::Safe) witnessStates(tl, versions, allowed, r);
    r.counts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }

 private:
  const Spec& spec_;
  const SiteInstance& site_;
  z3::context& c_;
  const CheckOptions& opt_;
  Prover prover_;
  // The transition's breakpoint addresses (byte sites): unit -> the new
  // instruction there.
  Breakpoints breakpoints_;
  std::set<unsigned> starts_;  // PassSetup::instructionStarts
  // The site's kprobes ([model] kprobe), made once; the errors go out with
  // every transition's.
  std::optional<Kprobes> kprobes_;
  Diagnostics kprobeErrors_;
  const Kprobes& probes() {
    if (!kprobes_) {
      auto k = siteKprobes(site_);
      if (auto* e = std::get_if<Diagnostics>(&k)) kprobeErrors_ = std::move(*e), kprobes_.emplace();
      else kprobes_ = std::get<Kprobes>(std::move(k));
    }
    return *kprobes_;
  }

  unsigned regionUnits() const { return site_.regionUnits(); }

  // Which units share an I-cache line (stale only), each way with the
  // condition on F's placement that makes it so: one way when F's address
  // or alignment fixes the line boundaries, else one per distinct split of
  // the site over lines as F mod line_bytes varies. Each way is explored
  // under its condition, so a counterexample's placement and schedule
  // agree, and a site that always fits one line is not split.
  struct LineSplit {
    std::vector<unsigned> lines;
    z3::expr when;
  };
  std::vector<LineSplit> lineSplits() const {
    const SiteLayout& layout = site_.layout();
    uint64_t bytes = spec_.model.lineBytes;
    const SymbolSpec* f = spec_.symbol(spec_.function);
    if (!spec_.model.fetch->lineGrained()) return {{{}, c_.bool_val(true)}};
    if (f && f->value) return {{layout.cacheLines(*f->value, unsigned(bytes)), c_.bool_val(true)}};
    uint64_t unit = spec_.unitBytes(site_.target());
    uint64_t align = f ? std::max<uint64_t>(f->align, unit) : unit;
    if (align % bytes == 0) return {{layout.cacheLines(0, unsigned(bytes)), c_.bool_val(true)}};
    z3::expr fTerm = site_.symbol(spec_.function);
    Prover placement(c_, opt_.limits.timeoutMs);
    for (const z3::expr& e : site_.constraints()) placement.assume(e);
    std::vector<LineSplit> out;
    for (uint64_t o = 0; o < bytes; o += align) {
      z3::expr at = (fTerm & c_.bv_val(bytes - 1, 64)) == c_.bv_val(o, 64);
      if (placement.check(at) == Answer::Unsat) continue;  // no placement has this offset
      std::vector<unsigned> lines = layout.cacheLines(o, unsigned(bytes));
      auto same = std::find_if(out.begin(), out.end(), [&](const LineSplit& s) { return s.lines == lines; });
      if (same == out.end()) out.push_back({lines, at});
      else same->when = same->when || at;
    }
    // Undecided offsets fall back to every unit its own line (allows the most).
    if (out.empty()) out.push_back({{}, c_.bool_val(true)});
    return out;
  }

  PassSetup setup(const Timeline& tl, const FetchModel& fm, const BehaviourSpec& allowed) {
    PassSetup ps;
    ps.site = &site_;
    ps.timeline = &tl;
    ps.fetch = &fm;
    ps.allowed = allowed;
    ps.delaySlotInterrupts = spec_.model.delaySlotInterrupts;
    ps.unpredictableAsHardware = spec_.model.unpredictableAsHardware;
    ps.contracts = &opt_.contracts;
    ps.inlineTrampolines = opt_.inlineTrampolines;
    ps.budget = opt_.budget;
    if (ps.budget.executionsScale)
      ps.budget.maxExecutions = std::max(ps.budget.maxExecutions, Budget::kExecutionsPerUnit * regionUnits());
    ps.fetchChoices = opt_.fetchChoices;
    // A pass that runs straight through a long site (a batch of 1024
    // nops) is no loop: the limit is at least twice the region's units.
    ps.maxSteps = std::max(opt_.limits.maxSteps, 2 * regionUnits());
    ps.breakpoints = breakpoints_;
    ps.instructionStarts = starts_;
    ps.breakpointHandler = spec_.model.breakpoint;
    ps.vectorOutlivesSteps = opt_.prefix;  // a synthesis prefix: the transition goes on
    ps.kprobes = &probes();
    // Which image of a merged fetch trapped is not kept: explore explicitly.
    if (!ps.kprobes->empty()) ps.fetchChoices = FetchChoices::Explicit;
    ps.versions.resize(regionUnits());
    ps.versionNames.resize(regionUnits());
    for (unsigned i = spec_.siteUnits(); i < regionUnits(); ++i) {
      ps.versions[i] = {site_.body()[i - spec_.siteUnits()]};
      ps.versionNames[i] = {"original"};
    }
    for (unsigned i = 0; i < spec_.siteUnits(); ++i) ps.versionNames[i] = {"state"};
    return ps;
  }

  // Publication: once the steps are done, does every CPU eventually fetch
  // each fetched unit's final version under the spec's fetch model (and,
  // with publish = "synchronised", pass a context synchronisation after
  // that)? Data units before F are read by loads, which see stores without
  // instruction-cache maintenance: they need nothing here. A counterexample
  // naming the first unit that is not published and the step missing, or
  // nullopt.
  std::optional<Counterexample> unpublished(const TransitionSpec& t, const Timeline& tl,
                                            const std::vector<std::vector<UnitImage>>& versions,
                                            const std::vector<std::vector<std::string>>& names,
                                            std::optional<SourceLocation>& culprit) const {
    FetchModel fm(tl, spec_.model, t.when);
    std::vector<unsigned> fetched = tl.writtenUnits(spec_.entryUnit());
    if (fm.publishes(fetched, t.publish)) return std::nullopt;
    unsigned from = fm.publishedFrom(fetched);
    Counterexample cx;
    cx.replayNote = "no pass to replay: the writer's steps alone leave it, under the fetch model (docs/model.md "
                    "\"Publication\")";
    if (from > tl.stepCount) {
      for (unsigned i : fetched) {
        unsigned v = fm.settledVersion(i, tl.stepCount);
        if (v + 1 == tl.versions(i)) continue;
        const StepSpec& last = t.steps[tl.writes[tl.byUnit[i].back()].step];
        std::string index = std::to_string(spec_.writeIndex(i));
        std::string as = names[i][v].rfind("interim", 0) == 0 ? names[i][v] + " version"
                                                                : names[i][v] + " version '" + versions[i][v].source + "'";
        cx.rule = "not published: " + spec_.unitName(i) + " may still be fetched as its " + as +
                  " after the last step: no " + fm.publishingSteps(index) + " after `" +
                  last.ownText(spec_) + "`";
        culprit = last.where;
        return cx;
      }
    }
    if (t.publish == Publish::Synchronised && !fm.synchronisedFrom(from)) {
      std::string when = from == 0 ? "the start" : "`" + t.steps[from - 1].text + "` (step " + std::to_string(from) + ")";
      cx.rule = "not synchronised (publish = \"synchronised\"): no CPU is made to context-synchronise after the new "
                "code is published at " + when + ": no " + fm.synchronisingSteps() + " after it";
      culprit = t.steps.empty() ? t.where : t.steps.back().where;
      return cx;
    }
    return std::nullopt;
  }

  // A SAFE verdict must not hold vacuously: each intermediate state (the
  // site's contents after each prefix of the steps) must admit at least one
  // execution whose path condition is satisfiable under the placement and
  // entry facts. Counted in r.counts; any state without one makes the
  // verdict UNKNOWN.
  void witnessStates(const Timeline& tl, const std::vector<std::vector<UnitImage>>& versions,
                     const BehaviourSpec& allowed, TransitionResult& r) {
    Timeline none = Timeline::of(TransitionSpec{}, regionUnits());
    FetchModel fm(none, spec_.model, When::Live);
    std::vector<std::vector<unsigned>> seen;
    r.counts.witnessedStates = 0;
    for (unsigned p = 0; p <= tl.stepCount; ++p) {
      std::vector<unsigned> contents;
      for (unsigned i = 0; i < versions.size(); ++i) contents.push_back(tl.byUnit.size() > i ? tl.versionAt(i, p) : 0);
      if (std::find(seen.begin(), seen.end(), contents) != seen.end()) continue;
      seen.push_back(contents);
      PassSetup ps = setup(none, fm, allowed);
      for (unsigned i = 0; i < versions.size(); ++i) ps.versions[i] = {versions[i][contents[i]]};
      ps.witnessOnly = true;
      // One moment inside the transition: every probe may be registered.
      for (const auto& [unit, k] : probes()) ps.kprobeLife.during.insert(unit), ps.kprobeLife.after.insert(unit);
      PassOutcome out = explorePasses(ps, prover_);
      r.counts.queries += out.counts.queries;
      if (out.witnessed) {
        ++r.counts.witnessedStates;
      } else if (r.verdict == Verdict::Safe) {
        r.verdict = Verdict::Unknown;
        r.unknownReason = out.verdict == Verdict::Unknown
                              ? "could not show that intermediate state " + std::to_string(seen.size() - 1) +
                                    " admits any execution: " + out.unknownReason
                              : "intermediate state " + std::to_string(seen.size() - 1) +
                                    " admits no execution under the placement and entry facts, so SAFE would hold vacuously";
      }
    }
  }

  // Distinct contents of the site along the writer's program order.
  static unsigned intermediateStates(const Timeline& tl, const std::vector<std::vector<UnitImage>>& v) {
    std::vector<std::vector<unsigned>> seen;
    for (unsigned p = 0; p <= tl.stepCount; ++p) {
      std::vector<unsigned> contents;
      for (unsigned i = 0; i < v.size(); ++i) contents.push_back(tl.byUnit.size() > i ? tl.versionAt(i, p) : 0);
      if (std::find(seen.begin(), seen.end(), contents) == seen.end()) seen.push_back(contents);
    }
    return unsigned(seen.size());
  }
};

SiteChecker::SiteChecker(const SiteInstance& site, const CheckOptions& opt)
    : checker_(std::make_unique<SpecChecker>(site.spec(), site, site.ctx(), opt)) {}
SiteChecker::~SiteChecker() = default;
StateResult SiteChecker::state(const StateSpec& st) { return checker_->checkState(st); }
std::variant<TransitionResult, Diagnostics> SiteChecker::transition(const TransitionSpec& t) {
  return checker_->checkTransition(t);
}

StateResult checkState(const SiteInstance& site, const StateSpec& st, const CheckOptions& opt) {
  return SpecChecker(site.spec(), site, site.ctx(), opt).checkState(st);
}

std::variant<TransitionResult, Diagnostics> checkTransition(const SiteInstance& site, const TransitionSpec& t,
                                                            const CheckOptions& opt) {
  return SpecChecker(site.spec(), site, site.ctx(), opt).checkTransition(t);
}

std::variant<SpecResult, Diagnostics> checkSpec(const Spec& spec, const Target& t, z3::context& c,
                                                const CheckOptions& opt) {
  auto site = SiteInstance::make(spec, t, c, opt.limits.timeoutMs);
  if (auto* e = std::get_if<Diagnostics>(&site)) return *e;
  const SiteInstance& s = std::get<SiteInstance>(site);
  CheckOptions withContracts = opt;
  SpecResult r;
  if (!spec.trampolines.empty() && opt.contracts.empty()) {  // prove them first, as checkTargets does
    auto k = trampolineContracts(spec, t, c, opt.limits);
    if (auto* e = std::get_if<Diagnostics>(&k)) return *e;
    withContracts.contracts = std::get<std::map<std::string, TrampolineContract>>(k);
  }
  for (const auto& [key, k] : withContracts.contracts) r.trampolines.push_back(trampolineResult(k, t));
  SpecChecker checker(spec, s, c, withContracts);
  r.spec = spec.name;
  r.specPath = spec.path;
  std::vector<const TransitionSpec*> chosen;
  if (opt.transition) {
    chosen = spec.transitionsNamed(*opt.transition);
    if (chosen.empty())
      return Diagnostics{{{"<command line>", 0, 0}, std::get<std::string>(spec.transitionNamed(*opt.transition))}};
  }
  for (const StateSpec& st : spec.states) r.states.push_back(checker.checkState(st));
  if (opt.statesOnly) return r;
  for (const TransitionSpec& tr : spec.transitions) {
    if (opt.transition && std::find(chosen.begin(), chosen.end(), &tr) == chosen.end()) continue;
    auto res = checker.checkTransition(tr);
    if (auto* e = std::get_if<Diagnostics>(&res)) return *e;
    r.transitions.push_back(std::get<TransitionResult>(res));
  }
  return r;
}

}  // namespace patchcheck
