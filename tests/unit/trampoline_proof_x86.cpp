// The modular trampoline proof on x86-64 (docs/trampolines.md "x86-64"):
// the resume address lies in the slot F's call pushed, not in a register.
// Linux's ftrace_caller, ftrace_regs_caller (with livepatch's regs->ip and
// a direct call's ORIG_RAX) and ftrace_stub_direct_tramp keep their
// contracts; buggy copies (tests/data/trampolines/x86/) fail with a
// replayed counterexample that names the broken rule.
#include <catch2/catch.hpp>

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
