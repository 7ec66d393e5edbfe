#include "tests/oracle/support/PerIsa.h"

#include <cstdio>
#include <set>

#include "encoder/IsaRegistry.h"

namespace patchcheck::oracle {

int runPerIsa(const char* tool, const std::map<std::string, IsaPart, std::less<>>& parts, int argc, char** argv) {
  std::set<std::string, std::less<>> done;
  unsigned failed = 0;
  for (const IsaPlugin* isa : isas()) {
    std::string family(isa->family());
    if (!done.insert(family).second) continue;
    std::printf("== %s\n", family.c_str());
    std::fflush(stdout);
    auto part = parts.find(family);
    if (part == parts.end()) {
      std::printf("FAIL plug-in '%s' has no part tests/oracle/%s/%s.cpp\n", family.c_str(), tool, family.c_str());
      ++failed;
    } else if (part->second(argc, argv) != 0) {
      ++failed;
    }
    std::fflush(stdout);
  }
  std::printf("== %zu plug-ins, %u failed\n", done.size(), failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace patchcheck::oracle
