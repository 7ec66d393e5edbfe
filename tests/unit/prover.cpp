// The Prover answers a question it was asked before without the solver
// while the answer still holds: Sat until a fact is added, Unsat until the
// scope whose facts made it so is popped. Each case would read a stale
// answer if it were kept longer.
#include <catch2/catch.hpp>

#include "checker/explore/Prover.h"

using namespace patchcheck;

namespace {

struct Fixture {
  z3::context c;
  Prover p{c, 10000};
  z3::expr x = c.bv_const("x", 32);
  z3::expr k(unsigned v) { return c.bv_val(v, 32); }
};

}  // namespace

TEST_CASE("Prover: an answer is reused only while it holds", "[prover]") {
  Fixture f;
  auto& p = f.p;

  SECTION("Unsat in a scope with a fact of its own is forgotten when the scope goes") {
    p.push();
    p.assume(f.x == f.k(1));
    CHECK(p.check(f.x == f.k(2)) == Answer::Unsat);
    p.pop();
    CHECK(p.check(f.x == f.k(2)) == Answer::Sat);
  }
  SECTION("Unsat from the base facts holds in every scope above and after it") {
    p.assume(f.x == f.k(1));
    p.push();
    CHECK(p.check(f.x == f.k(2)) == Answer::Unsat);
    p.pop();
    CHECK(p.check(f.x == f.k(2)) == Answer::Unsat);
    p.push();
    p.assume(z3::ult(f.x, f.k(5)));
    CHECK(p.check(f.x == f.k(2)) == Answer::Unsat);
    p.pop();
  }
  SECTION("Sat is forgotten once a fact rules it out") {
    CHECK(p.check(f.x == f.k(2)) == Answer::Sat);
    p.assume(f.x == f.k(1));
    CHECK(p.check(f.x == f.k(2)) == Answer::Unsat);
  }
  SECTION("Sat from inside a scope holds after it, with its model") {
    p.push();
    p.assume(z3::ult(f.x, f.k(10)));
    CHECK(p.check(f.x == f.k(7)) == Answer::Sat);
    p.pop();
    CHECK(p.check(f.x == f.k(7)) == Answer::Sat);
    CHECK(p.model().eval(f.x, true).get_numeral_uint() == 7);
  }
  SECTION("A question made after an earlier one was freed is not taken for it") {
    // Z3 gives a freed term's id to the next term it makes.
    p.assume(f.x == f.k(3));
    for (unsigned i = 0; i < 40; ++i) {
      INFO("x == " << i);
      CHECK(p.check(f.x == f.k(i)) == (i == 3 ? Answer::Sat : Answer::Unsat));
      CHECK(p.checkOnce(f.x + f.k(1) == f.k(i)) == (i == 4 ? Answer::Sat : Answer::Unsat));
    }
  }
  SECTION("A Scope's facts go with it") {
    {
      Scope s(p);
      p.assume(f.x == f.k(1));
      CHECK(p.check(f.x == f.k(2)) == Answer::Unsat);
    }
    CHECK(p.check(f.x == f.k(2)) == Answer::Sat);
    CHECK(p.assumesExactly({}));
  }
  SECTION("Facts assumed as base facts count once, and exactly") {
    p.assumeBase(f.x == f.k(3));
    p.assumeBase(f.x == f.k(3));
    CHECK(p.assumesExactly({f.x == f.k(3)}));
    CHECK(p.check(f.x == f.k(3)) == Answer::Sat);
    p.push();
    CHECK_FALSE(p.assumesExactly({f.x == f.k(3)}));
    CHECK_THROWS(p.assumeBase(z3::ult(f.x, f.k(9))));
    p.pop();
    p.assume(z3::ult(f.x, f.k(9)));
    CHECK_FALSE(p.assumesExactly({f.x == f.k(3)}));
  }
}
