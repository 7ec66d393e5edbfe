#pragma once
// `patchcheck scan`'s output (docs/scan.md): objtool's form, one line per
// finding ("file.o: warning: patchcheck: func+0x1c: ..."), a summary, or
// one JSON document.
#include <nlohmann/json.hpp>

#include <ostream>
#include <vector>

#include "checker/explore/Scan.h"

namespace patchcheck {

void printScanText(std::ostream&, const std::vector<ObjectScan>&);
nlohmann::json scanJson(const std::vector<ObjectScan>&);

}  // namespace patchcheck
