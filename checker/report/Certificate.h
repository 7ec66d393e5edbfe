#pragma once
// What a patch table's certificate vouches for: digests of every input the
// words were derived from (spec text, trampoline sources, the instruction
// table), the tool version and the model options the proof assumed.
#include <nlohmann/json.hpp>

#include <string>

#include "checker/spec/Spec.h"

namespace patchcheck {

// One line per instruction-table row, in table order: every column that
// decides an encoding or a decode. Its digest changes whenever the table does.
std::string instructionTableText();

// The digests and options; the verification summary is added by the table.
nlohmann::json certificateInputs(const Spec&, unsigned timeoutMs);

}  // namespace patchcheck
