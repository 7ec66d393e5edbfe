#pragma once
// The C header of a patch table, in kernel style: `static const u32` arrays
// of each state's words and of each transition's steps per ISA/endian/ABI,
// and for a word that depends on an address an inline function that ORs the
// relocated field into the fixed bits the instruction table gives. Every
// array is marked unused (__maybe_unused in the kernel), so a file that
// includes the header and uses none of them compiles cleanly with -Wall -Wextra.
// A byte site (x86) is rendered as checker/report/ByteSiteHeader.h says.
#include <nlohmann/json.hpp>

#include <string>

namespace patchcheck {

// Rendered from the table's JSON (checker/report/PatchTable.h) alone.
std::string cHeader(const nlohmann::json& table, const std::string& jsonFileName);

}  // namespace patchcheck
