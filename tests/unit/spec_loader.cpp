// Spec loading: good files fill checker/spec/Spec.h as written in them (positions
// counted by hand, encodings from docs/semantics.md); every file of the bad
// corpus yields the diagnostic its first line announces.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include "checker/spec/FetchRegistry.h"
#include "checker/spec/Regions.h"
#include "checker/spec/Spec.h"
#include "checker/spec/SpecTarget.h"
#include "encoder/IsaRegistry.h"

using namespace patchcheck;
namespace fs = std::filesystem;

namespace {

const std::string kSpecs = std::string(PATCHCHECK_TEST_DATA) + "/specs";

Spec load(const std::string& path) {
  auto r = loadSpec(path);
  if (auto* errors = std::get_if<Diagnostics>(&r)) {
    std::string all;
    for (const Diagnostic& d : *errors) all += d.str() + "\n";
    FAIL(all);
  }
  return std::get<Spec>(std::move(r));
}

Diagnostics errorsOf(const std::string& text) {
  auto r = parseSpec(text, "t.toml");
  REQUIRE(std::holds_alternative<Diagnostics>(r));
  return std::get<Diagnostics>(r);
}

bool hasError(const Diagnostics& ds, unsigned line, unsigned column, const std::string& part) {
  for (const Diagnostic& d : ds)
    if (d.where.line == line && d.where.column == column && d.message.find(part) != std::string::npos)
      return true;
  return false;
}

std::string listed(const Diagnostics& ds) {
  std::string all;
  for (const Diagnostic& d : ds) all += d.str() + "\n";
  return all;
}

}  // namespace

TEST_CASE("the spec-format example loads as written", "[spec_loader]") {
  Spec s = load(kSpecs + "/good/patchable-entry.toml");
  CHECK(s.schema == 1);
  CHECK(s.name == "mips-patchable-entry");
  CHECK(s.summary == "ftrace with and without regs at -fpatchable-function-entry=3 sites");
  CHECK(s.target.variantName() == "mips64r2");
  CHECK(s.target.endian == Endian::Big);
  CHECK(s.target.abiName() == "n64");
  REQUIRE(s.matrix.size() == 4);
  CHECK(s.matrix[0].variantName() == "mips32r2");
  CHECK(s.matrix[0].abiName() == "o32");
  CHECK(s.matrix[3].variantName() == "mips64r6");
  CHECK(s.matrix[3].endian == Endian::Big);

  CHECK(s.function == "F");
  CHECK(s.words == 3);
  REQUIRE(s.body.size() == 1);
  CHECK(s.body[0].text == "addiu sp, sp, -32");
  CHECK_FALSE(s.allowUnpredictable);

  REQUIRE(s.symbols.size() == 4);
  const SymbolSpec* regsCaller = s.symbol("ftrace_regs_caller");
  REQUIRE(regsCaller);
  CHECK(regsCaller->region == "kernel-text");
  CHECK(regsCaller->align == 0x10000);
  CHECK_FALSE(regsCaller->value);
  const SymbolSpec* caller = s.symbol("ftrace_caller");
  REQUIRE(caller);
  CHECK(caller->value == 0xffffffff80123450ull);  // written as a string
  CHECK(s.symbol("F_new")->region == "module-text");

  REQUIRE(s.regions.size() == 1);
  CHECK(s.regions[0].name == "kernel-text");
  CHECK(s.regions[0].lo == 0xffffffff80000000ull);
  CHECK(s.regions[0].hi == 0xffffffff8fffffffull);
  CHECK(s.trampolines.at("ftrace_regs_caller") == "mips/ftrace_regs_caller.S");

  // States in file order, each word located at its first character.
  REQUIRE(s.states.size() == 4);
  CHECK(s.states[0].name == "nop");
  CHECK(s.states[1].name == "disabled");
  CHECK(s.states[2].name == "regs");
  CHECK(s.states[3].name == "noregs");
  const StateSpec* regs = s.state("regs");
  REQUIRE(regs->words.size() == 3);
  CHECK(regs->words[1].text == "jalr t1, at");
  CHECK(regs->words[0].where.line == 32);
  CHECK(regs->words[0].where.column == 14);
  CHECK(regs->words[1].where.column == 49);
  CHECK(regs->where.line == 32);
  CHECK(regs->where.column == 1);

  CHECK(s.behaviour.at("nop").str() == "untraced");
  const BehaviourSpec& noregs = s.behaviour.at("noregs");
  REQUIRE(noregs.alternatives.size() == 1);
  CHECK(noregs.alternatives[0].kind == OutcomeSpec::Kind::Call);
  CHECK(noregs.alternatives[0].target == "ftrace_regs_caller");
  REQUIRE(noregs.alternatives[0].with.size() == 1);
  CHECK(noregs.alternatives[0].with[0].reg == "t0");
  CHECK(noregs.alternatives[0].with[0].value == 1);
  CHECK(noregs.alternatives[0].with[0].where.line == 39);
  CHECK(noregs.alternatives[0].with[0].where.column == 42);

  CHECK(s.model.fetch->name() == "stale");
  CHECK(s.model.lineBytes == 64);
  CHECK_FALSE(s.model.preemption);
  CHECK_FALSE(s.model.delaySlotInterrupts);

  REQUIRE(s.transitions.size() == 3);
  const TransitionSpec& boot = s.transitions[0];
  CHECK(boot.name() == "nop->disabled");
  CHECK(boot.when == When::Boot);
  CHECK_FALSE(boot.expect);
  REQUIRE(boot.steps.size() == 3);
  CHECK(boot.steps[1].kind == StepSpec::Kind::Write);
  CHECK(boot.steps[1].index == 2);
  CHECK(boot.steps[2].kind == StepSpec::Kind::Flush);
  const TransitionSpec& enable = s.transitions[1];
  CHECK(enable.when == When::Live);
  CHECK(enable.expect == Expect::Safe);
  REQUIRE(enable.steps.size() == 4);
  CHECK(enable.steps[1].kind == StepSpec::Kind::Sync);
  CHECK(enable.steps[3].kind == StepSpec::Kind::Wait);
  const TransitionSpec& toggle = s.transitions[2];
  CHECK(toggle.when == When::StopMachine);
  CHECK(toggle.expect == Expect::Unsafe);
  REQUIRE(toggle.steps[0].interim);
  CHECK(toggle.steps[0].interim->text == "nop");
  CHECK(toggle.steps[0].interim->where.line == 63);
  CHECK(toggle.steps[0].interim->where.column == 22);
  REQUIRE(toggle.allow);
  CHECK(toggle.allow->str() == "call ftrace_regs_caller | untraced");
}

TEST_CASE("state words assemble per ABI: t0 is $12 under n64, $8 under o32", "[spec_loader]") {
  Spec s = load(kSpecs + "/good/patchable-entry.toml");
  const StateSpec& regs = *s.state("regs");
  auto n64 = assembleState(s, regs, s.target);
  REQUIRE(std::holds_alternative<Program>(n64));
  const auto& w = std::get<Program>(n64).units;
  REQUIRE(w.size() == 4);  // three site words, then the body word
  CHECK(w[0].bits == 0x3c010000);
  CHECK(w[0].symbolicMask == 0xffff);  // %hi of a symbolic address
  CHECK(w[2].bits == 0x240c0000);      // FACTS: li t0, 0 under n64
  CHECK(w[1].address == Value{"F", 4});
  CHECK(w[1].where.line == 32);  // words point into the spec
  CHECK(w[1].where.column == 49);
  CHECK(w[3].address == Value{"F", 12});

  auto o32 = assembleState(s, regs, s.matrix[0]);
  REQUIRE(std::holds_alternative<Program>(o32));
  CHECK(std::get<Program>(o32).units[2].bits == 0x24080000);  // li $8, 0
}

TEST_CASE("a 32-bit spec: addresses sign-extended, UNPREDICTABLE words allowed", "[spec_loader]") {
  Spec s = load(kSpecs + "/good/o32-unpredictable.toml");
  CHECK(s.target.variantName() == "mips32r2");
  CHECK(s.target.abiName() == "o32");  // the ISA's default ABI
  CHECK(s.target.endian == Endian::Little);
  CHECK(s.matrix.empty());
  CHECK(s.allowUnpredictable);
  CHECK(s.function == "func");
  CHECK(s.symbol("func")->value == 0x80100000u);
  CHECK(symbolAddress(*s.symbol("func"), s.target) == 0xffffffff80100000ull);
  CHECK(s.symbol("G")->align == 4);  // the default

  auto regions = regionsFor(s, s.target);
  const RegionSpec* low = findRegion(regions, "low-text");
  REQUIRE(low);
  CHECK(low->lo == 0xffffffff80000000ull);
  CHECK(low->hi == 0xffffffff80ffffffull);
  REQUIRE(findRegion(regions, "kernel-text"));

  auto a = assembleState(s, *s.state("broken"), s.target);
  REQUIRE(std::holds_alternative<Program>(a));
  const auto& w = std::get<Program>(a).units;
  REQUIRE(w.size() == 4);
  CHECK(w[0].bits == 0x00200809);  // FACTS: jalr at, at
  CHECK(w[1].bits == 0x03e00008);  // FACTS: pre-R6 jr ra
  CHECK(w[2].bits == 0x27bdfff8);  // addiu sp, sp, -8
  CHECK(w[2].address == Value::constant(int64_t(0xffffffff80100008ull)));

  const BehaviourSpec& b = s.behaviour.at("broken");
  CHECK(b.str() == "call tramp with $8 == 0x80000000 && a0 == 7 | enter G");
  REQUIRE(b.alternatives.size() == 2);
  CHECK(b.alternatives[1].kind == OutcomeSpec::Kind::Enter);

  const auto& steps = s.transitions.at(0).steps;
  REQUIRE(steps.size() == 7);
  CHECK(steps[0].index == 1);
  REQUIRE(steps[0].interim);
  CHECK(steps[0].interim->text == "ssnop");
  CHECK(steps[0].interim->where.line == 36);
  CHECK(steps[0].interim->where.column == 16);  // after the escaped quote
  CHECK(steps[6].index == 3);                   // a body word
  CHECK(steps[6].interim->text == "sw ra, 4(sp)");
  CHECK(steps[6].interim->where.column == 15);
  auto interim = assembleUnit(s, *steps[0].interim, 1, s.target);
  REQUIRE(std::holds_alternative<Unit>(interim));
  CHECK(std::get<Unit>(interim).bits == 0x00000040);  // FACTS: ssnop
}

TEST_CASE("the same site without allow_unpredictable is refused", "[spec_loader]") {
  std::ifstream in(kSpecs + "/good/o32-unpredictable.toml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string flag = "allow_unpredictable = true";
  text.replace(text.find(flag), flag.size(), "allow_unpredictable = false");
  CHECK(hasError(errorsOf(text), 26, 17, "jalr with rd == rs is UNPREDICTABLE"));
  // The assembler checks slots once every word encodes: a legal jalr first.
  std::string jalr = "jalr at, at";
  text.replace(text.find(jalr), jalr.size(), "jalr t1, at");
  CHECK(hasError(errorsOf(text), 26, 27, "'jr' in the delay slot of 'jalr' (word 0) is UNPREDICTABLE"));
}

TEST_CASE("every error is reported, in file order", "[spec_loader]") {
  Diagnostics errors = errorsOf(
      "schema = 1\n"
      "[site]\n"
      "words = 1\n"
      "[states]\n"
      "a = [\"nop\"]\n"
      "[behaviour]\n"
      "a = \"untraced\"\n"
      "[modle]\n"
      "[[transition]]\n"
      "from = \"a\"\n"
      "to = \"b\"\n"
      "steps = [\"write 1\", \"flsh\"]\n");
  INFO(listed(errors));
  REQUIRE(errors.size() == 4);
  CHECK(hasError(errors, 8, 2, "unknown key 'modle' at the top level (did you mean 'model'?)"));
  CHECK(hasError(errors, 11, 6, "unknown state 'b'"));
  CHECK(hasError(errors, 12, 17, "write 1 is outside the site"));
  CHECK(hasError(errors, 12, 22, "unknown step 'flsh'"));
  CHECK(errors[0].where.file == "t.toml");
  CHECK(errors[0].str().rfind("t.toml:8:2: error: ", 0) == 0);
}

TEST_CASE("defaults: a minimal spec", "[spec_loader]") {
  auto r = parseSpec("schema = 1\n[site]\nwords = 1\n[states]\na = [\"nop\"]\n[behaviour]\na = \"untraced\"\n",
                     "dir/minimal.toml");
  REQUIRE(std::holds_alternative<Spec>(r));
  const Spec& s = std::get<Spec>(r);
  CHECK(s.name == "minimal");  // the file's stem
  CHECK(s.function == "F");
  CHECK(s.target.variantName() == "mips64r2");
  CHECK(s.target.abiName() == "n64");
  REQUIRE(s.symbol("F"));  // F is symbolic in kernel-text unless declared
  CHECK(s.symbol("F")->region == "kernel-text");
  CHECK(s.model.fetch->name() == "weak");
  CHECK(s.model.lineBytes == 32);
  CHECK(s.model.preemption);
  CHECK(s.model.delaySlotInterrupts);
  CHECK(s.transitions.empty());
}

TEST_CASE("a target given on the command line is checked again", "[spec_loader]") {
  Spec s = load(kSpecs + "/good/patchable-entry.toml");
  s.behaviour.at("regs").alternatives[0].with[0].reg = "t7";  // o32 only
  CHECK(checkSpecForTarget(s, s.matrix[0]).empty());
  Diagnostics n64 = checkSpecForTarget(s, s.target);
  REQUIRE(n64.size() == 1);
  CHECK(n64[0].message.find("'t7' is not a register under n64") != std::string::npos);
}

TEST_CASE("bad specs: each file's announced diagnostic appears", "[spec_loader]") {
  unsigned files = 0;
  for (const auto& entry : fs::directory_iterator(kSpecs + "/bad")) {
    if (entry.path().extension() != ".toml") continue;
    ++files;
    std::ifstream in(entry.path());
    std::string first;
    std::getline(in, first);
    const std::string prefix = "# expect: ";
    INFO(entry.path().filename().string());
    REQUIRE(first.rfind(prefix, 0) == 0);
    std::string expect = first.substr(prefix.size());
    size_t colon1 = expect.find(':'), colon2 = expect.find(':', colon1 + 1);
    REQUIRE(colon2 != std::string::npos);
    unsigned line = unsigned(std::stoul(expect.substr(0, colon1)));
    unsigned column = unsigned(std::stoul(expect.substr(colon1 + 1, colon2 - colon1 - 1)));
    std::string part = expect.substr(colon2 + 2);

    auto r = loadSpec(entry.path().string());
    REQUIRE(std::holds_alternative<Diagnostics>(r));
    const Diagnostics& errors = std::get<Diagnostics>(r);
    INFO(listed(errors));
    CHECK(hasError(errors, line, column, part));
    CHECK(errors[0].where.file == entry.path().string());
  }
  CHECK(files >= 25);
}

TEST_CASE("[model] unpredictable = fault | hardware", "[spec_loader]") {
  std::string base = "schema = 1\n[site]\nwords = 1\n[states]\na = [\"nop\"]\n[behaviour]\na = \"untraced\"\n";
  auto fault = parseSpec(base, "t.toml");
  REQUIRE(std::holds_alternative<Spec>(fault));
  CHECK_FALSE(std::get<Spec>(fault).model.unpredictableAsHardware);
  auto hardware = parseSpec(base + "[model]\nunpredictable = \"hardware\"\n", "t.toml");
  REQUIRE(std::holds_alternative<Spec>(hardware));
  CHECK(std::get<Spec>(hardware).model.unpredictableAsHardware);
}

TEST_CASE("every ISA names fetch models the build has, its default among them", "[spec_loader]") {
  std::set<std::string_view> names;
  for (const FetchRules* m : fetchModels()) CHECK(names.insert(m->name()).second);  // one file per name
  for (const IsaPlugin* isa : isas()) {
    INFO(isa->family());
    REQUIRE_FALSE(isa->fetchModels().empty());
    for (std::string_view n : isa->fetchModels()) CHECK(fetchModelNamed(n) != nullptr);
    CHECK(allowsFetchModel(*isa, defaultFetchModel(*isa)));
  }
}

TEST_CASE("fetch models are listed as the plug-ins name them, the default target's ISA first", "[spec_loader]") {
  // The order errors list them in ("expected one of: ...") and synth --fetch offers.
  std::vector<std::string> listed;
  for (const FetchRules* m : fetchModelsListed()) listed.emplace_back(m->name());
  CHECK(listed == std::vector<std::string>{"sc", "weak", "stale", "arm", "ziccif", "ziccid", "x86"});
  CHECK(choosableFetchModelNames() == std::vector<std::string>{"sc", "weak", "stale", "ziccif", "ziccid"});
  CHECK(fetchModelsText(*targetNamed("mips64r2")->isa) == "sc, weak or stale");
  CHECK(&defaultFetchModel(*targetNamed("mips64r2")->isa) == fetchModelNamed("weak"));
  CHECK(&defaultFetchModel(*targetNamed("arm64")->isa) == fetchModelNamed("arm"));
  CHECK(&defaultFetchModel(*targetNamed("x86_64")->isa) == fetchModelNamed("x86"));
}
