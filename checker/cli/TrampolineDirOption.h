#pragma once
// --trampolines DIR, as every subcommand that loads specs takes it: the
// directory [trampolines] paths are relative to, instead of the trampolines/
// of the spec's tree (checker/spec/SpecTree.h, docs/spec-format.md).
#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>

#include "checker/spec/Spec.h"

namespace patchcheck {

struct TrampolineDirOption {
  std::string dir;

  void addTo(CLI::App& app) {
    app.add_option("--trampolines", dir,
                   "directory of the trampoline files (default: trampolines/ in the spec's directory or above)");
  }

  // A `<command line>:` message when DIR is given but is not a directory.
  std::optional<std::string> problem() const {
    std::error_code ec;
    if (dir.empty() || std::filesystem::is_directory(dir, ec)) return std::nullopt;
    return "--trampolines " + dir + ": not a directory";
  }

  void applyTo(Spec& spec) const {
    if (!dir.empty()) spec.trampolineDir = dir;
  }
};

}  // namespace patchcheck
