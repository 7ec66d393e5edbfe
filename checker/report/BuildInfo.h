#pragma once
// Which build of the checker this is: what `--version` prints and what a
// certificate names, so a table proven by another build is proven again
// (gate --baseline) rather than trusted.
#include <nlohmann/json.hpp>

#include <string>

namespace patchcheck {

struct BuildInfo {
  std::string version;    // "0.1.0"
  std::string commit;     // git commit of the source tree, "-dirty", or "unknown"
  std::string semantics;  // SHA-256 of every source file that decides a verdict
  std::string solver;     // "Z3 4.8.12"
  std::string libraries;  // the ISA plug-ins' libraries: "Zydis 4.0.0"
};

const BuildInfo& buildInfo();

// What decides verdicts: every field but the commit (a build of another
// commit with the same sources, solver and libraries proves the same).
nlohmann::json buildIdentity();

// `patchcheck --version`: one line per field.
std::string versionText();

}  // namespace patchcheck
