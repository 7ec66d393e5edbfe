// The GNU-as source layer the plug-ins share (encoder/gnu/Source.h,
// Labels.h, Directives.h): statements and their columns, both comment
// styles, labels, operand splitting, numeric local labels as a statement
// sees them, directive widths.
#include <catch2/catch.hpp>

#include <vector>

#include "encoder/gnu/Directives.h"
#include "encoder/gnu/Labels.h"
#include "encoder/gnu/Source.h"

using namespace patchcheck;
using namespace patchcheck::gnu;

namespace {

struct Seen {
  unsigned line;
  std::string text;
  unsigned column;
};

std::vector<Seen> statements(std::string_view source, Comments c) {
  std::vector<Seen> out;
  forEachStatement(source, c, [&](unsigned line, Piece p) { out.push_back({line, std::string(p.text), p.column}); });
  return out;
}

}  // namespace

TEST_CASE("gnu source: statements, comments and columns", "[gnu_source]") {
  auto s = statements("nop ; b 1f # jump\n  1: nop", Comments::Hash);
  REQUIRE(s.size() == 3);
  CHECK((s[0].line == 1 && s[0].text == "nop " && s[0].column == 1));
  CHECK((s[1].line == 1 && s[1].text == " b 1f " && s[1].column == 6));
  CHECK((s[2].line == 2 && s[2].text == "  1: nop" && s[2].column == 1));
  // arm64: `//` anywhere, `#` only first on a line (elsewhere an immediate).
  auto a = statements("add x0, x1, #1 // c\n # whole line", Comments::SlashHash);
  REQUIRE(a.size() == 2);
  CHECK(a[0].text == "add x0, x1, #1 ");
  CHECK(a[1].text.empty());
}

TEST_CASE("gnu source: labels off a statement's front", "[gnu_source]") {
  Piece p{"  a: 1:\tb: nop $4", 1};
  std::vector<std::pair<std::string, unsigned>> labels;
  takeLabels(p, true, [&](Label l) { labels.emplace_back(std::string(l.name), l.column); });
  REQUIRE(labels.size() == 3);
  CHECK((labels[0] == std::pair<std::string, unsigned>{"a", 3}));
  CHECK((labels[1] == std::pair<std::string, unsigned>{"1", 6}));
  CHECK((labels[2] == std::pair<std::string, unsigned>{"b", 9}));
  CHECK((p.text == "nop $4" && p.column == 12));
  Head h = headOf(p);
  CHECK((h.word == "nop" && h.rest.text == " $4" && h.rest.column == 15));
  // MIPS: `$` starts a register, never a label.
  Piece m{"$x: nop", 1};
  takeLabels(m, false, [&](Label) { FAIL("no label"); });
  CHECK(m.text == "$x: nop");
}

TEST_CASE("gnu source: operands split at top-level commas", "[gnu_source]") {
  auto ops = splitOperands<std::vector<Piece>>({" 8(%rax,%rbx,2),  %ecx", 5});
  REQUIRE(ops.size() == 2);
  CHECK((ops[0].text == "8(%rax,%rbx,2)" && ops[0].column == 6));
  CHECK((ops[1].text == "%ecx" && ops[1].column == 23));
  CHECK(splitOperands<std::vector<Piece>>({"[x1, #8], x2", 1}).size() == 3);  // () only
  CHECK(splitOperands<std::vector<Piece>>({"[x1, #8], x2", 1}, true).size() == 2);
  CHECK(splitOperands<std::vector<Piece>>({"   ", 1}).empty());
  CHECK(splitOperands<std::vector<Piece>>({"1,,2", 1}).size() == 3);  // an empty operand is one
}

TEST_CASE("gnu labels: named, numeric local, and given symbols", "[gnu_source]") {
  std::map<std::string, uint64_t> concrete{{"ext", 0x1000}};
  std::set<std::string> symbolic{"sym"};
  GivenSymbols given{concrete, symbolic};
  Labels l;
  CHECK(!l.define("1", 0, given));  // 1: at 0
  unsigned first = l.event();       // a statement between the two 1:
  CHECK(!l.define("a", 4, given));
  CHECK(!l.define("1", 8, given));
  CHECK(l.define("a", 12, given) == "label 'a' is already defined");
  CHECK(l.define("ext", 12, given) == "label 'ext' is already defined");
  CHECK(l.define("4294967296", 12, given) == "local label number '4294967296' is too large");
  CHECK(l.named("a") == 4u);
  CHECK(l.local(1, true, first) == 8u);
  CHECK(l.local(1, false, first) == 0u);
  CHECK(!l.local(1, true, l.event()));
  CHECK(!l.local(2, false, first));

  auto at = [](uint64_t p) { return Value::constant(int64_t(0x100 + p)); };
  StatementNames names(l, given, first, 4, at, Origin::Label, Origin::Symbol);
  CHECK(names.dot().value.addend == 0x104);
  CHECK((names.symbol("a")->value.addend == 0x104 && names.symbol("a")->origin == Origin::Label));
  CHECK((names.symbol("ext")->value.addend == 0x1000 && names.symbol("ext")->origin == Origin::Symbol));
  CHECK(names.symbol("sym")->value.symbol == "sym");
  CHECK(!names.symbol("nowhere"));
  CHECK(names.local(1, true)->value.addend == 0x108);
}

TEST_CASE("gnu directives: widths and the ones that emit nothing", "[gnu_source]") {
  CHECK(dataWidth(".word", 4) == 4);
  CHECK(dataWidth(".word", 2) == 2);  // x86
  CHECK(dataWidth(".byte", 4) == 1);
  CHECK(dataWidth(".short", 4) == 2);
  CHECK(dataWidth(".int", 4) == 4);
  CHECK(dataWidth(".8byte", 4) == 8);
  CHECK(dataWidth(".inst", 4) == 0);  // arm64's own
  CHECK(isIgnored(".globl"));
  CHECK(!isIgnored(".ent"));
  CHECK(isIgnored(".ent", {".ent", ".end"}));
}
