// `patchcheck graph`: a transition's intermediate states and outcomes, or
// its failing execution, drawn with Graphviz's library (SVG, PNG or DOT).
#include <filesystem>
#include <iostream>

#include "checker/cli/Commands.h"
#include "checker/cli/LimitOptions.h"
#include "checker/cli/TargetOptions.h"
#include "checker/cli/TrampolineDirOption.h"
#include "checker/explore/TrampolineProof.h"
#include "checker/report/AtomicFile.h"
#include "checker/report/TransitionGraph.h"

namespace patchcheck {
namespace {

// What the picture holds, in `check`'s terms: the intermediate states
// `check` counts are the contents along the writer's order (solid nodes);
// the dashed ones are mixes a fetch may see when writes of one barrier
// group land in another order.
std::string graphSummary(const TransitionPicture& p) {
  unsigned ordered = 0, unsafe = 0, unknown = 0;
  for (const GraphNode& n : p.nodes) {
    ordered += n.programOrder;
    unsafe += n.unsafe.has_value();
    unknown += n.undecided;
  }
  std::string s = std::to_string(p.intermediateStates) + " intermediate states";
  if (ordered != p.intermediateStates) s += " (" + std::to_string(ordered) + " drawn)";
  size_t mixes = p.nodes.size() - ordered;
  if (mixes || p.mixesCut)
    s += " and " + std::to_string(mixes) + (p.mixesCut ? "+" : "") + (mixes == 1 ? " mix" : " mixes") + " a fetch may see (dashed" +
         (p.mixesCut ? ", the first " + std::to_string(kMaxGraphNodes) + " contents drawn" : "") + ")";
  s += ", " + std::to_string(p.edges.size()) + " edges; ";
  if (p.boot) return s + "boot: nothing runs the site while it is written, so no contents explored";
  s += "passes in each: " + std::to_string(unsafe) + " break a rule";
  if (unknown) s += ", " + std::to_string(unknown) + " UNKNOWN";
  if (p.unexplored) s += ", " + std::to_string(p.unexplored) + " not explored (--max-seconds ran out)";
  return s;
}

struct GraphArgs {
  std::string spec, transition, output;
  bool counterexample = false;
  unsigned maxSeconds = 600;
  Limits limits;
  TargetOptions target;
  TrampolineDirOption trampolines;
};

int runGraph(const GraphArgs& a) {
  std::string ext = std::filesystem::path(a.output).extension().string();
  if (ext != ".svg" && ext != ".png" && ext != ".dot") {
    std::cerr << "<command line>: error: -o wants a .svg, .png or .dot file, got '" << a.output << "'\n";
    return 2;
  }
  if (auto p = a.trampolines.problem()) {
    std::cerr << "<command line>: error: " << *p << "\n";
    return 2;
  }
  auto loaded = loadSpec(a.spec);
  if (auto* e = std::get_if<Diagnostics>(&loaded)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  Spec& spec = std::get<Spec>(loaded);
  a.trampolines.applyTo(spec);
  auto chosen = a.target.forSpec(spec, spec.target);
  if (auto* e = std::get_if<Diagnostics>(&chosen)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  Target t = std::get<Target>(chosen);
  z3::context ctx;  // one per run
  CheckOptions opt;
  opt.limits = a.limits;
  auto contracts = trampolineContracts(spec, t, ctx, opt.limits);
  if (auto* e = std::get_if<Diagnostics>(&contracts)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  opt.contracts = std::get<std::map<std::string, TrampolineContract>>(contracts);
  auto site = SiteInstance::make(spec, t, ctx, opt.limits.timeoutMs);
  if (auto* e = std::get_if<Diagnostics>(&site)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  auto pic = transitionPicture(std::get<SiteInstance>(site), a.transition, opt, a.maxSeconds);
  if (auto* e = std::get_if<Diagnostics>(&pic)) {
    for (const auto& d : *e) std::cerr << d.str() << "\n";
    return 2;
  }
  const TransitionPicture& p = std::get<TransitionPicture>(pic);
  std::string bytes;
  if (auto err = renderGraph(p, a.counterexample, ext.substr(1), bytes)) {
    // --counterexample of a transition that has none is a usage error.
    std::cerr << (a.counterexample ? "<command line>: error: " : "graph: error: ") << *err << "\n";
    return 2;
  }
  if (auto err = writeFileAtomically(a.output, bytes)) {
    std::cerr << "graph: error: " << *err << "\n";
    return 2;
  }
  std::cout << "wrote " << a.output << ": " << a.transition << " " << name(p.verdict) << ", "
            << graphSummary(p) << "\n";
  return 0;
}

}  // namespace

void addGraphCommand(CLI::App& app, int& exitCode) {
  auto args = std::make_shared<GraphArgs>();
  CLI::App* cmd = app.add_subcommand("graph", "Draw a transition's intermediate states and outcomes (Graphviz)");
  cmd->add_option("spec", args->spec, "spec file (TOML)")->required();
  cmd->add_option("--transition", args->transition, "FROM->TO")->required();
  cmd->add_option("-o,--output", args->output, "FILE.svg, FILE.png or FILE.dot")->required();
  cmd->add_flag("--counterexample", args->counterexample, "draw the failing execution as a timeline");
  cmd->add_option("--max-seconds", args->maxSeconds,
                  "time for the passes run in the drawn contents; contents past it are drawn as not explored "
                  "(the transition's own check keeps its budget)")
      ->capture_default_str();
  addLimitOptions(*cmd, args->limits);
  args->target.addTo(*cmd);
  args->trampolines.addTo(*cmd);
  cmd->callback([args, &exitCode] { exitCode = runGraph(*args); });
}

}  // namespace patchcheck
