#pragma once
// A solver's answer to "is this possible?". Unknown is never read as Unsat.

namespace patchcheck {

enum class Answer { Sat, Unsat, Unknown };

}  // namespace patchcheck
