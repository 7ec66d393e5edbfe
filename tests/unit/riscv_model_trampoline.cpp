// The RISC-V trampolines (trampolines/riscv, docs/trampolines.md
// "riscv"): Linux 6.16's CALL_OPS ftrace_caller and the direct trampoline
// keep their contracts, with and without the C extension (the assembler
// compresses what it can when C is on, so the two are different code);
// copies with a deliberate bug (tests/data/trampolines/riscv/) are
// refuted with a replayed counterexample naming the broken rule.
#include <catch2/catch.hpp>

#include <string>

#include "checker/explore/Checker.h"
#include "checker/explore/TrampolineProof.h"
#include "checker/explore/Trampolines.h"
#include "encoder/IsaRegistry.h"

using namespace patchcheck;

namespace {

const std::string kData = PATCHCHECK_TEST_DATA;
const std::string kSource = PATCHCHECK_SOURCE_DIR;

Spec callOpsSite() {
  auto s = loadSpec(kData + "/specs/trampoline/riscv-call-ops.toml");
  if (auto* e = std::get_if<Diagnostics>(&s)) FAIL(e->front().str());
  Spec spec = std::get<Spec>(s);
  spec.trampolineDir = kSource + "/trampolines";
  return spec;
}

TrampolineContract proveFiles(const Target& t, const TrampolineFiles& files, const std::string& symbol) {
  Spec spec = callOpsSite();
  z3::context c;
  auto site = SiteInstance::make(spec, t, c);
  if (auto* e = std::get_if<Diagnostics>(&site)) FAIL(e->front().str());
  auto codes = loadTrampoline(files, symbol, std::get<SiteInstance>(site).trampolineSite());
  if (auto* e = std::get_if<Diagnostics>(&codes)) FAIL(e->front().str());
  auto& all = std::get<std::vector<TrampolineCode>>(codes);
  REQUIRE(all.size() == 1);
  proveTrampoline(all.front(), std::get<SiteInstance>(site), Limits{});
  return all.front().contract;
}

TrampolineContract prove(const Target& t, const std::string& file, const std::string& symbol) {
  auto files = resolveTrampoline(callOpsSite(), file, t);
  REQUIRE(files);
  return proveFiles(t, *files, symbol);
}

}  // namespace

TEST_CASE("riscv ftrace_caller keeps its CALL_OPS contract with and without C", "[riscv_model_trampoline]") {
  for (const char* v : {"rv64imac", "rv64ima"}) {
    Target t = *targetNamed(v);
    TrampolineContract k = prove(t, "riscv/ftrace_caller.S", "ftrace_caller");
    INFO(t.str() << ": " << (k.refutation ? k.refutation->rule : k.unknownReason));
    CHECK(k.proven);
    // ops->direct_call set (hand-over) or not (the tracer is called)
    CHECK(k.proofCounts.paths == 2);
  }
}

TEST_CASE("riscv ftrace_stub_direct_tramp keeps its contract", "[riscv_model_trampoline]") {
  for (const char* v : {"rv64imac", "rv64ima"}) {
    Target t = *targetNamed(v);
    TrampolineContract k = prove(t, "riscv/ftrace_stub_direct_tramp.S", "ftrace_stub_direct_tramp");
    INFO(t.str() << ": " << (k.refutation ? k.refutation->rule : k.unknownReason));
    CHECK(k.proven);
    CHECK(k.proofCounts.paths == 1);
  }
}

TEST_CASE("every buggy riscv ftrace_caller fails its proof, naming the broken rule", "[riscv_model_trampoline]") {
  struct Bug {
    const char* file;
    const char* rule;
  };
  for (Bug b : {Bug{"no_ra_restore.S", "ra is not restored"}, Bug{"wrong_ip.S", "the ip argument (a0)"},
                Bug{"ops_not_reloaded.S", "the ops argument (a2)"}, Bug{"frame_too_small.S", "sp is not restored"}}) {
    for (const char* v : {"rv64imac", "rv64ima"}) {
      Target t = *targetNamed(v);
      TrampolineFiles files{kData + "/trampolines/riscv/" + b.file, kSource + "/trampolines/riscv/ftrace_caller.toml"};
      TrampolineContract k = proveFiles(t, files, "ftrace_caller");
      INFO(t.str() << " " << b.file);
      CHECK_FALSE(k.proven);
      REQUIRE(k.refutation);
      CHECK(k.refutation->replayed);
      CHECK_THAT(k.refutation->rule, Catch::Matchers::Contains(b.rule));
    }
  }
}
