#pragma once
// Memory terms the simplifier cannot shorten but the solver can, once:
//
// - an address rounded down, (X & ~(2^n - 1)) as Z3 writes it,
//   concat(extract(w-1, n)(B + k), 0), is B + (k & ~(2^n - 1)) when B's
//   low n bits are provably zero (arm64's `bic x11, x30, #7` on F + 8 with
//   F 8-byte aligned: F + 8);
// - a sign-extended low part, sext(extract(m, 0)(X)), is X when X fits
//   (x86's rip-relative addresses: the rel32 field of T - end);
// - MIPS's %hi(X) << 16 plus sign-extended %lo(X) is X's low 32 bits,
//   an identity (no fact asked) the simplifier does not know;
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
#include <optional>
#include <vector>

#include "model/Executor.h"
#include "model/MachineState.h"

namespace patchcheck {

// Two address ranges a fact keeps apart: [a, a + n) and [b, b + m). The
// fact is fact(); whoever assumes it may tell AddressFacts, which then
// answers a load inside one range past stores inside the other without
// the solver (one such question costs it tens of milliseconds: the fact's
// comparisons and the question's differences meet only in carry chains).
struct ApartRanges {
  z3::expr a;
  uint64_t n;
  z3::expr b;
  uint64_t m;
  // a + n <= b or a >= b + m: apart when neither range wraps around,
  // which AddressFacts proves before it relies on the fact.
  z3::expr fact() const;
};

class AddressFacts {
 public:
  // `known`: facts `decide` holds without a path (it is told nothing new).
  explicit AddressFacts(Decide decide, std::vector<ApartRanges> known = {})
      : decide_(std::move(decide)), known_(std::move(known)), unwrapped_(known_.size()) {
    for (ApartRanges& k : known_) {  // as the simplifier writes addresses: base + k
      k.a = k.a.simplify();
      k.b = k.b.simplify();
    }
  }

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
  std::vector<ApartRanges> known_;
  std::vector<std::optional<bool>> unwrapped_;  // per known fact: neither range wraps (proven)

  bool knownApart(const z3::expr& base, int64_t lo, int64_t hi, const Ranges&);
  bool inRange(const z3::expr& base, int64_t lo, int64_t hi, const z3::expr& start, uint64_t size) const;

  bool proven(const z3::expr& fact);
  std::optional<z3::expr> alignedDown(const z3::expr& concat);
  std::optional<z3::expr> signExtended(const z3::expr& e);
  std::optional<z3::expr> hiLo(const z3::expr& sum);
  std::optional<z3::expr> loadPastStores(const z3::expr& select);
  bool apart(const z3::expr& index, const std::vector<z3::expr>& others);
  bool blockApart(const z3::expr& base, uint64_t start, const Ranges&);
  bool provenApart(const z3::expr& index, const std::vector<z3::expr>& others);
};

}  // namespace patchcheck
