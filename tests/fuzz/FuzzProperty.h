#pragma once
// What the fuzz targets check besides "no crash". A broken property prints
// what broke and traps, so libFuzzer keeps the input as a finding.
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

#include "encoder/Diagnostic.h"

namespace patchcheck::fuzz {

inline void require(bool holds, const char* property, const std::string& detail = "") {
  if (holds) return;
  std::fprintf(stderr, "fuzz property violated: %s\n  %s\n", property, detail.c_str());
  __builtin_trap();
}

inline unsigned lineCount(std::string_view text) {
  return unsigned(std::count(text.begin(), text.end(), '\n')) + 1;
}

// A rejection says what and where: at least one diagnostic, each naming
// the input file and a line of it.
inline void requireLocated(const Diagnostics& ds, const std::string& file, std::string_view text) {
  require(!ds.empty(), "a rejection carries a diagnostic");
  unsigned lines = lineCount(text);
  for (const Diagnostic& d : ds) {
    require(!d.message.empty(), "a diagnostic has a message", d.str());
    require(d.where.file == file, "a diagnostic names the input file", d.str());
    require(d.where.line >= 1 && d.where.line <= lines, "a diagnostic points at a line of the input",
            d.str() + " (input has " + std::to_string(lines) + " lines)");
  }
}

}  // namespace patchcheck::fuzz
