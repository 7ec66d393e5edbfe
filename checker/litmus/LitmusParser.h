#pragma once
// Reads a herd7 AArch64 litmus file (docs/litmus.md, "Format") into a Test.
// The parser checks the syntax and that the names it can see agree: a
// register's thread and a label `P1:L0` exist in the thread table. It
// assembles nothing; instructions stay the text written.
#include <string>
#include <string_view>
#include <variant>

#include "checker/litmus/LitmusTest.h"
#include "encoder/Diagnostic.h"

namespace patchcheck::litmus {

// Every problem found, each at file:line:column; `file` names the text in them.
std::variant<Test, Diagnostics> parseLitmus(std::string_view text, const std::string& file);
std::variant<Test, Diagnostics> loadLitmus(const std::string& path);

}  // namespace patchcheck::litmus
