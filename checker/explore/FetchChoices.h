#pragma once
// How a pass explores the versions a fetch may see (docs/model.md,
// "Symbolic fetch choices"). Explicit: each distinct image is its own
// execution, so k words that may each be old or new make 2^k paths.
// Symbolic: the executions of one fetch that step to the same place are
// merged into one whose state holds each image's result under a choice
// term, so a path is a control-flow path. Auto: explicit while that is
// cheap, symbolic once an exploration takes more than
// kExplicitExecutions executions (measured: `patchcheck_bench scaling`),
// and explicit again, to the end, when the symbolic one takes more than
// kSymbolicExecutions (a pass that jumps through a register merged from
// several images may reach every site word in every mix: then merging
// only makes each question bigger).
namespace patchcheck {

enum class FetchChoices { Auto, Explicit, Symbolic };

inline constexpr unsigned kExplicitExecutions = 512;
inline constexpr unsigned kSymbolicExecutions = 4096;

}  // namespace patchcheck
