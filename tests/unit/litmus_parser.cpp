// The herd7 AArch64 litmus parser (checker/litmus/LitmusParser.h): the
// test files under tests/data/litmus/ read back field by field, the
// proposition's precedence, and every file of the bad corpus gives the
// diagnostic its first line announces, `(* expect: LINE:COLUMN: MESSAGE *)`.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "checker/litmus/LitmusParser.h"

using namespace patchcheck;
using namespace patchcheck::litmus;
namespace fs = std::filesystem;

namespace {

const std::string kLitmus = std::string(PATCHCHECK_TEST_DATA) + "/litmus";

std::string listed(const Diagnostics& ds) {
  std::string all;
  for (const Diagnostic& d : ds) all += d.str() + "\n";
  return all;
}

Test load(const std::string& name) {
  auto r = loadLitmus(kLitmus + "/" + name);
  if (auto* errors = std::get_if<Diagnostics>(&r)) FAIL(listed(*errors));
  return std::get<Test>(std::move(r));
}

Test parse(const std::string& text) {
  auto r = parseLitmus(text, "t.litmus");
  if (auto* errors = std::get_if<Diagnostics>(&r)) FAIL(listed(*errors));
  return std::get<Test>(std::move(r));
}

Diagnostics errorsOf(const std::string& text) {
  auto r = parseLitmus(text, "t.litmus");
  REQUIRE(std::holds_alternative<Diagnostics>(r));
  return std::get<Diagnostics>(r);
}

const InitEntry& entry(const Test& t, std::optional<unsigned> thread, const std::string& name) {
  for (const InitEntry& e : t.init)
    if (e.thread == thread && e.name == name) return e;
  FAIL("no init entry " << (thread ? std::to_string(*thread) + ":" : "") << name);
  static const InitEntry none;  // not reached: FAIL ends the test case
  return none;
}

std::vector<std::string> texts(const Thread& t) {
  std::vector<std::string> out;
  for (const Instruction& i : t.code) {
    std::string s;
    for (const std::string& l : i.labels) s += l + ": ";
    out.push_back(s + i.text);
  }
  return out;
}

// A proposition as one line: E(1:X9=...) for atoms, K(...) for the rest.
std::string shape(const Prop& p) {
  auto value = [](const InitValue& v) {
    return v.kind == InitValue::Kind::Number ? std::to_string(v.number) : v.text;
  };
  switch (p.kind) {
    case Prop::Kind::True: return "T";
    case Prop::Kind::False: return "F";
    case Prop::Kind::Eq: return (p.thread ? std::to_string(*p.thread) + ":" : "") + p.name + "=" + value(p.value);
    case Prop::Kind::Fault: return "fault(P" + std::to_string(*p.thread) + ":" + p.name + "," + p.value.text + ")";
    default: break;
  }
  std::string s = p.kind == Prop::Kind::Not ? "Not(" : p.kind == Prop::Kind::And ? "And(" : p.kind == Prop::Kind::Or ? "Or(" : "Imp(";
  for (size_t i = 0; i < p.args.size(); ++i) s += (i ? " " : "") + shape(*p.args[i]);
  return s + ")";
}

const char* kBody = "{ 0:X0=1; 1:X0=2; x=0; }\n P0 | P1 ;\nL0: NOP | NOP ;\n";

std::string conditionOf(const std::string& condition) {
  Test t = parse(std::string("AArch64 c\n") + kBody + condition + "\n");
  REQUIRE(t.condition);
  return shape(*t.condition->prop);
}

}  // namespace

TEST_CASE("one thread: labels on rows of their own, instr values, forall", "[litmus_parser]") {
  Test t = load("one-thread.litmus");
  CHECK(t.arch == "AArch64");
  CHECK(t.name == "one-thread");
  CHECK(t.file == kLitmus + "/one-thread.litmus");
  CHECK(t.meta == std::map<std::string, std::string>{{"Stable", "X9"}});
  REQUIRE(t.init.size() == 3);
  const InitEntry& x0 = entry(t, 0, "X0");
  CHECK(x0.value.kind == InitValue::Kind::Instruction);
  CHECK(x0.value.text == "B .+8");
  CHECK(x0.at.line == 6);
  CHECK(x0.at.column == 3);
  CHECK(x0.value.at.column == 8);
  CHECK(entry(t, 0, "X1").value.kind == InitValue::Kind::Label);
  CHECK(entry(t, 0, "X1").value.text == "P0:L0");
  CHECK(entry(t, 0, "X2").value.kind == InitValue::Kind::Number);
  CHECK(entry(t, 0, "X2").value.number == 16);

  REQUIRE(t.threads.size() == 1);
  const Thread& p0 = t.threads[0];
  CHECK(p0.name == "P0");
  CHECK(p0.number == 0);
  CHECK_FALSE(p0.faultHandler);
  CHECK(texts(p0) == std::vector<std::string>{"STR W0,[X1]", "DSB ISH", "L0: ", "B L1", "MOV W9,#1", "L1: "});
  CHECK(p0.code[2].at.line == 12);
  CHECK(p0.code[2].at.column == 1);
  CHECK(p0.code[0].at.column == 2);

  REQUIRE(t.condition);
  CHECK(t.condition->quantifier == Condition::Quantifier::Forall);
  CHECK(t.condition->at.line == 16);
  CHECK(shape(*t.condition->prop) == "And(Imp(0:X9=1 0:X2=16) T)");
  CHECK(t.locations.empty());
}

TEST_CASE("two threads: meta, doc string, comments and every init form", "[litmus_parser]") {
  Test t = load("two-threads.litmus");
  CHECK(t.meta == std::map<std::string, std::string>{{"CacheType", "IDC DIC"}, {"Variant", "self"}});

  const InitEntry& x = entry(t, std::nullopt, "x");
  CHECK(x.type == "int");
  CHECK(x.value.kind == InitValue::Kind::Number);
  CHECK(entry(t, std::nullopt, "y").value.text == "P1:L0");  // [y]
  CHECK(entry(t, std::nullopt, "z").value.number == 7);      // *z
  const InitEntry& x8 = entry(t, 0, "X8");
  CHECK(x8.type == "ins_t");
  CHECK(x8.value.kind == InitValue::Kind::Instruction);
  CHECK(x8.value.text == "NOP");
  CHECK(entry(t, 0, "X0").value.kind == InitValue::Kind::Instruction);  // bare NOP
  const InitEntry& x1 = entry(t, 0, "X1");                              // written 0:x1
  CHECK(x1.value.kind == InitValue::Kind::Label);
  CHECK(x1.value.text == "P1:m0");
  const InitEntry& x3 = entry(t, 0, "X3");  // written 0:W3
  CHECK(x3.value.kind == InitValue::Kind::Location);
  CHECK(x3.value.text == "x");
  CHECK(entry(t, 1, "X2").value.number == ~uint64_t(0));
  const InitEntry& x4 = entry(t, 1, "X4");  // `void *1:X4;`: a declaration, value 0
  CHECK(x4.type == "void *");
  CHECK(x4.value.kind == InitValue::Kind::Number);
  CHECK(x4.value.number == 0);
  const InitEntry& x5 = entry(t, 1, "X5");  // `int 1:X5; 1:X5=3;`: one entry
  CHECK(x5.type == "int");
  CHECK(x5.value.number == 3);
  CHECK(t.init.size() == 10);

  REQUIRE(t.threads.size() == 2);
  CHECK(texts(t.threads[0]) == std::vector<std::string>{"STR W0,[X1]", "DMB ST", "MOV W9,#1"});
  CHECK(texts(t.threads[1]) ==
        std::vector<std::string>{"LDR W2,[X3]", "m0: B L0", "MOV W9,#2", "L0: ", "l1: L2: ISB"});
  const Instruction& m0 = t.threads[1].code[1];
  CHECK(m0.at.line == 16);
  CHECK(m0.at.column == 20);  // the instruction, after its label

  REQUIRE(t.condition);
  CHECK(t.condition->quantifier == Condition::Quantifier::Exists);
  CHECK(shape(*t.condition->prop) ==
        "And(Or(And(1:X2=NOP x=1) y=P1:L0) Not(0:X9=0) 1:X8=ISB 1:X7=P1:m0)");
  const Prop& nop = *t.condition->prop->args[0]->args[0]->args[0];
  CHECK(nop.value.kind == InitValue::Kind::Instruction);
  CHECK(nop.at.line == 20);
  CHECK(nop.at.column == 9);
}

TEST_CASE("a fault handler column and a fault atom under ~exists", "[litmus_parser]") {
  Test t = load("fault-handler.litmus");
  REQUIRE(t.threads.size() == 2);
  CHECK(t.threads[1].name == "P0.F");
  CHECK(t.threads[1].number == 0);
  CHECK(t.threads[1].faultHandler);
  CHECK(texts(t.threads[0]) == std::vector<std::string>{"L0: ", "UDF #0", "L1: ", "NOP"});
  CHECK(texts(t.threads[1]) ==
        std::vector<std::string>{"ADD W2,W2,#1", "ADR X9,L1", "MSR ELR_EL1,X9", "ERET"});
  REQUIRE(t.condition);
  CHECK(t.condition->quantifier == Condition::Quantifier::NotExists);
  CHECK(shape(*t.condition->prop) == "And(fault(P0:L0,UndefinedInstruction) 0:X2=0)");
}

TEST_CASE("page-table entries and locations without a condition", "[litmus_parser]") {
  Test t = load("page-table.litmus");
  CHECK(t.meta.at("Hash") == "0123456789abcdef");
  const InitEntry& pte = entry(t, std::nullopt, "pte_x");
  CHECK(pte.value.kind == InitValue::Kind::Location);
  CHECK(pte.value.text == "(oa:phy_x)");
  CHECK(t.locations == std::vector<std::string>{"0:X9", "x"});
  CHECK_FALSE(t.condition);
}

TEST_CASE("the condition's operators bind ~, /\\, \\/, => from tightest", "[litmus_parser]") {
  CHECK(conditionOf("exists 0:X0=1 \\/ 1:X0=2 /\\ x=0") == "Or(0:X0=1 And(1:X0=2 x=0))");
  CHECK(conditionOf("exists ~0:X0=1 /\\ x=0") == "And(Not(0:X0=1) x=0)");
  CHECK(conditionOf("exists 0:X0=1 => 1:X0=2 => x=0") == "Imp(0:X0=1 Imp(1:X0=2 x=0))");
  CHECK(conditionOf("exists x=1 \\/ x=2 => false") == "Imp(Or(x=1 x=2) F)");
  CHECK(conditionOf("exists ((true))") == "T");
  CHECK(conditionOf("exists [x]=0x10 /\\ *x=-2") == "And(x=16 x=" + std::to_string(uint64_t(0) - 2) + ")");
  CHECK(conditionOf("exists 1:W0=label:\"P0:L0\"") == "1:X0=P0:L0");
}

TEST_CASE("registers are named X<n> whatever the width and case written", "[litmus_parser]") {
  Test t = parse("AArch64 r\n{ 0:w5=1; 0:X30=2; }\n P0 ;\n NOP ;\nexists 0:w30=2\n");
  CHECK(t.init[0].name == "X5");
  CHECK(t.init[1].name == "X30");
  CHECK(t.condition->prop->name == "X30");
  CHECK(errorsOf("AArch64 r\n{ 0:X05=1; }\n P0 ;\n NOP ;\n")[0].message ==
        "expected a general register X0-X30 or W0-W30, found 'X05'");
  CHECK(errorsOf("AArch64 r\n{ 0:SP=1; }\n P0 ;\n NOP ;\n")[0].message ==
        "expected a general register X0-X30 or W0-W30, found 'SP'");
}

TEST_CASE("the table's rows split at ';' and columns at '|'", "[litmus_parser]") {
  // two rows on a line, a comment inside a row, an empty cell, a label in a fault handler
  Test t = parse("AArch64 rows\n{ }\nP0 | P1 ; NOP | ; (* c *)\n ISB | L: (* L *) B L ;\n");
  REQUIRE(t.threads.size() == 2);
  CHECK(texts(t.threads[0]) == std::vector<std::string>{"NOP", "ISB"});
  CHECK(texts(t.threads[1]) == std::vector<std::string>{"L: B L"});
  CHECK(t.threads[1].code[0].at.column == 19);
  CHECK_FALSE(t.condition);
}

TEST_CASE("a comment may sit anywhere, a string's comment marks are text", "[litmus_parser]") {
  Test t = parse("(* lead *)AArch64 (* in the header *) c\n{ 0:X0=instr:\"(* NOP\"; (* x=1; *) }\n P0 ;\n NOP ;\n");
  CHECK(t.name == "c");
  REQUIRE(t.init.size() == 1);
  CHECK(t.init[0].value.text == "(* NOP");
}

TEST_CASE("a message names the file, line and column", "[litmus_parser]") {
  Diagnostics e = errorsOf("AArch64 m\n{\n 0:X1=P0:Lx;\n}\n P0 ;\nL0: NOP ;\n");
  REQUIRE(e.size() == 1);
  CHECK(e[0].str() == "t.litmus:3:7: error: P0 has no label 'Lx'");
  // problems in separate entries and rows are all reported
  Diagnostics many = errorsOf("AArch64 m\n{ 0:X1=@; 0:X2=; }\n P0 | P1 ;\n NOP ;\n");
  CHECK(many.size() == 3);
  auto missing = loadLitmus(kLitmus + "/no-such-file.litmus");
  REQUIRE(std::holds_alternative<Diagnostics>(missing));
  CHECK(std::get<Diagnostics>(missing)[0].message == "cannot read the litmus file");
}

TEST_CASE("bad litmus files: each file's announced diagnostic appears", "[litmus_parser]") {
  unsigned files = 0;
  for (const auto& item : fs::directory_iterator(kLitmus + "/bad")) {
    if (item.path().extension() != ".litmus") continue;
    ++files;
    std::ifstream in(item.path());
    std::string first;
    std::getline(in, first);
    const std::string prefix = "(* expect: ", suffix = " *)";
    INFO(item.path().filename().string());
    REQUIRE(first.rfind(prefix, 0) == 0);
    REQUIRE(first.size() > prefix.size() + suffix.size());
    REQUIRE(first.substr(first.size() - suffix.size()) == suffix);
    std::string expect = first.substr(prefix.size(), first.size() - prefix.size() - suffix.size());
    size_t colon1 = expect.find(':'), colon2 = expect.find(':', colon1 + 1);
    REQUIRE(colon2 != std::string::npos);
    unsigned line = unsigned(std::stoul(expect.substr(0, colon1)));
    unsigned column = unsigned(std::stoul(expect.substr(colon1 + 1, colon2 - colon1 - 1)));
    std::string part = expect.substr(colon2 + 2);

    auto r = loadLitmus(item.path().string());
    REQUIRE(std::holds_alternative<Diagnostics>(r));
    const Diagnostics& errors = std::get<Diagnostics>(r);
    INFO(listed(errors));
    // the announced diagnostic comes first: what follows may be its echo
    CHECK(errors[0].where.line == line);
    CHECK(errors[0].where.column == column);
    CHECK_THAT(errors[0].message, Catch::Matchers::StartsWith(part));
    CHECK(errors[0].where.file == item.path().string());
  }
  CHECK(files >= 40);
}
