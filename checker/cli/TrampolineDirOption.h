#pragma once
// --trampolines DIR, as every subcommand that loads specs takes it: the
// directory [trampolines] paths are relative to, instead of the trampolines/
// of the spec's tree (checker/spec/SpecTree.h, docs/spec-format.md).
#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/spec/Spec.h"

namespace patchcheck {

struct TrampolineDirOption {
  std::string dir;
  // --trampoline-object [KEY=]OBJ:SYMBOL: prove the spec's trampoline KEY
  // (default SYMBOL) on the object's bytes, against the contract of its
  // [trampolines] file (docs/trampolines.md, "From a build").
  std::vector<std::string> objects;

  void addTo(CLI::App& app) {
    app.add_option("--trampolines", dir,
                   "directory of the trampoline files (default: trampolines/ in the spec's directory or above)");
    app.add_option("--trampoline-object", objects,
                   "[KEY=]OBJ:SYMBOL: prove the spec's trampoline KEY (default SYMBOL) on SYMBOL's bytes in the "
                   "object OBJ, against the contract of its [trampolines] file");
  }

  // A `<command line>:` message when DIR is given but is not a directory,
  // or an object is not written OBJ:SYMBOL.
  std::optional<std::string> problem() const {
    for (const std::string& o : objects)
      if (!parse(o)) return "--trampoline-object " + o + ": write [KEY=]OBJ:SYMBOL";
    std::error_code ec;
    if (dir.empty() || std::filesystem::is_directory(dir, ec)) return std::nullopt;
    return "--trampolines " + dir + ": not a directory";
  }

  void applyTo(Spec& spec) const {
    if (!dir.empty()) spec.trampolineDir = dir;
    for (const std::string& o : objects)
      if (auto p = parse(o)) spec.trampolineObjects[p->first] = p->second;
  }

 private:
  static std::optional<std::pair<std::string, Spec::TrampolineObject>> parse(const std::string& o) {
    size_t eq = o.find('=');
    std::string named = eq == std::string::npos ? o : o.substr(eq + 1);
    size_t colon = named.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == named.size() || eq == 0) return std::nullopt;
    std::string symbol = named.substr(colon + 1);
    std::string key = eq == std::string::npos ? symbol : o.substr(0, eq);
    return std::pair{key, Spec::TrampolineObject{named.substr(0, colon), symbol, named,
                                                 {"<command line>", 0, 0}}};
  }
};

}  // namespace patchcheck
