#pragma once
// Reads a herd7 litmus file (docs/litmus.md, "Format") into a Test. The
// header's architecture word selects the ISA plug-in whose litmus dialect
// (encoder/Litmus.h) says how registers and bare instruction names are
// written; a plug-in without one refuses the test. The parser checks the
// syntax and that the names it can see agree: a register's thread and a
// label `P1:L0` exist in the thread table. It assembles nothing;
// instructions stay the text written.
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
