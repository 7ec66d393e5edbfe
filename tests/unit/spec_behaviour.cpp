// The behaviour language: alternatives, conditions, canonical text, errors
// with their column.
#include <catch2/catch.hpp>

#include "checker/spec/Spec.h"

using namespace patchcheck;

namespace {

BehaviourSpec parsed(const std::string& text) {
  auto r = parseBehaviour(text);
  if (auto* e = std::get_if<std::string>(&r)) FAIL(*e);
  return std::get<BehaviourSpec>(std::move(r));
}

std::string error(const std::string& text) {
  auto r = parseBehaviour(text);
  REQUIRE(std::holds_alternative<std::string>(r));
  return std::get<std::string>(r);
}

}  // namespace

TEST_CASE("behaviours parse into alternatives", "[spec_behaviour]") {
  BehaviourSpec b = parsed("call ftrace_regs_caller with t0 == 0 | untraced");
  REQUIRE(b.alternatives.size() == 2);
  CHECK(b.alternatives[0].kind == OutcomeSpec::Kind::Call);
  CHECK(b.alternatives[0].target == "ftrace_regs_caller");
  REQUIRE(b.alternatives[0].with.size() == 1);
  CHECK(b.alternatives[0].with[0].reg == "t0");
  CHECK(b.alternatives[0].with[0].value == 0);
  CHECK(b.alternatives[1].kind == OutcomeSpec::Kind::Untraced);
  CHECK(b.text == "call ftrace_regs_caller with t0 == 0 | untraced");

  BehaviourSpec g = parsed("enter G");
  REQUIRE(g.alternatives.size() == 1);
  CHECK(g.alternatives[0].kind == OutcomeSpec::Kind::Enter);
  CHECK(g.alternatives[0].target == "G");
}

TEST_CASE("canonical text", "[spec_behaviour]") {
  CHECK(parsed("  call  T with t0==0&&$9 == 0x10|untraced ").str() ==
        "call T with t0 == 0 && $9 == 16 | untraced");
  CHECK(parsed("call T with at == 0xFFFFFFFF80001000").str() ==
        "call T with at == 0xffffffff80001000");
  CHECK(parsed("call T with a0 == 18446744073709551615").alternatives[0].with[0].value == ~0ull);
  CHECK(parsed("untraced|enter G_2.x").str() == "untraced | enter G_2.x");
}

TEST_CASE("positions of symbols and registers", "[spec_behaviour]") {
  auto at = [](size_t offset) { return SourceLocation{"s.toml", 7, unsigned(10 + offset)}; };
  auto r = parseBehaviour("call T with t0 == 1", at);
  REQUIRE(std::holds_alternative<BehaviourSpec>(r));
  const OutcomeSpec& o = std::get<BehaviourSpec>(r).alternatives[0];
  CHECK(o.where.column == 15);          // T at offset 5
  CHECK(o.with[0].where.column == 22);  // t0 at offset 12
  CHECK(o.with[0].where.line == 7);
}

TEST_CASE("malformed behaviours", "[spec_behaviour]") {
  CHECK(error("") == "column 1: empty behaviour: expected untraced, call SYM or enter SYM");
  CHECK(error("traced") == "column 1: expected untraced, call SYM or enter SYM, got 'traced'");
  CHECK(error("call") == "column 5: 'call' needs a symbol name, got the end");
  CHECK(error("call with t0 == 0") == "column 6: 'call' needs a symbol name, got 'with'");
  CHECK(error("enter G with t0 == 1") == "column 9: 'enter' takes no 'with' condition (only 'call' does)");
  CHECK(error("call T with") == "column 12: expected a condition REG == VALUE, got the end");
  CHECK(error("call T with t0 = 1") == "column 16: expected '==' after 't0', got '='");
  CHECK(error("call T with t0 == x") ==
        "column 19: expected a 64-bit decimal or 0x hex value after '==', got 'x'");
  CHECK(error("call T with t0 == 0x10000000000000000").find("64-bit") != std::string::npos);
  CHECK(error("call T with t0 == -1").find("column 19") == 0);
  CHECK(error("untraced untraced") == "column 10: expected '|' or the end of the behaviour, got 'untraced'");
  CHECK(error("call T |") == "column 9: expected untraced, call SYM or enter SYM, got the end");
  CHECK(error("call T with t0 == 1 && ") == "column 24: expected a condition REG == VALUE, got the end");
}

TEST_CASE("call T + k names an entry at an offset", "[spec_behaviour]") {
  BehaviourSpec b = parsed("call ftrace_caller + 8 with t0 == 1");
  REQUIRE(b.alternatives.size() == 1);
  CHECK(b.alternatives[0].target == "ftrace_caller");
  CHECK(b.alternatives[0].offset == 8);
  CHECK(b.alternatives[0].entry() == "ftrace_caller+8");
  CHECK(b.str() == "call ftrace_caller + 8 with t0 == 1");
  CHECK(parsed("call T+0x10").alternatives[0].offset == 16);
  CHECK(parsed("call T").alternatives[0].entry() == "T");
  CHECK(error("call T + 6") == "column 10: expected a word-aligned entry offset below 0x10000 after '+', got '6'");
  CHECK(error("call T +") == "column 9: expected a word-aligned entry offset below 0x10000 after '+', got the end");
  CHECK(error("enter G + 8") == "column 9: 'enter' takes the symbol itself (only 'call' names an entry at an offset)");
}
