#include "checker/report/BuildInfo.h"

#include <z3.h>

#include "BuildInfo.inc"
#include "encoder/IsaRegistry.h"

namespace patchcheck {

const BuildInfo& buildInfo() {
  static const BuildInfo info = [] {
    BuildInfo b;
    b.version = PATCHCHECK_VERSION;
    b.commit = PATCHCHECK_COMMIT;
    b.semantics = PATCHCHECK_SEMANTICS_SHA256;
    unsigned major = 0, minor = 0, build = 0, revision = 0;
    Z3_get_version(&major, &minor, &build, &revision);  // the library linked, not the header
    b.solver = "Z3 " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(build);
    for (const IsaPlugin* isa : isas()) {
      std::string l = isa->libraryVersions();
      if (!l.empty()) b.libraries += (b.libraries.empty() ? "" : ", ") + l;
    }
    return b;
  }();
  return info;
}

nlohmann::json buildIdentity() {
  const BuildInfo& b = buildInfo();
  return {{"version", b.version}, {"semantics_sha256", b.semantics}, {"solver", b.solver}, {"libraries", b.libraries}};
}

std::string versionText() {
  const BuildInfo& b = buildInfo();
  return "patchcheck " + b.version + "\ncommit " + b.commit + "\nsemantics sha256 " + b.semantics + "\n" + b.solver +
         (b.libraries.empty() ? "" : "\n" + b.libraries);
}

}  // namespace patchcheck
