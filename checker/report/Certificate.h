#pragma once
// What a patch table's certificate vouches for: digests of every input the
// words were derived from (spec text, trampoline sources, the instruction
// table), the tool version and the model options the proof assumed.
#include <nlohmann/json.hpp>

#include <string>

#include "checker/spec/Spec.h"

namespace patchcheck {

// One line per instruction-table row, in table order: every column that
// decides an encoding or a decode, of each ISA the spec targets (its
// default target, then its matrix). Its digest changes whenever one of
// those tables does.
std::string instructionTableText(const Spec&);

// The digests and options; the verification summary is added by the table.
nlohmann::json certificateInputs(const Spec&, unsigned timeoutMs);

}  // namespace patchcheck
