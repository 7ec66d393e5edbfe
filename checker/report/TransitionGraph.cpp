#include "checker/report/TransitionGraph.h"

#include <gvc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "checker/explore/Breakpoints.h"
#include "checker/explore/FetchChunks.h"
#include "checker/explore/Kprobes.h"
#include "checker/explore/PassExplorer.h"
#include "checker/explore/Progress.h"
#include "checker/explore/Timeline.h"

namespace patchcheck {
namespace {

using Contents = std::vector<unsigned>;  // version per site word

struct Versions {
  std::vector<std::vector<UnitImage>> images;
  std::vector<std::vector<std::string>> names;
};

BehaviourSpec unionOf(const BehaviourSpec& a, const BehaviourSpec& b) {
  BehaviourSpec u = a;
  for (const OutcomeSpec& o : b.alternatives) {
    bool dup = false;
    for (const OutcomeSpec& x : u.alternatives) dup = dup || x.str() == o.str();
    if (!dup) u.alternatives.push_back(o);
  }
  u.text = u.str();
  return u;
}

// Which outcomes passes that run wholly in `c` take (the explorer with one
// version per word), and the first broken rule.
void observe(GraphNode& n, const Contents& c, const Versions& v, const SiteInstance& site, const ModelSpec& model,
             const BehaviourSpec& allowed, const Breakpoints& breakpoints, const std::set<unsigned>& starts,
             const Kprobes& kprobes, const KprobeLife& life, const CheckOptions& opt, unsigned maxSeconds) {
  Timeline tl = Timeline::of(TransitionSpec{}, site.regionUnits());
  FetchModel fm(tl, model, When::Live);
  PassSetup ps;
  ps.site = &site;
  ps.timeline = &tl;
  ps.fetch = &fm;
  ps.allowed = allowed;
  ps.delaySlotInterrupts = model.delaySlotInterrupts;
  ps.unpredictableAsHardware = model.unpredictableAsHardware;
  ps.contracts = &opt.contracts;
  ps.trackReached = true;
  // Mid-transition, a breakpoint the writer placed traps to a handler
  // that has its address (text_poke_bp's vector): as the checker sees it.
  ps.breakpoints = breakpoints;
  ps.breakpointHandler = model.breakpoint;
  ps.vectorOutlivesSteps = true;
  ps.kprobes = &kprobes;  // and the probes the transition keeps registered
  ps.kprobeLife = life;
  ps.instructionStarts = starts;
  ps.budget.maxSeconds = maxSeconds;
  for (unsigned i = 0; i < site.regionUnits(); ++i) {
    unsigned k = i < c.size() ? c[i] : 0;
    ps.versions.push_back({v.images[i][k]});
    ps.versionNames.push_back({v.names[i][k]});
  }
  Prover prover(site.ctx(), opt.limits.timeoutMs);
  PassOutcome out = explorePasses(ps, prover);
  n.outcomes.assign(out.reached.begin(), out.reached.end());
  if (out.counterexample) n.unsafe = out.counterexample->rule;
  n.undecided = out.verdict == Verdict::Unknown;
  n.unknownReason = out.unknownReason;
  n.explored = true;
}

// A unit as a node shows it: a word by its text; a byte of a byte site
// by its value ("??" where the placement decides it), then the
// instruction it belongs to and where in it.
std::string unitText(const UnitImage& w) {
  if (!w.whole) return w.source;
  char hex[8] = "??";
  if (w.symbolic.knownMask == 0xff) snprintf(hex, sizeof hex, "%02llx", (unsigned long long)w.symbolic.knownBits);
  return std::string(hex) + " " + w.source + (w.byte ? " [+" + std::to_string(w.byte) + "]" : "");
}

// The spec's steps, a range once: "write 0 = \"int3\", sync_core, write 1..4".
std::string specSteps(const TransitionSpec& t) {
  std::string s;
  for (const StepSpec& st : t.steps)
    if (!st.continuesRange()) s += (s.empty() ? "" : ", ") + st.text;
  return s;
}

// One write of the writer's program: a byte of `write 1..4` alone, with the
// spec step it belongs to.
std::string writeLabel(const StepSpec& s, const Spec& spec) {
  std::string own = s.ownText(spec);
  return own == s.text ? own : own + " (of " + s.text + ")";
}

}  // namespace

std::variant<TransitionPicture, Diagnostics> transitionPicture(const SiteInstance& site, const std::string& name,
                                                               const CheckOptions& opt, unsigned maxSeconds) {
  const auto began = std::chrono::steady_clock::now();
  const Spec& spec = site.spec();
  auto named = spec.transitionNamed(name);
  if (auto* why = std::get_if<std::string>(&named)) return Diagnostics{{{"<command line>", 0, 0}, *why}};
  const TransitionSpec* t = std::get<const TransitionSpec*>(named);
  TransitionPicture pic;
  pic.title = spec.name + " " + name + " [" + site.target().str() + "]: " + specSteps(*t);
  // The transition's own verdict first: the picture must tell its story.
  auto res = checkTransition(site, *t, opt);
  if (auto* e = std::get_if<Diagnostics>(&res)) return *e;
  const TransitionResult& r = std::get<TransitionResult>(res);
  pic.verdict = r.verdict;
  pic.intermediateStates = r.counts.intermediateStates;
  pic.unknownReason = r.unknownReason;
  pic.boot = t->when == When::Boot;
  auto bp = transitionBreakpoints(site, *t);
  if (auto* e = std::get_if<Diagnostics>(&bp)) return *e;
  const Breakpoints& breakpoints = std::get<Breakpoints>(bp);
  const std::set<unsigned> starts = instructionStarts(site, *t);
  auto probes = siteKprobes(site);
  if (auto* e = std::get_if<Diagnostics>(&probes)) return *e;
  const Kprobes& kprobes = std::get<Kprobes>(probes);
  const KprobeLife life = kprobeLife(kprobes, t->from, t->to);
  // The versions of each word, as the checker numbers them.
  Versions v;
  const auto& from = site.state(t->from);
  const auto& to = site.state(t->to);
  for (unsigned i = 0; i < site.regionUnits(); ++i) {
    v.images.push_back({i < spec.siteUnits() ? from[i] : site.body()[i - spec.siteUnits()]});
    v.names.push_back({"old"});
  }
  Timeline tl = Timeline::of(*t, site.regionUnits());
  for (const StepSpec& s : t->steps) {
    if (s.kind != StepSpec::Kind::Write || s.index >= site.regionUnits()) continue;
    if (s.interim) {
      auto img = site.interim(*s.interim, s.index);
      if (auto* e = std::get_if<Diagnostics>(&img)) return *e;
      v.images[s.index].push_back(std::get<UnitImage>(img));
      v.names[s.index].push_back("interim");
    } else if (!s.source.empty()) {
      v.images[s.index].push_back(site.state(s.source)[s.index]);
      v.names[s.index].push_back(s.source);
    } else if (s.index < spec.siteUnits()) {
      v.images[s.index].push_back(to[s.index]);
      v.names[s.index].push_back("new");
    } else {
      return Diagnostics{{s.where, "write " + std::to_string(spec.writeIndex(s.index)) +
                                       " of a body word needs an explicit word"}};
    }
  }
  BehaviourSpec allowed = t->allow ? *t->allow : unionOf(spec.behaviour.at(t->from), spec.behaviour.at(t->to));
  // Contents reachable: all writes of earlier barrier groups, and any
  // per-word-ordered subset of the current group's (sc: program order only).
  std::map<Contents, size_t> index;
  auto nodeFor = [&](const Contents& c, bool programOrder) -> std::optional<size_t> {
    auto it = index.find(c);
    if (it != index.end()) {
      pic.nodes[it->second].programOrder = pic.nodes[it->second].programOrder || programOrder;
      return it->second;
    }
    if (!programOrder && pic.nodes.size() >= kMaxGraphNodes) {
      pic.mixesCut = true;
      return std::nullopt;
    }
    GraphNode n;
    n.id = "s" + std::to_string(pic.nodes.size());
    n.programOrder = programOrder;
    for (unsigned i = 0; i < spec.siteUnits(); ++i)
      n.words.push_back(spec.unitName(i) + ": " + unitText(v.images[i][c[i]]) +
                        (c[i] ? " (" + v.names[i][c[i]] + ")" : ""));
    index[c] = pic.nodes.size();
    pic.nodes.push_back(n);
    return pic.nodes.size() - 1;
  };
  Contents start(site.regionUnits(), 0);
  nodeFor(start, true);
  std::string pendingBarriers;
  std::set<std::tuple<size_t, size_t>> seenEdges;
  unsigned specStep = 0;  // the spec's step number: a range is one step
  // The bytes of one store (a RISC-V byte site's aligned word) land at
  // once: no contents between them.
  std::vector<unsigned> storeOf = storeOfWrites(spec, tl);
  std::map<unsigned, unsigned> writeAt;  // timeline step -> write
  for (unsigned i = 0; i < tl.writes.size(); ++i) writeAt[tl.writes[i].step] = i;
  std::optional<unsigned> storeBegan;
  for (unsigned p = 0; p < t->steps.size(); ++p) {
    const StepSpec& s = t->steps[p];
    if (!s.continuesRange()) ++specStep;
    if (s.kind != StepSpec::Kind::Write) {
      pendingBarriers += s.text + "; ";
      continue;
    }
    if (!storeBegan) storeBegan = p;
    auto here = writeAt.find(p), next = writeAt.find(p + 1);
    if (here != writeAt.end() && next != writeAt.end() && storeOf[next->second] == storeOf[here->second]) continue;
    unsigned from = *storeBegan;
    storeBegan.reset();
    Contents before(site.regionUnits()), after(site.regionUnits());
    for (unsigned i = 0; i < site.regionUnits(); ++i) before[i] = tl.versionAt(i, from), after[i] = tl.versionAt(i, p + 1);
    size_t a = *nodeFor(before, true), b = *nodeFor(after, true);
    std::string label = from == p ? writeLabel(s, spec) : t->steps[from].text;
    pic.edges.push_back({pic.nodes[a].id, pic.nodes[b].id,
                         pendingBarriers + "step " + std::to_string(specStep) + ": " + label, false});
    seenEdges.insert({a, b});
    pendingBarriers.clear();
  }
  if (!spec.model.fetch->inOrder() && !pic.boot) {
    // Within a barrier group, writes may become visible in any order; the
    // bytes of one store (a RISC-V byte site's aligned word) together.
    std::map<unsigned, std::vector<const Write*>> groups;
    for (const Write& w : tl.writes) groups[w.syncGroup].push_back(&w);
    auto indexOf = [&](const Write* w) { return unsigned(w - tl.writes.data()); };
    for (const auto& [g, ws] : groups) {
      if (ws.size() < 2) continue;
      Contents base(site.regionUnits());
      for (unsigned i = 0; i < site.regionUnits(); ++i) base[i] = tl.versionAt(i, ws.front()->step);
      std::vector<Contents> frontier = {base};
      std::set<Contents> done = {base};
      while (!frontier.empty()) {
        Contents c = frontier.back();
        frontier.pop_back();
        for (const Write* w : ws) {
          if (storeOf[indexOf(w)] != indexOf(w)) continue;  // moved with its store's first write
          bool next = true;  // per-unit order: the next version only
          Contents n = c;
          for (const Write* m : ws)
            if (storeOf[indexOf(m)] == indexOf(w)) {
              next = next && c[m->unit] + 1 == m->version;
              n[m->unit] = m->version;
            }
          if (!next) continue;
          std::optional<size_t> na = nodeFor(c, false), nb = nodeFor(n, false);
          if (!na || !nb) continue;
          size_t a = *na, b = *nb;
          if (!seenEdges.count({a, b})) {
            seenEdges.insert({a, b});
            pic.edges.push_back(
                {pic.nodes[a].id, pic.nodes[b].id, t->steps[w->step].ownText(spec) + " (visible early)", true});
          }
          if (done.insert(n).second) frontier.push_back(n);
        }
      }
    }
  }
  std::vector<Contents> byNode(pic.nodes.size());
  for (const auto& [c, i] : index) byNode[i] = c;
  // At boot nothing executes the site while it is written (as `check`
  // judges it): its nodes are drawn, not explored.
  if (!pic.boot) {
    Progress progress("graph " + name);
    progress.addWork(pic.nodes.size());
    for (size_t i = 0; i < pic.nodes.size(); ++i) {
      double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
      if (spent >= maxSeconds) {
        pic.unexplored = unsigned(pic.nodes.size() - i);
        break;
      }
      observe(pic.nodes[i], byNode[i], v, site, spec.model, allowed, breakpoints, starts, kprobes, life, opt,
              unsigned(std::max(1.0, maxSeconds - spent)));
      progress.advance(pic.nodes[i].id);
    }
  }
  // The failing execution as a timeline.
  if (r.verdict == Verdict::Unsafe && r.counterexample) {
    const Counterexample& cx = *r.counterexample;
    pic.brokenRule = cx.rule;
    for (const StepSpec& s : t->steps) pic.timeline.push_back({"writer", writeLabel(s, spec), 0, false});
    size_t k = 0;
    for (const TraceStep& st : cx.trace) {
      TimelineEvent e{"pass", st.text + "\\n" + st.origin + (st.note.empty() ? "" : "\\n" + st.note), 0, false};
      // The site's fetches, in schedule order. An x86 instruction is
      // fetched byte by byte: one schedule entry each; the edge starts
      // where the last byte was read.
      for (unsigned n = st.siteUnits; n && k < cx.schedule.size(); --n) {
        e.fetch = true;
        e.writesLanded = std::max(e.writesLanded, cx.schedule[k++].writesLanded);
      }
      pic.timeline.push_back(e);
    }
  }
  return pic;
}

namespace {

std::string join(const std::vector<std::string>& xs, const std::string& sep) {
  std::string s;
  for (const std::string& x : xs) s += (s.empty() ? "" : sep) + x;
  return s;
}

void set(void* obj, const char* k, const std::string& v) {
  agsafeset(obj, const_cast<char*>(k), const_cast<char*>(v.c_str()), const_cast<char*>(""));
}

std::string shorten(std::string s, size_t n) {
  if (s.size() > n) s = s.substr(0, n - 3) + "...";
  return s;
}

void stateGraph(Agraph_t* g, const TransitionPicture& pic) {
  std::map<std::string, Agnode_t*> nodes;
  for (const GraphNode& n : pic.nodes) {
    Agnode_t* a = agnode(g, const_cast<char*>(n.id.c_str()), 1);
    std::string label = join(n.words, "\\l") + "\\l";
    if (!n.outcomes.empty()) label += "passes: " + join(n.outcomes, " | ") + "\\l";
    if (n.unsafe) label += "UNSAFE: " + shorten(*n.unsafe, 60) + "\\l";
    if (n.undecided) label += "UNKNOWN: " + shorten(n.unknownReason, 60) + "\\l";
    if (!n.explored) label += pic.boot ? "boot: nothing runs it while written\\l" : "not explored (--max-seconds)\\l";
    set(a, "label", label);
    set(a, "shape", "box");
    set(a, "style", n.programOrder ? "rounded,filled" : "rounded,filled,dashed");
    set(a, "fillcolor", n.unsafe ? "#ffd6d6" : n.undecided ? "#fff3c4" : !n.explored ? "#eeeeee" : "#e6f4e6");
    set(a, "color", n.unsafe ? "red" : !n.explored ? "gray50" : "darkgreen");
    if (n.unsafe) set(a, "fontcolor", "red3");
    nodes[n.id] = a;
  }
  for (const GraphEdge& e : pic.edges) {
    Agedge_t* x = agedge(g, nodes[e.from], nodes[e.to], nullptr, 1);
    set(x, "label", e.label);
    if (e.reordered) set(x, "style", "dashed"), set(x, "color", "gray40"), set(x, "fontcolor", "gray40");
    else set(x, "penwidth", "2");
  }
  // The verdict is the check's; the nodes illustrate it.
  if (pic.brokenRule) set(g, "label", pic.title + "\\nUNSAFE: " + shorten(*pic.brokenRule, 90));
  else if (pic.verdict == Verdict::Unknown)
    set(g, "label", pic.title + "\\nUNKNOWN: " + shorten(pic.unknownReason, 90));
  else set(g, "label", pic.title + "\\nSAFE" + (pic.boot ? " (boot: only the final state matters)" : ""));
}

void timelineGraph(Agraph_t* g, const TransitionPicture& pic) {
  set(g, "label", pic.title + "\\nthe failing execution: " + shorten(pic.brokenRule.value_or(""), 90));
  set(g, "rankdir", "TB");
  Agraph_t* writer = agsubg(g, const_cast<char*>("cluster_writer"), 1);
  Agraph_t* pass = agsubg(g, const_cast<char*>("cluster_pass"), 1);
  set(writer, "label", "writer");
  set(pass, "label", "pass (another CPU)");
  std::vector<Agnode_t*> writes;  // writer node after the k-th write
  Agnode_t* prevW = agnode(writer, const_cast<char*>("w0"), 1);
  set(prevW, "label", "start");
  writes.push_back(prevW);
  Agnode_t* prevP = nullptr;
  unsigned wn = 1, pn = 0;
  for (const TimelineEvent& e : pic.timeline) {
    if (e.lane == "writer") {
      std::string id = "w" + std::to_string(wn++);
      Agnode_t* a = agnode(writer, const_cast<char*>(id.c_str()), 1);
      set(a, "label", e.label);
      set(a, "shape", "box");
      agedge(g, prevW, a, nullptr, 1);
      prevW = a;
      if (e.label.rfind("write", 0) == 0) writes.push_back(a);
      continue;
    }
    std::string id = "p" + std::to_string(pn++);
    Agnode_t* a = agnode(pass, const_cast<char*>(id.c_str()), 1);
    set(a, "label", e.label);
    set(a, "shape", "box");
    set(a, "style", "rounded");
    if (prevP) agedge(g, prevP, a, nullptr, 1);
    prevP = a;
    if (e.fetch && e.writesLanded < writes.size()) {
      Agedge_t* x = agedge(g, writes[e.writesLanded], a, nullptr, 1);
      set(x, "style", "dashed");
      set(x, "constraint", "false");
      set(x, "label", std::to_string(e.writesLanded) + " writes landed");
    }
  }
  if (prevP) {
    Agnode_t* bad = agnode(pass, const_cast<char*>("broken"), 1);
    set(bad, "label", "UNSAFE: " + shorten(pic.brokenRule.value_or(""), 70));
    set(bad, "color", "red");
    set(bad, "fontcolor", "red3");
    set(bad, "shape", "box");
    agedge(g, prevP, bad, nullptr, 1);
  }
}

}  // namespace

std::optional<std::string> renderGraph(const TransitionPicture& pic, bool counterexample, const std::string& format,
                                       std::string& out) {
  if (counterexample && !pic.brokenRule) return std::string("the transition is not UNSAFE: no counterexample to draw");
  std::unique_ptr<GVC_t, int (*)(GVC_t*)> gvc(gvContext(), gvFreeContext);
  Agraph_t* g = agopen(const_cast<char*>("transition"), Agdirected, nullptr);
  set(g, "rankdir", "LR");
  set(g, "fontname", "Helvetica");
  agattr(g, AGNODE, const_cast<char*>("fontname"), const_cast<char*>("Courier"));
  agattr(g, AGEDGE, const_cast<char*>("fontname"), const_cast<char*>("Helvetica"));
  agattr(g, AGEDGE, const_cast<char*>("fontsize"), const_cast<char*>("10"));
  if (counterexample) timelineGraph(g, pic);
  else stateGraph(g, pic);
  if (gvLayout(gvc.get(), g, "dot") != 0) {
    agclose(g);
    return std::string("graphviz could not lay the graph out");
  }
  char* data = nullptr;
  unsigned len = 0;
  int rc = gvRenderData(gvc.get(), g, format.c_str(), &data, &len);
  if (rc == 0 && data) out.assign(data, len);
  if (data) gvFreeRenderData(data);
  gvFreeLayout(gvc.get(), g);
  agclose(g);
  if (rc != 0) return std::string("graphviz has no renderer for '" + format + "'");
  return std::nullopt;
}

}  // namespace patchcheck
