#include "checker/explore/Synthesis.h"

#include "checker/spec/Suggest.h"

#include <optional>
#include <queue>
#include <tuple>

#include "checker/explore/FetchModel.h"
#include "checker/explore/Timeline.h"

namespace patchcheck {

std::string stepsText(const std::vector<StepSpec>& steps) {
  std::string s;
  for (const StepSpec& st : steps) s += (s.empty() ? "" : ", ") + st.text;
  return s;
}

namespace {

// What may stand between two writes, cheapest first. Weights make a flush
// (flush_icache_range, IPIs) dearer than a sync and a wait
// (synchronize_rcu_tasks) dearer than both. Under the x86 model only
// serialisation orders what a fetch sees: its one barrier is sync_core
// (text_poke_sync, an IPI to every CPU: a flush's weight), and `sync`
// would order nothing (x86 specs refuse it).
struct Gap {
  std::vector<StepSpec::Kind> kinds;
  unsigned weight;
};
// A model that does not take `sync` (x86) has the gaps without it.
const std::vector<Gap>& gaps(const FetchRules& fetch) {
  using K = StepSpec::Kind;
  static const std::vector<Gap> g = {
      {{}, 0}, {{K::Sync}, 1}, {{K::Flush}, 2}, {{K::Sync, K::Wait}, 5}, {{K::Flush, K::Wait}, 6}};
  static const std::vector<Gap> noSync = {{{}, 0}, {{K::Flush}, 2}, {{K::Flush, K::Wait}, 6}};
  return fetch.takesStep("sync") ? g : noSync;
}
constexpr unsigned kFlushWeight = 2;

StepSpec barrier(StepSpec::Kind k, const SourceLocation& where, const FetchRules& fetch) {
  StepSpec s;
  s.kind = k;
  s.where = where;
  s.text = k == StepSpec::Kind::Sync    ? "sync"
           : k == StepSpec::Kind::Flush ? std::string(fetch.fullBarrier())
                                        : "wait";
  return s;
}

// Per site word: what may be written to it.
struct UnitPlan {
  bool changes = false;              // from and to differ
  std::vector<UnitSpec> interims;    // words of other states, distinct from both
};

enum : int { kUntouched = -1, kFinal = -2 };

struct Node {
  std::vector<StepSpec> steps;
  std::vector<int> word;  // kUntouched, kFinal, or the interim written
  unsigned writes = 0, barriers = 0, weight = 0;
  size_t firstWrite = 0;
  bool complete = false;
  size_t seq = 0;
};

class Search {
 public:
  Search(const SiteInstance& site, const TransitionSpec& base, const SynthOptions& o)
      : site_(site), spec_(site.spec()), base_(base), opt_(o) {}

  std::variant<SynthResult, Diagnostics> run() {
    r_.transition = base_.name();
    plan();
    bool anyChange = false;
    for (const UnitPlan& p : plans_) anyChange = anyChange || p.changes;
    if (!anyChange)
      return Diagnostics{{base_.where, "'" + base_.from + "' and '" + base_.to + "' hold the same words: nothing to write"}};
    Node root;
    root.word.assign(plans_.size(), kUntouched);
    expand(root);
    std::optional<std::pair<unsigned, unsigned>> best;
    while (!open_.empty()) {
      Node n = open_.top().node;
      auto cost = open_.top().cost();
      open_.pop();
      if (best && (!opt_.all || cost > *best)) break;
      if (r_.prefixesChecked + r_.ordersChecked >= opt_.maxChecks) {
        r_.undecided = true;
        r_.undecidedWhy = "the search stopped after " + std::to_string(opt_.maxChecks) + " checker runs";
        break;
      }
      ++r_.examined;
      if (opt_.progress) opt_.progress->advance(stepsText(n.steps));
      auto checked = check(n);
      if (auto* e = std::get_if<Diagnostics>(&checked)) return *e;
      TransitionResult& res = std::get<TransitionResult>(checked);
      if (res.verdict == Verdict::Unknown) {
        r_.undecided = true;
        r_.undecidedWhy = "the solver could not decide " + stepsText(n.steps) + ": " + res.unknownReason;
      }
      if (res.verdict == Verdict::Unsafe) {
        ++r_.pruned;
        FirstWriteFailure& f = r_.failures[n.firstWrite];
        if (!f.explored) {
          f.explored = true;
          f.prefix = n.steps;
          f.verdict = res.verdict;
          f.counterexample = res.counterexample;
        }
        continue;
      }
      if (n.complete) {
        if (res.verdict == Verdict::Safe) {
          r_.orders.push_back({n.steps, n.barriers, res});
          best = cost;
        }
        continue;
      }
      expand(n);  // safe or undecided prefixes grow
    }
    if (!r_.orders.empty()) r_.undecided = false;
    return r_;
  }

 private:
  struct Entry {
    Node node;
    unsigned f = 0, fw = 0;
    std::pair<unsigned, unsigned> cost() const { return {f, fw}; }
    bool operator<(const Entry& o) const {  // priority_queue pops the largest
      return std::tie(f, fw, node.seq) > std::tie(o.f, o.fw, o.node.seq);
    }
  };

  const SiteInstance& site_;
  const Spec& spec_;
  const TransitionSpec& base_;
  const SynthOptions& opt_;
  std::vector<UnitPlan> plans_;
  std::priority_queue<Entry> open_;
  size_t seq_ = 0;
  SynthResult r_;

  void plan() {
    const auto& from = site_.state(base_.from);
    const auto& to = site_.state(base_.to);
    plans_.resize(spec_.siteUnits());
    for (unsigned i = 0; i < spec_.siteUnits(); ++i) {
      UnitPlan& p = plans_[i];
      p.changes = !from[i].sameAs(to[i]);
      if (spec_.byteUnits) {
        // A byte site's one interim is the ISA's patch breakpoint (x86
        // int3), where an instruction of `to` starts: the handler emulates
        // that instruction (checker/explore/Breakpoints.h). Other states'
        // bytes are no instructions of their own.
        // Not where the kernel's handler could not emulate it (the spec
        // would be refused).
        auto trap = site_.target().isa->patchBreakpoint();
        const auto& starts = site_.instructions(base_.to);
        auto at = starts.find(i);
        bool refused = at != starts.end() && spec_.model.breakpoint == ModelSpec::Breakpoint::Emulate &&
                       site_.target().isa->breakpointRefuses(at->second->assembled, spec_.model.breakpointKernel);
        if (trap && at != starts.end() && !refused) p.interims.push_back(UnitSpec{std::string(*trap), base_.where});
        continue;
      }
      if (!opt_.interim) continue;
      std::vector<const UnitImage*> seen = {&from[i], &to[i]};
      for (const StateSpec& st : spec_.states) {
        const UnitImage& w = site_.state(st.name)[i];
        bool dup = false;
        for (const UnitImage* s : seen) dup = dup || s->sameAs(w);
        if (dup) continue;
        seen.push_back(&w);
        p.interims.push_back(st.words[i]);
      }
    }
  }

  // Writes still needed after `n`, and whether none are.
  unsigned remaining(const Node& n) const {
    unsigned k = 0;
    for (size_t i = 0; i < plans_.size(); ++i)
      if (n.word[i] >= 0 || (n.word[i] == kUntouched && plans_[i].changes)) ++k;
    return k;
  }

  void push(Node n) {
    n.seq = seq_++;
    Entry e;
    unsigned rest = remaining(n);
    if (rest == 0 && !n.complete) {
      // Every word in place: the order must also publish `to` as the
      // check asks (the fetch model's rule); when it does not yet, close
      // it with a flush (x86: sync_core), which publishes and
      // synchronises under every model.
      if (!published(n.steps)) {
        n.steps.push_back(barrier(StepSpec::Kind::Flush, base_.where, *spec_.model.fetch));
        n.barriers++;
        n.weight += kFlushWeight;
      }
      n.complete = true;
    }
    e.f = unsigned(n.steps.size()) + rest + (n.complete ? 0 : 1);
    e.fw = n.weight + (n.complete ? 0 : kFlushWeight);
    e.node = std::move(n);
    open_.push(std::move(e));
  }

  // Does this order publish `to` as the transition asks (docs/model.md
  // "Publication"), by the same rule checkTransition applies?
  bool published(const std::vector<StepSpec>& steps) const {
    TransitionSpec t = base_;
    t.steps = steps;
    Timeline tl = Timeline::of(t, site_.regionUnits());
    return FetchModel(tl, spec_.model, base_.when).publishes(tl.writtenUnits(spec_.entryUnit()), base_.publish);
  }

  StepSpec write(unsigned i, const UnitSpec* interim) const {
    StepSpec s;
    s.kind = StepSpec::Kind::Write;
    s.index = i;
    s.where = base_.where;
    s.text = "write " + std::to_string(spec_.writeIndex(i));
    if (interim) {
      s.interim = *interim;
      s.text += " = \"" + interim->text + "\"";
    }
    return s;
  }

  // Under the x86 model the writes between two serialisations land for a
  // fetch in any order and any subset (Intel SDM Vol. 3 8.1.3): the order
  // inside a group changes nothing, so each group is tried in address order
  // only.
  bool unorderedGroups() const { return spec_.model.fetch->unorderedWithinGroup(); }

  void expand(const Node& n) {
    bool first = n.writes == 0;
    // The unit the last step wrote, when no barrier followed it.
    std::optional<unsigned> groupLast;
    if (!n.steps.empty() && n.steps.back().kind == StepSpec::Kind::Write) groupLast = n.steps.back().index;
    for (unsigned i = 0; i < plans_.size(); ++i) {
      std::vector<std::pair<int, const UnitSpec*>> options;  // new word state, interim written
      if (n.word[i] == kUntouched) {
        if (plans_[i].changes) options.push_back({kFinal, nullptr});
        for (size_t k = 0; k < plans_[i].interims.size(); ++k) options.push_back({int(k), &plans_[i].interims[k]});
      } else if (n.word[i] >= 0) {
        options.push_back({kFinal, nullptr});
      }
      for (const auto& [state, interim] : options)
        for (const Gap& g : gaps(*spec_.model.fetch)) {
          if (first && !g.kinds.empty()) break;  // nothing to order before the first write
          if (unorderedGroups() && g.kinds.empty() && groupLast && i <= *groupLast) continue;
          Node c = n;
          for (StepSpec::Kind k : g.kinds) c.steps.push_back(barrier(k, base_.where, *spec_.model.fetch));
          c.barriers += unsigned(g.kinds.size());
          c.weight += g.weight;
          c.steps.push_back(write(i, interim));
          c.word[i] = state;
          c.writes++;
          if (first) {
            c.firstWrite = r_.failures.size();
            FirstWriteFailure f;
            f.firstWrite = c.steps.back().text;
            r_.failures.push_back(f);
          }
          push(std::move(c));
        }
    }
  }

  std::variant<TransitionResult, Diagnostics> check(const Node& n) {
    TransitionSpec t = base_;
    t.steps = n.steps;
    t.expect.reset();
    CheckOptions o = opt_.check;
    o.prefix = !n.complete;
    (n.complete ? r_.ordersChecked : r_.prefixesChecked)++;
    return checkTransition(site_, t, o);
  }
};

}  // namespace

std::variant<SynthResult, Diagnostics> synthesize(const SiteInstance& site, const std::string& transition,
                                                  const SynthOptions& opt) {
  const Spec& spec = site.spec();
  SourceLocation cl{"<command line>", 0, 0};
  // A transition of the spec, by name: its when and allow; the steps are
  // what we search. A FROM->TO the spec does not have is a new one.
  std::vector<const TransitionSpec*> named = spec.transitionsNamed(transition);
  if (named.size() > 1) return Diagnostics{{cl, std::get<std::string>(spec.transitionNamed(transition))}};
  TransitionSpec base;
  if (named.size() == 1) {
    base = *named.front();
  } else {
    size_t arrow = transition.find("->");
    if (arrow == std::string::npos)
      return Diagnostics{{cl, "--transition wants a transition's name or FROM->TO, got '" + transition + "'"}};
    base.from = transition.substr(0, arrow);
    base.to = transition.substr(arrow + 2);
    base.where = spec.functionWhere;
    for (const std::string& s : {base.from, base.to})
      if (!spec.state(s)) {
        std::vector<std::string> known;
        for (const StateSpec& st : spec.states) known.push_back(st.name);
        return Diagnostics{{cl, "no state '" + s + "' in " + spec.path + suggest(s, known)}};
      }
  }
  base.steps.clear();
  return Search(site, base, opt).run();
}

}  // namespace patchcheck
