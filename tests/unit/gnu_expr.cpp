// The GNU-as expression parser the plug-ins share (encoder/gnu/Expr.h):
// precedence, the operators' edge cases, names by origin, numeric local
// labels, and both forms of relocation operator a plug-in may supply.
#include <catch2/catch.hpp>

#include "encoder/gnu/Expr.h"

using namespace patchcheck;
using namespace patchcheck::gnu;

namespace {

// lab: a label at 0x100 (x86-style origin), num: a number, sym: a symbolic
// address, ext: a symbol outside the program at 0x1000; 1b at 0x80, 1f at 0x200.
struct Names final : NameResolver {
  std::optional<Expr> symbol(std::string_view n) const override {
    if (n == "lab") return Expr{Value::constant(0x100), Origin::Label};
    if (n == "lab2") return Expr{Value::constant(0x140), Origin::Label};
    if (n == "num") return Expr::number(0x100);
    if (n == "sym") return Expr{Value{"sym", 0}};
    if (n == "ext") return Expr{Value::constant(0x1000), Origin::Symbol};
    return std::nullopt;
  }
  std::optional<Expr> local(unsigned label, bool forward) const override {
    if (label != 1) return std::nullopt;
    return Expr::number(forward ? 0x200 : 0x80);
  }
  Expr dot() const override { return {Value::constant(0x120), Origin::Label}; }
};

// %lo(x) anywhere, as MIPS writes it.
struct Call final : RelocationSyntax {
  Form form() const override { return Form::Call; }
  char lead() const override { return '%'; }
  std::optional<Match> match(std::string_view t) const override {
    if (t.starts_with("%lo")) return Match{1, 3};
    return std::nullopt;
  }
  uint64_t apply(uint8_t, uint64_t v) const override { return v & 0xffff; }
  std::string_view name(uint8_t) const override { return "%lo"; }
};

// :lo12:x before the whole expression, as arm64 writes it.
struct Prefix final : RelocationSyntax {
  Form form() const override { return Form::Prefix; }
  char lead() const override { return ':'; }
  std::optional<Match> match(std::string_view t) const override {
    if (t.starts_with(":lo12:")) return Match{1, 6};
    return std::nullopt;
  }
  uint64_t apply(uint8_t, uint64_t v) const override { return v & 0xfff; }
  std::string_view name(uint8_t) const override { return ":lo12:"; }
};

const Call kCall;
const Prefix kPrefix;

Expr ok(std::string_view text, const Dialect& d = {}) {
  auto r = parseExpr(text, Names{}, d);
  if (auto* e = std::get_if<ExprError>(&r)) FAIL(std::string(text) + ": " + e->message);
  return std::get<Expr>(r);
}
int64_t value(std::string_view text, const Dialect& d = {}) {
  Expr e = ok(text, d);
  REQUIRE(e.isConstant());
  return e.value.addend;
}
// "offset: message"
std::string error(std::string_view text, const Dialect& d = {}) {
  auto r = parseExpr(text, Names{}, d);
  if (auto* e = std::get_if<ExprError>(&r)) return std::to_string(e->offset) + ": " + e->message;
  return "";
}

}  // namespace

TEST_CASE("gnu expressions: GNU as's precedence and operators", "[gnu_expr]") {
  CHECK(value("1+2*3") == 7);
  CHECK(value("1|2+4") == 7);   // | binds tighter than +
  CHECK(value("6&3^1") == 3);   // one level, left to right
  CHECK(value("5!2") == -3);    // or-not: 5 | ~2
  CHECK(value("-16>>2") == -4);  // arithmetic
  CHECK(value("1<<64") == 0);
  CHECK(value("-17/5") == -3);
  CHECK(value("-17%5") == -2);
  CHECK(value("0x10+0b11+010+- -1") == 0x10 + 3 + 8 + 1);
  CHECK(error("1/0") == "2: division by zero");
  CHECK(error("1%0") == "2: division by zero");
  CHECK(error("((1)") == "4: missing ')'");
  CHECK(error("1 2") == "2: unexpected '2' in expression");
  CHECK(error("08") == "0: bad number '08'");
  CHECK(error("99999999999999999999") == "0: number '99999999999999999999' does not fit 64 bits");
  CHECK(error("1+") == "2: missing operand");
}

TEST_CASE("gnu expressions: the one quotient that overflows does not trap", "[gnu_expr]") {
  // INT64_MIN / -1 and % -1 raise SIGFPE on the host when computed in C.
  CHECK(uint64_t(value("(-0x7fffffffffffffff-1)/-1")) == 0x8000000000000000ull);
  CHECK(value("(-0x7fffffffffffffff-1)%-1") == 0);
  CHECK(uint64_t(value("-(-0x7fffffffffffffff-1)")) == 0x8000000000000000ull);
}

TEST_CASE("gnu expressions: names by origin", "[gnu_expr]") {
  CHECK(value("num*2") == 0x200);  // a plug-in that folds labels to numbers
  CHECK(ok("lab+4").origin == Origin::Label);
  CHECK(ok("4+lab").value.addend == 0x104);
  Expr d = ok("lab2-lab");
  CHECK((d.origin == Origin::Number && d.value.addend == 0x40));
  CHECK(ok(".-lab").value.addend == 0x20);
  CHECK(error("lab*2") == "0: operator '*' needs numbers, not an address");
  CHECK(error("lab+lab2") == "4: cannot add two addresses");
  CHECK(error("lab-ext") == "4: cannot subtract an address outside the program");
  CHECK(error("ext-ext") == "4: cannot subtract an address outside the program");
  Expr s = ok("sym+8-2");
  CHECK((s.value.symbol == "sym" && s.value.addend == 6));
  CHECK(value("sym+8-sym") == 8);
  CHECK(error("sym+sym") == "4: cannot add two symbolic addresses");
  CHECK(error("num-sym") == "4: cannot subtract symbolic 'sym'");
  CHECK(error("~sym") == "0: operator '~' needs constants, but 'sym' has no concrete address");
  CHECK(error("x+1") == "0: undefined symbol 'x'");
}

TEST_CASE("gnu expressions: numeric local labels", "[gnu_expr]") {
  CHECK(value("1f-1b") == 0x180);
  CHECK(error("2f") == "0: no local label 2 ahead");
  CHECK(error("2b") == "0: no local label 2 behind");
  CHECK(error("4294967297b") == "0: local label number '4294967297' is too large");
  CHECK(value("0b101") == 5);  // binary, not a label
  CHECK(localLabelNumber("4294967295") == 4294967295u);
  CHECK(!localLabelNumber("4294967296"));
}

TEST_CASE("gnu expressions: a plug-in's relocation operators", "[gnu_expr]") {
  Dialect call{true, &kCall}, prefix{true, &kPrefix}, att{false, nullptr};
  Expr lo = ok("%lo(0x12345678)", call);
  CHECK((lo.reloc == 1 && lo.value.addend == 0x12345678));  // applied by the plug-in
  CHECK(value("%lo(0x12345678)+1", call) == 0x5679);          // folded in arithmetic
  CHECK(ok("(%lo(sym+4))", call).reloc == 1);
  CHECK(error("%lo(sym)+1", call) == "0: %lo of symbolic 'sym' must be a whole operand");
  CHECK(error("%hi(1)", call) == "0: unknown relocation operator in '%hi(1)'");
  CHECK(error("%lo 1", call) == "4: expected '(' after %lo");
  CHECK(error("%lo(1", call) == "5: missing ')' after %lo(...");
  CHECK(value("7%4", call) == 3);  // still the remainder between operands

  Expr p = ok(":lo12:sym+4", prefix);
  CHECK((p.reloc == 1 && p.value.symbol == "sym" && p.value.addend == 4));
  CHECK(error(":hi:1", prefix) == "0: unknown relocation operator in ':hi:1'");
  CHECK(error("1+:lo12:1", prefix) == "2: unexpected ':' in expression");
  CHECK(error("%lo(1)") == "0: unexpected '%' in expression");  // no operators given

  CHECK(error("7%4", att) == "1: unexpected '%' in expression");  // AT&T: % starts a register
}
