#pragma once
// Memory terms the simplifier cannot shorten but the solver can, once:
//
// - an address rounded down, (X & ~(2^n - 1)) as Z3 writes it,
//   concat(extract(w-1, n)(B + k), 0), is B + (k & ~(2^n - 1)) when B's
//   low n bits are provably zero (arm64's `bic x11, x30, #7` on F + 8 with
//   F 8-byte aligned: F + 8);
// - a sign-extended low part, sext(extract(m, 0)(X)), is X when X fits
//   (x86's rip-relative addresses: the rel32 field of T - end);
// - a byte loaded past stores whose addresses provably differ from the
//   load's is the byte below them: select(store(M, i, v), j) = select(M, j)
//   when i != j. Stores at the same base plus another offset differ
//   syntactically; the others are asked of the solver together, one
//   question per load (the stack frame's stores against a load of kernel
//   data apart from the stack).
//
// "Provably" means under the facts `decide` knows without a path, so each
// rewrite holds on every path: a term and its rewrite are equal in every
// model, and nothing checked is weakened. A question the solver cannot
// answer leaves the term as it was.
#include <z3++.h>

#include <map>
#include <vector>

#include "model/Executor.h"
#include "model/MachineState.h"

namespace patchcheck {

class AddressFacts {
 public:
  explicit AddressFacts(Decide decide) : decide_(std::move(decide)) {}

  // The term with the rules applied wherever they hold.
  z3::expr rewrite(const z3::expr&);
  // Every register of the state (memory is left alone: its stores are
  // what the rules read).
  void simplify(MachineState&);

 private:
  Decide decide_;
  std::map<unsigned, std::pair<z3::expr, z3::expr>> done_;  // ast id -> (term, rewritten)
  // Stores at other bases, as one range per base: id -> (base, [lo, hi]).
  using Ranges = std::map<unsigned, std::pair<z3::expr, std::pair<int64_t, int64_t>>>;
  // Eight bytes at base + start against such ranges (bases by ast id):
  // proven apart or not, asked once.
  struct Range {
    unsigned base;
    int64_t lo, hi;
    auto operator<=>(const Range&) const = default;
  };
  struct Block {
    unsigned base;
    uint64_t start;
    std::vector<Range> ranges;
    auto operator<=>(const Block&) const = default;
  };
  std::map<Block, bool> blocks_;

  bool proven(const z3::expr& fact);
  std::optional<z3::expr> alignedDown(const z3::expr& concat);
  std::optional<z3::expr> signExtended(const z3::expr& e);
  std::optional<z3::expr> loadPastStores(const z3::expr& select);
  bool apart(const z3::expr& index, const std::vector<z3::expr>& others);
  bool blockApart(const z3::expr& base, uint64_t start, const Ranges&);
  bool provenApart(const z3::expr& index, const std::vector<z3::expr>& others);
};

}  // namespace patchcheck
