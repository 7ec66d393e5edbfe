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

struct GraphArgs {
  std::string spec, transition, output;
  bool counterexample = false;
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
  auto pic = transitionPicture(std::get<SiteInstance>(site), a.transition, opt);
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
  unsigned unsafe = 0;
  for (const GraphNode& n : p.nodes) unsafe += n.unsafe.has_value();
  std::cout << "wrote " << a.output << ": " << p.nodes.size() << " intermediate states (" << unsafe << " unsafe), "
            << p.edges.size() << " edges; transition " << (p.brokenRule ? "UNSAFE" : "not refuted") << "\n";
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
  addLimitOptions(*cmd, args->limits);
  args->target.addTo(*cmd);
  args->trampolines.addTo(*cmd);
  cmd->callback([args, &exitCode] { exitCode = runGraph(*args); });
}

}  // namespace patchcheck
