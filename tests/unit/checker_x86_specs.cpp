// Hand-made x86-64 byte-site specs (tests/data/specs/x86/*.toml), each
// transition's verdict argued in its file's header and claimed by its
// `expect`: every transition must carry a claim and meet it, and every
// UNSAFE one must come with a counterexample the concrete replay
// confirmed. What a torn counterexample shows is checked on its own.
#include <catch2/catch.hpp>

#include <filesystem>

#include "checker/explore/Checker.h"

using namespace patchcheck;
namespace fs = std::filesystem;

namespace {

const std::string kX86 = std::string(PATCHCHECK_TEST_DATA) + "/specs/x86/";

Spec load(const std::string& path) {
  auto r = loadSpec(path);
  if (auto* errors = std::get_if<Diagnostics>(&r)) {
    std::string all;
    for (const Diagnostic& d : *errors) all += d.str() + "\n";
    FAIL(all);
  }
  return std::get<Spec>(std::move(r));
}

SpecResult check(const Spec& spec) {
  z3::context ctx;
  CheckOptions opt;
  auto r = checkSpec(spec, spec.target, ctx, opt);
  REQUIRE(std::holds_alternative<SpecResult>(r));
  return std::get<SpecResult>(std::move(r));
}

}  // namespace

TEST_CASE("x86 byte-site specs: each transition meets its claim, refutations replayed", "[checker_x86_specs]") {
  unsigned files = 0, safe = 0, unsafe = 0;
  for (const auto& entry : fs::directory_iterator(kX86)) {
    if (entry.path().extension() != ".toml") continue;
    ++files;
    INFO(entry.path().filename().string());
    Spec spec = load(entry.path().string());
    SpecResult r = check(spec);
    REQUIRE(r.transitions.size() == spec.transitions.size());
    for (const TransitionResult& t : r.transitions) {
      INFO(t.transition << ": " << (t.counterexample ? t.counterexample->rule : std::string("no counterexample")));
      REQUIRE(t.expect);
      CHECK(t.expectationMet());
      if (t.verdict == Verdict::Unsafe) {
        ++unsafe;
        REQUIRE(t.counterexample);
        CHECK(t.counterexample->replayed);
      } else if (t.verdict == Verdict::Safe) {
        ++safe;
      }
    }
  }
  CHECK(files >= 5);
  CHECK(safe >= 2);
  CHECK(unsafe >= 4);
}

TEST_CASE("x86: a torn fetch names which bytes were old and which new", "[checker_x86_specs]") {
  SpecResult r = check(load(kX86 + "int3-second-byte.toml"));
  REQUIRE(r.transitions.size() == 1);
  const TransitionResult& t = r.transitions[0];
  REQUIRE(t.verdict == Verdict::Unsafe);
  REQUIRE(t.counterexample);
  const Counterexample& cx = *t.counterexample;
  // The old opcode byte 0f with the breakpoint read as its second byte.
  REQUIRE(!cx.trace.empty());
  CHECK(cx.trace[0].encoding == "0f cc");
  CHECK(cx.trace[0].origin.find("old interim 'int3'") != std::string::npos);
  bool old0 = false, int3at1 = false;
  for (const FetchEvent& f : cx.schedule) {
    old0 |= f.word == 0 && f.version == "old";
    int3at1 |= f.word == 1 && f.version == "interim 'int3'";
  }
  CHECK(old0);
  CHECK(int3at1);
}

TEST_CASE("x86: the breakpoint handler is part of the spec", "[checker_x86_specs]") {
  Spec spec = load(kX86 + "int3-minimal.toml");
  REQUIRE(spec.transitions.size() >= 1);
  spec.transitions.resize(1);  // nop->call with text_poke_bp: proven with the emulating handler
  CHECK(check(spec).transitions[0].verdict == Verdict::Safe);
  // Skipping the site is what the nop does: still SAFE for an enable.
  spec.model.breakpoint = ModelSpec::Breakpoint::Skip;
  CHECK(check(spec).transitions[0].verdict == Verdict::Safe);
  // No handler: the breakpoint is a fault.
  spec.model.breakpoint = ModelSpec::Breakpoint::None;
  SpecResult none = check(spec);
  REQUIRE(none.transitions[0].verdict == Verdict::Unsafe);
  CHECK(none.transitions[0].counterexample->rule.find("#BP") != std::string::npos);
}
