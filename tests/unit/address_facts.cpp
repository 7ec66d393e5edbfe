// AddressFacts' rewrites, one case per row: the facts, the terms, and which
// of them must be rewritten. Whatever the row expects, every rewrite is
// checked against its term under the facts: a rewrite the facts do not
// make equal to its term is a wrong proof (the solver gives the model).
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "checker/explore/AddressFacts.h"

using namespace patchcheck;

namespace {

// The symbols a row builds its facts and terms from, at one address width.
struct Symbols {
  z3::context& c;
  unsigned w;
  z3::expr P = c.bv_const("P", w);  // a pointer (the ops literal, a struct)
  z3::expr S = c.bv_const("S", w);  // the stack pointer a frame is stored below
  z3::expr T = c.bv_const("T", w);  // a branch offset
  z3::expr F = c.bv_const("F", w);  // the function
  z3::expr M0 = c.constant("M0", c.array_sort(c.bv_sort(w), c.bv_sort(8)));
  z3::expr k(int64_t v) const { return c.bv_val(uint64_t(v), w); }
  // M0 with the 16 bytes S - 16 .. S - 1 stored (a frame), lowest first.
  z3::expr frame() const {
    z3::expr m = M0;
    for (int i = 16; i >= 1; --i) m = z3::store(m, (S - k(i)).simplify(), c.bv_val(0xa0 + i, 8));
    return m;
  }
  // The bytes of the word at P + at, each loaded past the frame.
  std::vector<z3::expr> wordPastFrame(int64_t at) const {
    std::vector<z3::expr> out;
    for (int64_t b = 0; b < 8; ++b) out.push_back(z3::select(frame(), (P + k(at + b)).simplify()));
    return out;
  }
};

struct Row {
  std::string what;
  unsigned width;
  std::function<std::vector<z3::expr>(const Symbols&)> facts;
  std::function<std::vector<z3::expr>(const Symbols&)> terms;
  std::vector<bool> rewritten;  // per term: must it change?
  // Facts AddressFacts is told of (ApartRanges), held by the solver too.
  std::function<std::vector<ApartRanges>(const Symbols&)> known = [](const Symbols&) {
    return std::vector<ApartRanges>{};
  };
};

// S at least 64 KiB above 0 and below the top, P not at the very top: as
// the entry facts and a placement keep them.
std::vector<z3::expr> stackAndPointer(const Symbols& s) {
  return {z3::uge(s.S, s.k(0x10000)), z3::ule(s.S, s.k(int64_t(0xffffffff00000000))),
          z3::ule(s.P, s.k(int64_t(0xfffffffffffff000)))};
}

// lui's %hi(X) << 16 plus the sign-extended %lo(X), on `w` bits (64: lui's
// result sign-extended first, as MIPS64 computes it for daddiu).
z3::expr hiLo(const z3::expr& x, unsigned w) {
  z3::context& c = x.ctx();
  z3::expr hi = z3::concat((x + c.bv_val(0x8000, x.get_sort().bv_size())).extract(31, 16), c.bv_val(0, 16));
  if (w == 64) hi = z3::sext(hi, 32);
  return hi + z3::sext(x.extract(15, 0), w - 16);
}

const std::vector<Row> kRows = {
    {"a word at P past a frame, P itself outside the frame: P + 1 .. P + 7 may lie in it", 64,
     [](const Symbols& s) { return std::vector{z3::ugt(s.P - (s.S - s.k(16)), s.k(15))}; },
     [](const Symbols& s) { return s.wordPastFrame(0); },
     {true, false, false, false, false, false, false, false}},
    {"the same on a 32-bit address space", 32,
     [](const Symbols& s) { return std::vector{z3::ugt(s.P - (s.S - s.k(16)), s.k(15))}; },
     [](const Symbols& s) { return s.wordPastFrame(0); },
     {true, false, false, false, false, false, false, false}},
    {"a word at P - 8 past a frame, only its last byte kept out of it", 64,
     [](const Symbols& s) { return std::vector{z3::ugt(s.P - s.k(1) - (s.S - s.k(16)), s.k(15))}; },
     [](const Symbols& s) { return s.wordPastFrame(-8); },
     {false, false, false, false, false, false, false, true}},
    {"a word at P past a frame, the whole word below it", 64,
     [](const Symbols& s) {
       return std::vector{z3::ule(s.P + s.k(8), s.S - s.k(16)), z3::ult(s.P, s.P + s.k(8)),
                          z3::uge(s.S, s.k(0x10000))};
     },
     [](const Symbols& s) { return s.wordPastFrame(0); },
     {true, true, true, true, true, true, true, true}},
    {"a word at P past a frame, the whole word above the entry sp", 32,
     [](const Symbols& s) { return std::vector{z3::uge(s.P, s.S), z3::ule(s.S, s.k(0x7fff0000)), z3::ule(s.P, s.k(0x7fff0000))}; },
     [](const Symbols& s) { return s.wordPastFrame(0); },
     {true, true, true, true, true, true, true, true}},
    {"a word at P past a frame, P unconstrained", 64, [](const Symbols&) { return std::vector<z3::expr>{}; },
     [](const Symbols& s) { return s.wordPastFrame(0); },
     {false, false, false, false, false, false, false, false}},
    {"a frame byte past the frame's other stores: the same base, told apart by its offset", 64,
     [](const Symbols&) { return std::vector<z3::expr>{}; },
     [](const Symbols& s) { return std::vector{z3::select(s.frame(), (s.S - s.k(24)).simplify())}; }, {true}},
    {"T's low 28 bits sign-extended (as written, and as the simplifier writes it), T within reach", 64,
     [](const Symbols& s) { return std::vector{z3::ult(s.T + s.k(1 << 27), s.k(int64_t(1) << 28))}; },
     [](const Symbols& s) {
       return std::vector{z3::sext(s.T.extract(27, 0), 36), z3::sext(s.T.extract(27, 0), 36).simplify()};
     },
     {true, true}},
    {"T's low 28 bits sign-extended, T one byte out of reach", 64,
     [](const Symbols& s) { return std::vector{z3::ult(s.T + s.k(1 << 27), s.k((int64_t(1) << 28) + 1))}; },
     [](const Symbols& s) {
       return std::vector{z3::sext(s.T.extract(27, 0), 36), z3::sext(s.T.extract(27, 0), 36).simplify()};
     },
     {false, false}},
    {"an address rounded down to 8 bytes, its base aligned", 64,
     [](const Symbols& s) { return std::vector{(s.F & s.k(7)) == s.k(0)}; },
     [](const Symbols& s) {
       z3::expr a = s.F + s.k(12);
       return std::vector{z3::concat(a.extract(63, 3), s.c.bv_val(0, 3))};
     },
     {true}},
    {"an address rounded down to 8 bytes, its base 4-aligned only", 64,
     [](const Symbols& s) { return std::vector{(s.F & s.k(3)) == s.k(0)}; },
     [](const Symbols& s) {
       z3::expr a = s.F + s.k(12);
       return std::vector{z3::concat(a.extract(63, 3), s.c.bv_val(0, 3))};
     },
     {false}},
    {"%hi/%lo on 32 bits: an identity, as written and as the simplifier writes it", 32,
     [](const Symbols&) { return std::vector<z3::expr>{}; },
     [](const Symbols& s) { return std::vector{hiLo(s.P, 32), hiLo(s.P, 32).simplify(), (hiLo(s.P, 32) + s.S).simplify()}; },
     {true, true, true}},
    {"%hi/%lo on 32 bits from a 64-bit symbol (its low word)", 64, [](const Symbols&) { return std::vector<z3::expr>{}; },
     [](const Symbols& s) { return std::vector{hiLo(s.P, 64).extract(31, 0).simplify()}; }, {true}},
    {"%hi of one symbol, %lo of another: no identity", 32, [](const Symbols&) { return std::vector<z3::expr>{}; },
     [](const Symbols& s) {
       z3::expr hi = z3::concat((s.P + s.k(0x8000)).extract(31, 16), s.c.bv_val(0, 16));
       return std::vector{(hi + z3::sext(s.S.extract(15, 0), 16)).simplify()};
     },
     {false}},
    {"%hi/%lo on 64 bits (lui, daddiu), the symbol in the kernel's 32-bit segment", 64,
     [](const Symbols& s) { return std::vector{z3::uge(s.P, s.k(int64_t(0xffffffff80000000)))}; },
     [](const Symbols& s) { return std::vector{hiLo(s.P, 64).simplify()}; }, {true}},
    {"%hi/%lo on 64 bits, the low word possibly 0x7fff8000..0x7fffffff (the sum overflows)", 64,
     [](const Symbols&) { return std::vector<z3::expr>{}; },
     [](const Symbols& s) { return std::vector{hiLo(s.P, 64).simplify()}; }, {false}},
};

// Rows with a fact AddressFacts is told of (ApartRanges): the slowest to
// check (the solver's proof that a rewrite equals its term meets the
// fact's comparisons in carry chains), so two tables of their own, each
// its own CTest entry. The whole word known apart:
const std::vector<Row> kApartRows = {
    {"a word at P past a frame, P's 8 bytes known apart from the 64 KiB below S", 64,
     stackAndPointer,
     [](const Symbols& s) { return s.wordPastFrame(0); }, {true, true, true, true, true, true, true, true},
     [](const Symbols& s) { return std::vector<ApartRanges>{{s.P, 8, s.S - s.k(0x10000), 0x10000}}; }},
    {"the same fact, the frame's 64 KiB free to wrap around zero: not relied on", 64,
     [](const Symbols& s) { return std::vector{z3::ule(s.P, s.k(int64_t(0xfffffffffffff000)))}; },
     [](const Symbols& s) { return s.wordPastFrame(0); }, {false, false, false, false, false, false, false, false},
     [](const Symbols& s) { return std::vector<ApartRanges>{{s.P, 8, s.S - s.k(0x10000), 0x10000}}; }},
    {"the same fact, a frame 16 bytes too low for it (stores below S - 64 KiB)", 64,
     [](const Symbols& s) {
       return std::vector{z3::uge(s.S, s.k(0x20000)), z3::ule(s.S, s.k(int64_t(0xffffffff00000000))),
                          z3::ule(s.P, s.k(int64_t(0xfffffffffffff000)))};
     },
     [](const Symbols& s) {
       std::vector<z3::expr> out;
       z3::expr m = s.M0;
       for (int i = 16; i >= 1; --i) m = z3::store(m, (s.S - s.k(0x10000 + i)).simplify(), s.c.bv_val(i, 8));
       for (int64_t b = 0; b < 8; ++b) out.push_back(z3::select(m, (s.P + s.k(b)).simplify()));
       return out;
     },
     {false, false, false, false, false, false, false, false},
     [](const Symbols& s) { return std::vector<ApartRanges>{{s.P, 8, s.S - s.k(0x10000), 0x10000}}; }},
};

// Part of the word known apart: only those bytes are rewritten.
const std::vector<Row> kPartlyApartRows = {
    {"P's first 4 bytes known apart from the frame: the others may lie in it", 64,
     stackAndPointer,
     [](const Symbols& s) { return s.wordPastFrame(0); }, {true, true, true, true, false, false, false, false},
     [](const Symbols& s) { return std::vector<ApartRanges>{{s.P, 4, s.S - s.k(16), 16}}; }},
    {"P's 8 bytes known apart from the frame but its lowest byte: the last may lie on it", 64,
     stackAndPointer,
     [](const Symbols& s) { return s.wordPastFrame(0); }, {true, true, true, true, true, true, true, false},
     [](const Symbols& s) { return std::vector<ApartRanges>{{s.P, 8, s.S - s.k(15), 15}}; }},
};

// Every row of `rows`: its facts hold together, each term is rewritten or
// not as the row says, and each rewrite equals its term under the facts.
void checkRows(const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.what) {
      z3::context c;
      Symbols s{c, row.width};
      std::vector<z3::expr> facts = row.facts(s);
      std::vector<ApartRanges> known = row.known(s);
      for (const ApartRanges& k : known) facts.push_back(k.fact());
      z3::solver solver(c);
      for (const z3::expr& f : facts) solver.add(f);
      REQUIRE(solver.check() == z3::sat);  // a row whose facts contradict proves nothing
      AddressFacts addresses([&](const std::vector<z3::expr>& path, const z3::expr& cond) {
        z3::solver q(c);
        for (const z3::expr& f : facts) q.add(f);
        for (const z3::expr& p : path) q.add(p);
        q.add(cond);
        z3::check_result r = q.check();
        return r == z3::sat ? Answer::Sat : r == z3::unsat ? Answer::Unsat : Answer::Unknown;
      }, known);
      std::vector<z3::expr> terms = row.terms(s);
      REQUIRE(terms.size() == row.rewritten.size());
      for (size_t i = 0; i < terms.size(); ++i) {
        INFO("term " << i << ": " << terms[i]);
        z3::expr out = addresses.rewrite(terms[i]);
        INFO("rewritten: " << out);
        // A fresh solver per term: Z3's one-shot QF_AUFBV tactic proves
        // these equalities in half the time of the incremental core.
        z3::solver differ(c, "QF_AUFBV");
        for (const z3::expr& f : facts) differ.add(f);
        differ.add(out != terms[i]);
        z3::check_result r = differ.check();
        INFO("a model where they differ: " << (r == z3::sat ? differ.get_model().to_string() : ""));
        CHECK(r == z3::unsat);
        CHECK(!z3::eq(out, terms[i]) == row.rewritten[i]);
      }
    }
  }
}
}  // namespace

// One CTest entry per table (tests/CMakeLists.txt), so that none runs long.
TEST_CASE("AddressFacts rewrites only what the facts prove", "[address_facts]") { checkRows(kRows); }

TEST_CASE("AddressFacts relies on a range fact it is told of, and only where it holds", "[address_facts_apart]") {
  checkRows(kApartRows);
}

TEST_CASE("AddressFacts rewrites only the bytes a range fact keeps apart", "[address_facts_partly_apart]") {
  checkRows(kPartlyApartRows);
}
