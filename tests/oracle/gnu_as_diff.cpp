// oracle.gnu_as_diff: GNU as (and objdump) compared with our assembler, decoder
// and printer, for every ISA plug-in the registry holds
// (encoder/IsaRegistry.h), one after the other. Each plug-in's part is
// tests/oracle/gnu_as_diff/<family>.cpp; a registered plug-in without one fails
// the test, so a new ISA cannot go unchecked. A missing tool fails, naming its
// Debian package (tests/oracle/support/Tools.h). The arguments go to every
// part.
#include "tests/oracle/support/PerIsa.h"

namespace patchcheck::oracle::gnu_as_diff {
int mipsPart(int argc, char** argv);
int arm64Part(int argc, char** argv);
int x86_64Part(int argc, char** argv);
int riscvPart(int argc, char** argv);
}  // namespace patchcheck::oracle::gnu_as_diff

int main(int argc, char** argv) {
  using namespace patchcheck::oracle::gnu_as_diff;
  return patchcheck::oracle::runPerIsa(
      "gnu_as_diff", {{"mips", mipsPart}, {"arm64", arm64Part}, {"x86_64", x86_64Part}, {"riscv", riscvPart}}, argc, argv);
}
