// `patchcheck litmus FILE...`: herd7's instruction-fetch litmus tests, of
// an architecture whose plug-in has a litmus dialect (encoder/Litmus.h),
// answered by the same semantics and fetch model as `check`
// (docs/litmus.md). A test using what the model does not cover is refused
// (exit 2) naming the feature; never a guess.
#include <iostream>

#include "checker/cli/Commands.h"
#include "checker/litmus/LitmusParser.h"
#include "checker/litmus/LitmusRun.h"
#include "checker/report/LitmusReport.h"
#include "checker/spec/FetchRegistry.h"
#include "checker/spec/Suggest.h"

namespace patchcheck {

void addLitmusCommand(CLI::App& app, int& exitCode) {
  struct Args {
    std::vector<std::string> files;
    bool json = false;
    unsigned maxStates = litmus::Limits{}.maxStates;
    std::string fetch;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("litmus", "Answer herd7 instruction-fetch litmus tests");
  cmd->add_option("files", args->files, "litmus test files")->required();
  cmd->add_flag("--json", args->json, "one JSON object per test, as an array");
  cmd->add_option("--max-states", args->maxStates, "give up on a test past this many states (exit 2)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--fetch", args->fetch,
                  "the fetch model to run the tests under, one their ISA allows; default: the one the "
                  "architecture's plug-in names for its litmus tests");
  cmd->callback([args, &exitCode] {
    const FetchRules* fetch = nullptr;
    if (!args->fetch.empty() && !(fetch = fetchModelNamed(args->fetch))) {
      std::vector<std::string> names;
      for (const FetchRules* m : fetchModelsListed()) names.emplace_back(m->name());
      std::cerr << "error: unknown fetch model '" << args->fetch << "'" << suggest(args->fetch, names) << "\n";
      exitCode = 2;
      return;
    }
    nlohmann::json all = nlohmann::json::array();
    int code = 0;
    // One context and one session for the run: creating and deleting a
    // context per test was 40% of the time over herd7's catalogue, and the
    // catalogue's copies of a test under each cache type run the same
    // steps. Tests share no solver, so no answer depends on those before.
    z3::context ctx;
    litmus::LitmusSession session(ctx);
    for (const std::string& f : args->files) {
      auto parsed = litmus::loadLitmus(f);
      std::variant<litmus::LitmusResult, Diagnostics> r = Diagnostics{};
      if (auto* d = std::get_if<Diagnostics>(&parsed)) {
        r = *d;
      } else {
        litmus::Limits limits;
        limits.maxStates = args->maxStates;
        r = litmus::runLitmus(std::get<litmus::Test>(parsed), session, limits, fetch);
      }
      if (auto* d = std::get_if<Diagnostics>(&r)) {
        for (const Diagnostic& e : *d) std::cerr << e.str() << "\n";
        code = 2;
        continue;
      }
      const auto& result = std::get<litmus::LitmusResult>(r);
      if (args->json) all.push_back(litmusJson(result));
      else std::cout << litmusText(result) << (args->files.size() > 1 ? "\n" : "");
    }
    if (args->json) std::cout << all.dump(2) << "\n";
    exitCode = code;
  });
}

}  // namespace patchcheck
