#pragma once
// The driver of an oracle test that runs once per ISA plug-in: each family
// the registry holds (encoder/IsaRegistry.h) runs its part, in registry
// order; a registered family without a part fails, so a new ISA cannot go
// unchecked. Returns the test's exit status.
#include <functional>
#include <map>
#include <string>

namespace patchcheck::oracle {

using IsaPart = int (*)(int argc, char** argv);

// `tool` names the test's folder of parts (tests/oracle/<tool>/<family>.cpp).
int runPerIsa(const char* tool, const std::map<std::string, IsaPart, std::less<>>& parts, int argc, char** argv);

}  // namespace patchcheck::oracle
