#pragma once
// The C header part of a byte site's patch table (x86): each state as a
// `static const u8` array of its bytes with its instructions' offsets and
// lengths; a state whose bytes depend on addresses (call rel32) as an
// inline function that writes them from the addresses, or refuses when the
// field cannot reach, instead of an array with made-up bytes; each
// transition as rows { op | first byte, count, byte }. Rendered from the
// table's JSON (checker/report/ByteSiteTable.h).
#include <nlohmann/json.hpp>

#include <string>

namespace patchcheck {

// The step codes of byte-site transitions, under their own guard.
std::string byteSiteStepCodes();

// One target's declarations; `tp` prefixes every name.
std::string byteSiteDeclarations(const nlohmann::json& target, const std::string& tp, unsigned siteBytes);

}  // namespace patchcheck
