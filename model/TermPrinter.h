#pragma once
// Z3 terms as people read them: infix operators, hex numerals, x[hi:lo]
// slices, sext/zext, `a - 0x8` for adding a negative constant. Used by
// `patchcheck run` and for counterexample reports.
#include <z3++.h>

#include <string>

namespace patchcheck {

std::string printTerm(const z3::expr&);

}  // namespace patchcheck
