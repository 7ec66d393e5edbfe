// The modular trampoline proof (docs/trampolines.md): the shipped
// trampolines keep their contracts on every target they are written for,
// and a trampoline with a deliberate bug (tests/data/trampolines/) fails
// with a counterexample that names the broken rule and replays concretely.
#include <catch2/catch.hpp>

#include "encoder/mips/Plugin.h"
#include "checker/explore/Checker.h"
#include "checker/explore/TrampolineProof.h"
#include "checker/explore/Trampolines.h"
#include "encoder/Hex.h"

using namespace patchcheck;
using Catch::Matchers::Contains;
using mips::Abi;
using mips::Endian;
using mips::Isa;

namespace {

const std::string kData = PATCHCHECK_TEST_DATA;
const std::string kSource = PATCHCHECK_SOURCE_DIR;
const Target kN64 = mips::Target{Isa::Mips64R2, Endian::Big, Abi::N64};

Spec specAt(const std::string& path) {
  auto s = loadSpec(path);
  REQUIRE(std::holds_alternative<Spec>(s));
  return std::get<Spec>(s);
}

// A site calling ftrace_regs_caller (F in kernel text, three words).
Spec patchableEntry() { return specAt(kSource + "/specs/mips/patchable-entry.toml"); }

// Proves every entry of one trampoline file pair; the contracts come back
// as plain data (the Z3 terms die with the context).
std::vector<TrampolineContract> prove(const Spec& spec, const Target& t, const TrampolineFiles& files,
                                      const std::string& symbol) {
  z3::context c;
  auto site = SiteInstance::make(spec, t, c);
  REQUIRE(std::holds_alternative<SiteInstance>(site));
  auto codes = loadTrampoline(files, symbol, std::get<SiteInstance>(site).trampolineSite());
  if (auto* e = std::get_if<Diagnostics>(&codes)) FAIL(e->front().str());
  std::vector<TrampolineContract> out;
  for (TrampolineCode& code : std::get<std::vector<TrampolineCode>>(codes)) {
    proveTrampoline(code, std::get<SiteInstance>(site));
    out.push_back(code.contract);
  }
  return out;
}

TrampolineContract proveBuggy(const std::string& file) {
  auto ks = prove(patchableEntry(), kN64,
                  {kData + "/trampolines/" + file, kData + "/trampolines/contract_64.toml"}, "ftrace_regs_caller");
  REQUIRE(ks.size() == 1);
  const TrampolineContract& k = ks.front();
  CHECK_FALSE(k.proven);
  REQUIRE(k.refutation);
  CHECK(k.refutation->replayed);
  CHECK_FALSE(k.refutation->trace.empty());
  INFO(k.refutation->rule);
  return k;
}

}  // namespace

TEST_CASE("ftrace_regs_caller keeps its contract on every target", "[trampoline_proof]") {
  Spec spec = patchableEntry();
  for (Target t : {Target(mips::Target{Isa::Mips32R2, Endian::Big, Abi::O32}), Target(mips::Target{Isa::Mips32R6, Endian::Little, Abi::O32}),
                   Target(mips::Target{Isa::Mips64R2, Endian::Little, Abi::N64}), Target(mips::Target{Isa::Mips64R6, Endian::Big, Abi::N64})}) {
    auto files = resolveTrampoline(spec, "mips/ftrace_regs_caller.S", t);
    REQUIRE(files);
    auto ks = prove(spec, t, *files, "ftrace_regs_caller");
    REQUIRE(ks.size() == 1);
    INFO(t.str() << ": " << (ks[0].refutation ? ks[0].refutation->rule : ks[0].unknownReason));
    CHECK(ks[0].proven);
    CHECK(ks[0].proofCounts.paths == 2);  // regs and noregs
  }
}

TEST_CASE("the legacy _mcount keeps both entries' contracts for vmlinux and module sites", "[trampoline_proof]") {
  for (const char* name : {"mcount-kernel", "mcount-module"})
    for (bool wide : {false, true}) {
      Spec spec = specAt(kSource + "/specs/mips/" + name + (wide ? "-64" : "") + ".toml");
      Target t = wide ? kN64 : Target(mips::Target{Isa::Mips32R2, Endian::Little, Abi::O32});
      auto files = resolveTrampoline(spec, "mips/mcount.S", t);
      REQUIRE(files);
      auto ks = prove(spec, t, *files, "ftrace_caller");
      REQUIRE(ks.size() == 2);  // _mcount and ftrace_caller + 8
      for (const TrampolineContract& k : ks) {
        INFO(name << " " << t.str() << " " << k.key() << ": "
                  << (k.refutation ? k.refutation->rule : k.unknownReason));
        CHECK(k.proven);
      }
    }
}

// Deliberately buggy copies of ftrace_regs_caller_64.S (tests/data/
// trampolines, each file's header says its bug) and what the refutation
// must name.
TEST_CASE("every buggy trampoline fails its proof, naming the broken rule", "[trampoline_proof]") {
  const std::pair<const char*, const char*> cases[] = {
      {"clobbers_s0.S", "s0"},
      {"unbalanced_stack.S", "sp is not restored"},
      {"no_ra_restore.S", "ra is not restored"},
      // The kernel's exception entry saves its frame just below sp at any
      // instruction boundary (model/mips/ExceptionEntry.h): data kept there is lost.
      {"store_below_sp.S", "ra is not restored"},
      {"reload_after_release.S", "jumps to"},
      {"jr_ra.S", "jumps to"},  // once looped between the callback and itself
  };
  for (const auto& [file, rule] : cases) {
    INFO(file);
    TrampolineContract k = proveBuggy(file);
    CHECK_THAT(k.refutation->rule, Contains(rule));
  }
}

TEST_CASE("a wrong ip argument fails the proof", "[trampoline_proof]") {
  TrampolineContract k = proveBuggy("wrong_ip.S");
  CHECK_THAT(k.refutation->rule, Contains("ip argument (a0)"));
  // F is where the symbols put it; the ip passed is F + 4.
  uint64_t f = k.refutation->symbols.at("F");
  CHECK_THAT(k.refutation->rule, Contains("the traced site's ip is " + hex(f)));
  CHECK_THAT(k.refutation->rule, Contains("(a0) is " + hex(f + 4)));
}

TEST_CASE("a solver that cannot decide makes the proof UNKNOWN, and it ends", "[trampoline_proof]") {
  Spec spec = patchableEntry();
  z3::context c;
  auto site = SiteInstance::make(spec, kN64, c);
  REQUIRE(std::holds_alternative<SiteInstance>(site));
  auto codes = loadTrampoline({kData + "/trampolines/jr_ra.S", kData + "/trampolines/contract_64.toml"},
                              "ftrace_regs_caller", std::get<SiteInstance>(site).trampolineSite());
  REQUIRE(std::holds_alternative<std::vector<TrampolineCode>>(codes));
  TrampolineCode code = std::get<std::vector<TrampolineCode>>(codes).front();
  proveTrampoline(code, std::get<SiteInstance>(site), Limits{1});  // 1 ms per question
  CHECK_FALSE(code.contract.proven);
  if (!code.contract.refutation) CHECK_FALSE(code.contract.unknownReason.empty());
}

TEST_CASE("a contract file with a typo is an input error with its position", "[trampoline_proof]") {
  z3::context c;
  Spec spec = patchableEntry();
  auto site = SiteInstance::make(spec, kN64, c);
  REQUIRE(std::holds_alternative<SiteInstance>(site));
  auto codes = loadTrampoline({kSource + "/trampolines/mips/ftrace_regs_caller_64.S",
                               kData + "/trampolines/typo.toml"},
                              "ftrace_regs_caller", std::get<SiteInstance>(site).trampolineSite());
  REQUIRE(std::holds_alternative<Diagnostics>(codes));
  const Diagnostic& d = std::get<Diagnostics>(codes).front();
  CHECK(d.where.line == 8);
  CHECK_THAT(d.message, Contains("unknown key 'resum'"));
}

TEST_CASE("a trampoline for another width is an input error", "[trampoline_proof]") {
  z3::context c;
  Spec spec = patchableEntry();
  auto site = SiteInstance::make(spec, kN64, c);
  REQUIRE(std::holds_alternative<SiteInstance>(site));
  auto codes = loadTrampoline({kSource + "/trampolines/mips/ftrace_regs_caller_32.S",
                               kSource + "/trampolines/mips/ftrace_regs_caller_32.toml"},
                              "ftrace_regs_caller", std::get<SiteInstance>(site).trampolineSite());
  REQUIRE(std::holds_alternative<Diagnostics>(codes));
  CHECK_THAT(std::get<Diagnostics>(codes).front().message, Contains("not written for mips64r2/n64/big"));
}

TEST_CASE("a missing trampoline or contract file is an input error at its [trampolines] entry", "[trampoline_proof]") {
  auto spec = [](const std::string& file) {
    auto s = parseSpec("schema = 1\n[site]\nwords = 1\n[symbols]\nT = { in = \"kernel-text\" }\n"
                       "[trampolines]\nT = \"" + file + "\"\n[states]\na = [\"nop\"]\n[behaviour]\na = \"untraced\"\n",
                       "t.toml");
    REQUIRE(std::holds_alternative<Spec>(s));
    return std::get<Spec>(s);
  };
  z3::context c;
  Spec missing = spec("mips/no_such_trampoline.S");
  auto a = SiteInstance::make(missing, missing.target, c);
  REQUIRE(std::holds_alternative<Diagnostics>(a));
  CHECK(std::get<Diagnostics>(a).front().where.line == 7);
  CHECK(std::get<Diagnostics>(a).front().where.column == 5);
  CHECK_THAT(std::get<Diagnostics>(a).front().message, Contains("trampolines/mips/no_such_trampoline.S (nor a _32/_64 variant)"));
  // An assembly file without its contract beside it.
  Spec noContract = spec(kData + "/trampolines/wrong_ip.S");
  auto b = SiteInstance::make(noContract, noContract.target, c);
  REQUIRE(std::holds_alternative<Diagnostics>(b));
  CHECK(std::get<Diagnostics>(b).front().where.line == 7);
  CHECK_THAT(std::get<Diagnostics>(b).front().message, Contains("no contract file"));
}
