// patchcheck: proves live code-patching sequences safe, or shows why not.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <utility>

#include "checker/cli/Commands.h"
#include "checker/report/BuildInfo.h"
#include "checker/report/Report.h"
#include "model/IsaModel.h"

int main(int argc, char** argv) {
  CLI::App app{"patchcheck: proofs and counterexamples for live code patching (MIPS, AArch64, x86-64)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", patchcheck::versionText());
  int exitCode = 0;
  // Colour only for a person at a terminal: never in pipes, files or CI
  // logs, and not when NO_COLOR is set (no-color.org) or TERM is dumb.
  const char* term = std::getenv("TERM");
  const char* noColour = std::getenv("NO_COLOR");
  patchcheck::setColour(isatty(STDOUT_FILENO) && !(noColour && *noColour) && !(term && !std::strcmp(term, "dumb")));
  patchcheck::addAsmCommand(app, exitCode);
  patchcheck::addDisasmCommand(app, exitCode);
  patchcheck::addRunCommand(app, exitCode);
  patchcheck::addCheckCommand(app, exitCode);
  patchcheck::addSynthCommand(app, exitCode);
  patchcheck::addTableCommand(app, exitCode);
  patchcheck::addVerifyTableCommand(app, exitCode);
  patchcheck::addGateCommand(app, exitCode);
  patchcheck::addGraphCommand(app, exitCode);
  patchcheck::addLitmusCommand(app, exitCode);
  patchcheck::addScanCommand(app, exitCode);
  // Every bad command line is bad input: one `<command line>:` message, exit 2.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "<command line>: error: " + std::string(e.what()) + "\nRun with --help for more information.\n";
  });
  if (argc > 1 && argv[1][0] != '-') {
    std::string word = argv[1], known;
    bool found = false;
    for (const CLI::App* c : std::as_const(app).get_subcommands([](const CLI::App*) { return true; })) {
      known += (known.empty() ? "" : ", ") + c->get_name();
      found = found || c->check_name(word);
    }
    if (!found) {
      std::cerr << "<command line>: error: unknown command '" << word << "' (commands: " << known << ")\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;  // every bad command line is bad input
  } catch (const patchcheck::NoModel& e) {  // an ISA with an encoder but no semantics yet
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  return exitCode;
}
