#pragma once
// Errors are values: every bad input carries the place it came from.
#include <string>
#include <vector>

namespace patchcheck {

struct SourceLocation {
  std::string file = "<input>";
  unsigned line = 0;    // 1-based; 0 = unknown
  unsigned column = 0;  // 1-based; 0 = unknown
};

struct Diagnostic {
  SourceLocation where;
  std::string message;

  // "file:line:column: error: message", the form editors and CI understand.
  std::string str() const {
    // appended piece by piece, not ":" + ...: GCC 12's -Wrestrict misfires
    // on that where this is inlined (bug 105329)
    std::string s = where.file;
    if (where.line) s.append(":").append(std::to_string(where.line));
    if (where.line && where.column) s.append(":").append(std::to_string(where.column));
    return s.append(": error: ").append(message);
  }
};

using Diagnostics = std::vector<Diagnostic>;

}  // namespace patchcheck
