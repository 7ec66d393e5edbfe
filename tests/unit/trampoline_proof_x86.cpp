// The modular trampoline proof on x86-64 (docs/trampolines.md "x86-64"):
// the resume address lies in the slot F's call pushed, not in a register.
// Linux's ftrace_caller, ftrace_regs_caller (with livepatch's regs->ip and
// a direct call's ORIG_RAX) and ftrace_stub_direct_tramp keep their
// contracts; buggy copies (tests/data/trampolines/x86/) fail with a
// replayed counterexample that names the broken rule.
#include <catch2/catch.hpp>

#include "checker/explore/CheckRun.h"
#include "checker/explore/SiteInstance.h"
#include "checker/explore/TrampolineProof.h"
#include "checker/explore/Trampolines.h"
#include "checker/spec/ContractFile.h"
#include "encoder/Hex.h"
#include "encoder/IsaRegistry.h"

using namespace patchcheck;
using Catch::Matchers::Contains;

namespace {

const std::string kData = PATCHCHECK_TEST_DATA;
const std::string kSource = PATCHCHECK_SOURCE_DIR;
const Target kX86 = *targetNamed("x86_64");

// The shipped x86 spec: F's 5-byte site calling each trampoline.
Spec ftraceSpec() {
  auto s = loadSpec(kSource + "/specs/x86/ftrace.toml");
  REQUIRE(std::holds_alternative<Spec>(s));
  return std::get<Spec>(s);
}

TrampolineFiles shipped(const std::string& name) {
  return {kSource + "/trampolines/x86/" + name + ".S", kSource + "/trampolines/x86/" + name + ".toml"};
}

// A buggy copy of a shipped trampoline, proven against the shipped contract.
TrampolineFiles buggy(const std::string& file, const std::string& symbol) {
  return {kData + "/trampolines/x86/" + file, kSource + "/trampolines/x86/" + symbol + ".toml"};
}

TrampolineContract prove(const TrampolineFiles& files, const std::string& symbol, const Limits& limits = {}) {
  z3::context c;
  Spec spec = ftraceSpec();
  auto site = SiteInstance::make(spec, kX86, c);
  REQUIRE(std::holds_alternative<SiteInstance>(site));
  auto codes = loadTrampoline(files, symbol, std::get<SiteInstance>(site).trampolineSite());
  if (auto* e = std::get_if<Diagnostics>(&codes)) FAIL(e->front().str());
  auto& all = std::get<std::vector<TrampolineCode>>(codes);
  REQUIRE(all.size() == 1);
  proveTrampoline(all.front(), std::get<SiteInstance>(site), limits);
  return all.front().contract;
}

void checkProven(const TrampolineContract& k, unsigned paths) {
  INFO(k.key() << ": " << (k.refutation ? k.refutation->rule : k.unknownReason));
  CHECK(k.proven);
  CHECK(k.proofCounts.paths == paths);
}

TrampolineContract refute(const std::string& file, const std::string& symbol) {
  TrampolineContract k = prove(buggy(file, symbol), symbol);
  CHECK_FALSE(k.proven);
  REQUIRE(k.refutation);
  INFO(k.refutation->rule);
  CHECK(k.refutation->replayed);
  CHECK_FALSE(k.refutation->trace.empty());
  // The replay reproduces the rule the proof broke, not another one.
  const std::string marker = "breaks its contract: ";
  size_t at = k.refutation->rule.find(marker);
  REQUIRE(at != std::string::npos);
  CHECK_THAT(k.refutation->replayNote, Catch::Matchers::Contains(k.refutation->rule.substr(at + marker.size())));
  return k;
}

}  // namespace

TEST_CASE("x86 ftrace_caller keeps its contract", "[trampoline_proof_x86]") {
  // The tracer leaves regs->ip alone (resume at F + 5) or sets it
  // (enter klp_new_func).
  checkProven(prove(shipped("ftrace_caller"), "ftrace_caller"), 2);
}

TEST_CASE("x86 ftrace_regs_caller keeps its contract", "[trampoline_proof_x86]") {
  // Three ways out: F + 5, the livepatch's new function (regs->ip), the
  // direct trampoline (ORIG_RAX) with F + 5 left on the stack.
  checkProven(prove(shipped("ftrace_regs_caller"), "ftrace_regs_caller"), 3);
}

TEST_CASE("x86 ftrace_stub_direct_tramp keeps its contract", "[trampoline_proof_x86]") {
  checkProven(prove(shipped("ftrace_stub_direct_tramp"), "ftrace_stub_direct_tramp"), 1);
}

// Deliberately buggy copies (tests/data/trampolines/x86/, each file's
// header says its bug) and what the refutation must name ("a|b": either).
TEST_CASE("every buggy x86 trampoline fails its proof, naming the broken rule", "[trampoline_proof_x86]") {
  const std::tuple<const char*, const char*, const char*> cases[] = {
      {"no_rdx_restore.S", "ftrace_caller", "rdx is not restored"},
      // ret pops the wrong slot: F + 5's neighbour, or F + 5 with rsp off
      {"wrong_stack_adjust.S", "ftrace_caller", "jumps to|rsp is not restored"},
      {"rax_after_restore.S", "ftrace_caller", "rax is not restored"},
      {"wrong_parent.S", "ftrace_caller", "parent ip argument (rsi)"},
      {"rip_above_sp.S", "ftrace_caller", "at or above F's entry sp"},
      // The kernel's exception entry saves its frame below rsp at any
      // instruction boundary (model/x86_64/ExceptionEntry.h).
      {"save_below_sp.S", "ftrace_caller", "pt_regs' rax|rax is not restored"},
      {"ignores_rip.S", "ftrace_regs_caller", "but the tracer's frame says"},
      {"direct_full_restore.S", "ftrace_regs_caller", "but the tracer's frame says|sysflags|jumps to"},
      // The flag's values as the counterexample holds them (a flag is a
      // Boolean term: it once printed 0x0 on both sides).
      {"sets_df.S", "ftrace_stub_direct_tramp", "df is not restored: 0x0 at F's entry, 0x1 at the resume address"},
  };
  for (const auto& [file, symbol, rules] : cases) {
    INFO(file);
    TrampolineContract k = refute(file, symbol);
    bool named = false;
    std::string all = rules;
    for (size_t from = 0; from <= all.size();) {
      size_t bar = std::min(all.find('|', from), all.size());
      named = named || k.refutation->rule.find(all.substr(from, bar - from)) != std::string::npos;
      from = bar + 1;
    }
    INFO(k.refutation->rule << " names none of " << rules);
    CHECK(named);
  }
}

// The site side: `call T` at F meets T's contract when F's call pushed the
// resume address at F's rsp - 8 (modular), and running T's code inside
// each pass (--inline-trampolines) agrees.
TEST_CASE("the x86 ftrace spec is proven with the trampolines' contracts and inline", "[trampoline_proof_x86]") {
  Spec spec = ftraceSpec();
  for (bool inlined : {false, true}) {
    CheckOptions options;
    options.inlineTrampolines = inlined;
    auto r = checkTargets(spec, {kX86}, options, RunControl{1, nullptr});
    if (auto* e = std::get_if<Diagnostics>(&r)) FAIL(e->front().str());
    const SpecResult& result = std::get<std::vector<SpecResult>>(r).front();
    REQUIRE(result.trampolines.size() == 3);
    for (const TrampolineResult& t : result.trampolines) {
      INFO(t.entry << ": " << (t.counterexample ? t.counterexample->rule : t.unknownReason));
      CHECK(t.verdict == Verdict::Safe);
    }
    for (const StateResult& s : result.states) {
      INFO(s.state << (inlined ? " inline" : ""));
      CHECK(s.verdict == Verdict::Safe);
    }
    REQUIRE(result.transitions.size() == 4);
    for (const TransitionResult& t : result.transitions) {
      INFO(t.transition << (inlined ? " inline: " : ": ") << (t.counterexample ? t.counterexample->rule : t.unknownReason));
      CHECK(t.verdict == Verdict::Safe);
    }
  }
}

TEST_CASE("an x86 site that jumps to a trampoline breaks its contract's [rsp]", "[trampoline_proof_x86]") {
  auto parsed = parseSpec("schema = 1\n[target]\nisa = \"x86_64\"\n[site]\nbytes = 5\n[symbols]\n"
                          "F = { in = \"kernel-text\", align = 16 }\n"
                          "ftrace_stub_direct_tramp = { in = \"kernel-text\", align = 16 }\n"
                          "[trampolines]\nftrace_stub_direct_tramp = \"x86/ftrace_stub_direct_tramp.S\"\n"
                          "[states]\njmp = [\"jmp ftrace_stub_direct_tramp\"]\n"
                          "[behaviour]\njmp = \"call ftrace_stub_direct_tramp\"\n",
                          "jmp.toml");
  REQUIRE(std::holds_alternative<Spec>(parsed));
  Spec spec = std::get<Spec>(parsed);
  spec.trampolineDir = kSource + "/trampolines";
  auto r = checkTargets(spec, {kX86}, CheckOptions{}, RunControl{1, nullptr});
  if (auto* e = std::get_if<Diagnostics>(&r)) FAIL(e->front().str());
  const SpecResult& result = std::get<std::vector<SpecResult>>(r).front();
  REQUIRE(result.trampolines.size() == 1);
  CHECK(result.trampolines.front().verdict == Verdict::Safe);
  REQUIRE(result.states.size() == 1);
  CHECK(result.states.front().verdict == Verdict::Unsafe);
  REQUIRE(result.states.front().counterexample);
  CHECK_THAT(result.states.front().counterexample->rule,
             Contains("not one return-address slot below the entry rsp"));
}

TEST_CASE("x86 contract errors: a resume slot and the tracer's writes", "[trampoline_proof_x86]") {
  auto errors = [](const std::string& text) {
    auto parsed = parseContractFile(text, "t.toml");
    REQUIRE(std::holds_alternative<Diagnostics>(parsed));
    std::string all;
    for (const Diagnostic& d : std::get<Diagnostics>(parsed)) all += d.str() + "\n";
    return all;
  };
  const std::string head = "schema = 1\nsymbol = \"t\"\nisa = [\"x86_64\"]\nabi = [\"sysv\"]\n";
  CHECK_THAT(errors(head + "[[entry]]\nresume = \"[rsp\"\n"),
             Contains("t.toml:6:10: error: resume must be a register or a stack slot"));
  CHECK_THAT(errors(head + "[[entry]]\nresume = \"[rsp+x]\"\n"), Contains("resume must be a register or a stack slot"));
  std::string writes = errors(head + "[[entry]]\nresume = \"[rsp]\"\n[callback]\nsymbol = \"f\"\nip = -5\n"
                                     "[[callback.writes]]\nat = 128\n[[callback.writes]]\nat = 120\ndirect = \"d\"\n");
  CHECK_THAT(writes, Contains("needs exactly one of 'enter' and 'direct'"));
  CHECK_THAT(writes, Contains("a 'direct' write needs 'direct_contract'"));
  CHECK_THAT(writes, Contains("[[callback.writes]] needs 'regs = true'"));

  // A slot at another register than the stack pointer: known only per target.
  z3::context c;
  Spec spec = ftraceSpec();
  auto site = SiteInstance::make(spec, kX86, c);
  REQUIRE(std::holds_alternative<SiteInstance>(site));
  std::string dir = kData + "/trampolines/x86/";
  auto codes = loadTrampoline({kSource + "/trampolines/x86/ftrace_stub_direct_tramp.S", dir + "slot_at_rax.toml"},
                              "ftrace_stub_direct_tramp", std::get<SiteInstance>(site).trampolineSite());
  REQUIRE(std::holds_alternative<Diagnostics>(codes));
  CHECK_THAT(std::get<Diagnostics>(codes).front().message, Contains("a resume slot must be at the stack pointer, not at 'rax'"));
}
