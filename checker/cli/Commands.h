#pragma once
// Each subcommand registers itself on the app; its callback stores the
// process exit code (0 ok, 1 unsafe, 2 bad input, 3 unknown).
#include <CLI/CLI.hpp>

namespace patchcheck {

void addAsmCommand(CLI::App&, int& exitCode);
void addDisasmCommand(CLI::App&, int& exitCode);
void addRunCommand(CLI::App&, int& exitCode);
void addCheckCommand(CLI::App&, int& exitCode);
void addSynthCommand(CLI::App&, int& exitCode);
void addTableCommand(CLI::App&, int& exitCode);
void addVerifyTableCommand(CLI::App&, int& exitCode);
void addGateCommand(CLI::App&, int& exitCode);
void addGraphCommand(CLI::App&, int& exitCode);
void addLitmusCommand(CLI::App&, int& exitCode);
void addScanCommand(CLI::App&, int& exitCode);

}  // namespace patchcheck
