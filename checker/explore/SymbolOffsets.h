#pragma once
// An address computed from placement symbols alone is, on every placement,
// one of them plus a constant: `lui at, %hi(T)` with T 64 KiB aligned is T,
// a %hi/%lo pair is T, a branch field read back is T - 4. Z3 proves each
// such identity in one question, but the explorer would otherwise ask
// "is the pc T? U? inside the site?" at every location of every path, each
// a question about sign extensions of 64-bit sums (4 ms apiece on MIPS).
// So each distinct term is rewritten once: the candidate S + k is read off
// one model of the placement (k = term - S there) and kept only if the
// solver proves term == S + k under the placement facts alone. A question
// it cannot answer rewrites nothing.
#include <z3++.h>

#include <map>
#include <optional>
#include <vector>

#include "checker/explore/Prover.h"

namespace patchcheck {

class SymbolOffsets {
 public:
  SymbolOffsets(Prover& prover, std::vector<z3::expr> symbols) : prover_(prover), symbols_(std::move(symbols)) {}

  // S + k when proven, else the term as it was.
  z3::expr rewrite(const z3::expr& address);

 private:
  Prover& prover_;
  std::vector<z3::expr> symbols_;
  std::optional<z3::model> placement_;  // one model of the base facts
  bool unplaced_ = false;               // the base facts had no model to read
  std::map<unsigned, z3::expr> done_;   // ast id -> rewritten

  // The symbols the term uses, or nothing when it uses anything else.
  std::optional<std::vector<z3::expr>> symbolsIn(const z3::expr&) const;
};

}  // namespace patchcheck
