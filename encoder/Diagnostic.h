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
    std::string s = where.file;
    if (where.line) s += ":" + std::to_string(where.line);
    if (where.line && where.column) s += ":" + std::to_string(where.column);
    return s + ": error: " + message;
  }
};

using Diagnostics = std::vector<Diagnostic>;

}  // namespace patchcheck
