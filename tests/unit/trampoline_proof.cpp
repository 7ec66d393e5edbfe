// The modular trampoline proof (docs/trampolines.md): the shipped
// trampolines keep their contracts on every target they are written for,
// and a trampoline with a deliberate bug (tests/data/trampolines/) fails
// with a counterexample that names the broken rule and replays concretely.
#include <catch2/catch.hpp>

#include <algorithm>
#include <initializer_list>
#include <string>

#include "encoder/mips/Plugin.h"
#include "checker/explore/Checker.h"
#include "checker/explore/TrampolineProof.h"
#include "checker/explore/TrampolineRun.h"
#include "checker/explore/Trampolines.h"
#include "checker/spec/ContractFile.h"
#include "encoder/Hex.h"
#include "encoder/IsaRegistry.h"

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
// as plain data (the Z3 terms die with the context). `work`, when not 0,
// bounds each solver question by Z3's resource count (rlimit) as well as
// by the timeout: a question then ends undecided at the same point however
// loaded the machine is, where a timeout ends it sooner under load.
std::vector<TrampolineContract> prove(const Spec& spec, const Target& t, const TrampolineFiles& files,
                                      const std::string& symbol, const Limits& limits = {}, unsigned work = 0) {
  z3::config cfg;
  if (work != 0) cfg.set("rlimit", std::to_string(work).c_str());
  z3::context c(cfg);
  auto site = SiteInstance::make(spec, t, c);
  REQUIRE(std::holds_alternative<SiteInstance>(site));
  auto codes = loadTrampoline(files, symbol, std::get<SiteInstance>(site).trampolineSite());
  if (auto* e = std::get_if<Diagnostics>(&codes)) FAIL(e->front().str());
  std::vector<TrampolineContract> out;
  for (TrampolineCode& code : std::get<std::vector<TrampolineCode>>(codes)) {
    proveTrampoline(code, std::get<SiteInstance>(site), limits);
    out.push_back(code.contract);
  }
  return out;
}

// The replay confirms the very rule the proof broke, with its values: not
// some other violation of the concrete run (it used to jump to 0, the
// callback's address decoded from `lui t9, 0`, and count that).
void checkReplaysItsRule(const Counterexample& cx) {
  const std::string marker = "breaks its contract: ";
  size_t at = cx.rule.find(marker);
  REQUIRE(at != std::string::npos);
  INFO(cx.rule << "\nreplay: " << cx.replayNote);
  CHECK_THAT(cx.replayNote, Contains(cx.rule.substr(at + marker.size())));
  CHECK_THAT(cx.replayNote, !Contains("jumps to 0x0,"));
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
  checkReplaysItsRule(*k.refutation);
  return k;
}

// The refutation names `rules`: one text, or alternatives as "a|b|c".
void checkNames(const std::string& refutation, const std::string& rules) {
  bool named = false;
  for (size_t from = 0; from <= rules.size();) {
    size_t bar = std::min(rules.find('|', from), rules.size());
    named = named || refutation.find(rules.substr(from, bar - from)) != std::string::npos;
    from = bar + 1;
  }
  INFO(refutation << " names none of " << rules);
  CHECK(named);
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
      // A jump through a register holding garbage: to a place outside
      // the trampoline, or first to a misaligned one (an address error).
      {"reload_after_release.S", "jumps to|jump target is not word-aligned"},
      {"jr_ra.S", "jumps to|jump target is not word-aligned"},  // once looped between the callback and itself
  };
  for (const auto& [file, rules] : cases) {
    INFO(file);
    TrampolineContract k = proveBuggy(file);
    checkNames(k.refutation->rule, rules);
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

// ---- arm64: ftrace_caller with CALL_OPS and direct calls, and a direct
// trampoline that returns (trampolines/arm64, docs/trampolines.md "arm64").
namespace {

const Target kArm64 = *targetNamed("arm64");
const Target kArm64Bti = *targetNamed("arm64-bti");

// F as -fpatchable-function-entry=4,2 leaves it: two entry words, three
// with BTI's landing pad first.
Spec callOpsSite(const Target& t) {
  Spec s = specAt(kData + "/specs/trampoline/arm64-call-ops" + (t.variantName() == "arm64-bti" ? "-bti" : "") +
                  ".toml");
  s.trampolineDir = kSource + "/trampolines";
  return s;
}

TrampolineFiles arm64Files(const std::string& assembly, const std::string& contract) {
  return {assembly, kSource + "/trampolines/arm64/" + contract};
}

TrampolineContract proveArm64(const Target& t, const TrampolineFiles& files, const std::string& symbol,
                              const Limits& limits = {}, unsigned work = 0) {
  auto ks = prove(callOpsSite(t), t, files, symbol, limits, work);
  REQUIRE(ks.size() == 1);
  return ks.front();
}

// Z3 resource units (rlimit) per question in refuteArm64: a few seconds of
// one core. wrong_literal.S is refuted on both targets with 10 M; with 3 M
// a question its refutation needs is left undecided.
constexpr unsigned kRefutationWork = 10000000;

TrampolineContract refuteArm64(const Target& t, const std::string& file, const std::string& symbol) {
  std::string contract = symbol + ".toml";
  // A refutation needs no question decided that its own path does not
  // ask: a small budget only drops the undecided ones (wrong_literal.S's
  // ops pointer may be anywhere, and its questions take the full 20 s).
  // The budget is solver work, not time (a 3 s timeout missed questions
  // its path needed on a loaded machine); the timeout is only a backstop.
  Limits quick;
  quick.timeoutMs = 120000;
  TrampolineContract k =
      proveArm64(t, arm64Files(kData + "/trampolines/arm64/" + file, contract), symbol, quick, kRefutationWork);
  CHECK_FALSE(k.proven);
  REQUIRE(k.refutation);
  CHECK(k.refutation->replayed);
  INFO(k.refutation->rule);
  checkReplaysItsRule(*k.refutation);
  return k;
}

}  // namespace

TEST_CASE("arm64 ftrace_caller keeps its CALL_OPS contract with and without BTI", "[trampoline_proof]") {
  for (const Target& t : {kArm64, kArm64Bti}) {
    auto files = resolveTrampoline(callOpsSite(t), "arm64/ftrace_caller.S", t);
    REQUIRE(files);
    TrampolineContract k = proveArm64(t, *files, "ftrace_caller");
    INFO(t.str() << ": " << (k.refutation ? k.refutation->rule : k.unknownReason));
    CHECK(k.proven);
    // ops->direct_call set (hand-over) or not (the tracer is called)
    CHECK(k.proofCounts.paths == 2);
  }
}

TEST_CASE("arm64 ftrace_stub_direct_tramp keeps its contract with and without BTI", "[trampoline_proof]") {
  for (const Target& t : {kArm64, kArm64Bti}) {
    auto files = resolveTrampoline(callOpsSite(t), "arm64/ftrace_stub_direct_tramp.S", t);
    REQUIRE(files);
    TrampolineContract k = proveArm64(t, *files, "ftrace_stub_direct_tramp");
    INFO(t.str() << ": " << (k.refutation ? k.refutation->rule : k.unknownReason));
    CHECK(k.proven);
    CHECK(k.proofCounts.paths == 1);
  }
}

TEST_CASE("a direct trampoline without a landing pad fails only under BTI", "[trampoline_proof]") {
  TrampolineFiles files = arm64Files(kData + "/trampolines/arm64/direct_no_bti.S", "ftrace_stub_direct_tramp.toml");
  CHECK(proveArm64(kArm64, files, "ftrace_stub_direct_tramp").proven);
  TrampolineContract k = refuteArm64(kArm64Bti, "direct_no_bti.S", "ftrace_stub_direct_tramp");
  CHECK_THAT(k.refutation->rule, Contains("branch target (BTI)"));
}

namespace {

// A buggy arm64 ftrace_caller on `targets`: refuted, naming one of `rules`
// (alternatives separated by |).
void refutes(std::initializer_list<Target> targets, const char* file, const char* rules) {
  for (const Target& t : targets) {
    INFO(t.str() << " " << file);
    TrampolineContract k = refuteArm64(t, file, "ftrace_caller");
    checkNames(k.refutation->rule, rules);
  }
}

// The struct read from the wrong place: its func and direct_call are
// garbage too, so the run may first jump through one of them (elsewhere, or
// misaligned) rather than call with a wrong x2.
const char* const kWrongLiteralRules = "ops argument (x2)|jumps to|branch target is not 4-byte aligned";

}  // namespace

// Their own ctest entries (tests/CMakeLists.txt): each buggy ftrace_caller
// takes tens of seconds, wrong_literal.S the most (its ops pointer may be
// anywhere, frame included: one entry per target), so they run beside the
// other tests rather than after them.
TEST_CASE("every buggy arm64 ftrace_caller fails its proof, naming the broken rule", "[trampoline_proof_arm64_bugs]") {
  refutes({kArm64, kArm64Bti}, "br_x10.S", "with btype = 0x3, which its entry does not accept");
  refutes({kArm64, kArm64Bti}, "ops_not_passed.S", "ops argument (x2)");
  refutes({kArm64, kArm64Bti}, "no_lr_restore.S", "x30 is not restored");
}

TEST_CASE("an arm64 ftrace_caller that loads ops from the wrong literal fails its proof",
          "[trampoline_proof_arm64_bugs_literal]") {
  refutes({kArm64}, "wrong_literal.S", kWrongLiteralRules);
}

TEST_CASE("an arm64 ftrace_caller that loads ops from the wrong literal fails its proof under BTI",
          "[trampoline_proof_arm64_bugs_literal_bti]") {
  refutes({kArm64Bti}, "wrong_literal.S", kWrongLiteralRules);
}

TEST_CASE("a CALL_OPS contract needs its direct trampoline's contract and a callback", "[trampoline_proof]") {
  auto parsed = parseContractFile("schema = 1\nsymbol = \"t\"\nisa = [\"arm64\"]\nabi = [\"lp64\"]\n"
                                  "[[entry]]\nresume = \"x30\"\nvalues = { btype = 1 }\n"
                                  "[call_ops]\nliteral = -8\nops = \"o\"\nfunc = 0\ndirect_call = 184\n",
                                  "t.toml");
  REQUIRE(std::holds_alternative<Diagnostics>(parsed));
  std::string all;
  for (const Diagnostic& d : std::get<Diagnostics>(parsed)) all += d.str() + "\n";
  CHECK_THAT(all, Contains("t.toml:7:20: error: values of 'btype' must be a non-empty array"));
  CHECK_THAT(all, Contains("needs all or none of direct_call, direct and direct_contract"));
  CHECK_THAT(all, Contains("[call_ops] needs a [callback]"));
}

TEST_CASE("a trampoline replay confirms only the rule it reproduces", "[trampoline_proof]") {
  z3::context c;
  z3::solver solver(c);
  REQUIRE(solver.check() == z3::sat);
  z3::model m = solver.get_model();
  TrampolineOutcome run;
  run.violations.push_back(Violation{c.bool_val(true), [](const z3::model&) { return "jumps to 0x0"; }});
  run.violations.push_back(Violation{c.bool_val(false), [](const z3::model&) { return "s0 is not restored"; }});
  bool same = true;
  // Another rule broken on the replay's way: not this counterexample.
  std::string note = replayVerdict(run, m, "s0 is not restored", same);
  CHECK_FALSE(same);
  CHECK_THAT(note, Contains("breaks another rule (jumps to 0x0), not this one"));
  note = replayVerdict(run, m, "jumps to 0x0", same);
  CHECK(same);
  CHECK_THAT(note, Contains("breaks: jumps to 0x0"));
  run.violations.erase(run.violations.begin());
  CHECK_THAT(replayVerdict(run, m, "jumps to 0x0", same), Contains("keeps its contract"));
  CHECK_FALSE(same);
  CHECK_THAT(replayVerdict(std::nullopt, m, "jumps to 0x0", same), Contains("takes another path"));
  CHECK_FALSE(same);
}
