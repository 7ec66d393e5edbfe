// Readable terms for `patchcheck run` and reports.
#include <catch2/catch.hpp>

#include "model/TermPrinter.h"

using patchcheck::printTerm;

TEST_CASE("terms print as infix with hex numerals", "[model_printer]") {
  z3::context c;
  z3::expr sp = c.bv_const("in.sp", 64), a0 = c.bv_const("in.a0", 64);
  CHECK(printTerm((sp + c.bv_val(uint64_t(0xfffffffffffffff8ull), 64)).simplify()) == "in.sp - 0x8");
  CHECK(printTerm((a0 - sp).simplify()) == "in.a0 - in.sp");
  CHECK(printTerm(c.bv_val(255, 32)) == "0xff");
  CHECK(printTerm(!(a0 == 0)) == "in.a0 != 0x0");
  CHECK(printTerm(a0.extract(31, 0)) == "in.a0[31:0]");
  // Z3 spells sign extension as copies of the sign bit; it prints as sext.
  z3::expr low = a0.extract(31, 0) + c.bv_val(1, 32);
  CHECK(printTerm(z3::sext(low, 32).simplify()) == "sext64(in.a0[31:0] + 0x1)");
}
