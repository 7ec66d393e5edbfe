#pragma once
// The C header of a patch table, in kernel style: `static const u32` arrays
// of each state's words and of each transition's steps per ISA/endian/ABI;
// for a word that depends on an address an inline function that ORs the
// relocated field into the fixed bits the instruction table gives, and a
// state with such a word has no array but `<state>_words()` (and its
// initializer macro) taking the addresses, as x86 byte sites do. Every
// array is marked unused (__maybe_unused in the kernel), so a file that
// includes the header and uses none of them compiles cleanly with -Wall -Wextra.
// A byte site (x86) is rendered as checker/report/ByteSiteHeader.h says.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace patchcheck {

// Rendered from the table's JSON (checker/report/PatchTable.h) alone.
std::string cHeader(const nlohmann::json& table, const std::string& jsonFileName);

// The addresses a unit's encoder takes (none for a concrete unit), and a
// state's: each symbol once, in the order its units first name it.
std::vector<std::string> unitParameters(const nlohmann::json& unit);
std::vector<std::string> stateParameters(const nlohmann::json& state);

}  // namespace patchcheck
