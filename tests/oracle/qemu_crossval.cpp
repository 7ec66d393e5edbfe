// oracle.qemu_crossval: our concrete runs compared with QEMU user mode, for
// every ISA plug-in the registry holds (encoder/IsaRegistry.h), one after the
// other. Each plug-in's part is tests/oracle/qemu_crossval/<family>.cpp; a
// registered plug-in without one fails the test, so a new ISA cannot go
// unchecked. A missing tool fails, naming its Debian package
// (tests/oracle/support/Tools.h). The arguments go to every part.
#include "tests/oracle/support/PerIsa.h"

namespace patchcheck::oracle::qemu_crossval {
int mipsPart(int argc, char** argv);
int arm64Part(int argc, char** argv);
int x86_64Part(int argc, char** argv);
int riscvPart(int argc, char** argv);
}  // namespace patchcheck::oracle::qemu_crossval

int main(int argc, char** argv) {
  using namespace patchcheck::oracle::qemu_crossval;
  return patchcheck::oracle::runPerIsa("qemu_crossval", {{"mips", mipsPart}, {"arm64", arm64Part}, {"x86_64", x86_64Part}, {"riscv", riscvPart}},
                                       argc, argv);
}
