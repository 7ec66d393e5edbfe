// oracle.qemu_crossval: our concrete runs compared with QEMU user mode, for
// every ISA plug-in the registry holds (encoder/IsaRegistry.h), one after the
// other. Each plug-in's part is tests/oracle/qemu_crossval/<family>.cpp; a
// registered plug-in without one fails the test, so a new ISA cannot go
// unchecked. A missing tool fails, naming its Debian package
// (tests/oracle/support/Tools.h). The arguments go to every part.
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "encoder/IsaRegistry.h"

namespace patchcheck::oracle::qemu_crossval {
int mipsPart(int argc, char** argv);
int arm64Part(int argc, char** argv);
int x86_64Part(int argc, char** argv);
}  // namespace patchcheck::oracle::qemu_crossval

int main(int argc, char** argv) {
  using namespace patchcheck::oracle::qemu_crossval;
  using Part = int (*)(int, char**);
  const std::map<std::string, Part, std::less<>> parts{
      {"mips", mipsPart}, {"arm64", arm64Part}, {"x86_64", x86_64Part}};
  std::set<std::string, std::less<>> done;
  unsigned failed = 0;
  for (const patchcheck::IsaPlugin* isa : patchcheck::isas()) {
    std::string family(isa->family());
    if (!done.insert(family).second) continue;
    std::printf("== %s\n", family.c_str());
    std::fflush(stdout);
    auto part = parts.find(family);
    if (part == parts.end()) {
      std::printf("FAIL plug-in '%s' has no part tests/oracle/qemu_crossval/%s.cpp\n", family.c_str(), family.c_str());
      ++failed;
    } else if (part->second(argc, argv) != 0) {
      ++failed;
    }
    std::fflush(stdout);
  }
  std::printf("== %zu plug-ins, %u failed\n", done.size(), failed);
  return failed == 0 ? 0 : 1;
}
