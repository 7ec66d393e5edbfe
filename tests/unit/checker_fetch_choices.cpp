// Symbolic fetch choices (checker/explore/FetchChoices.h): merging the
// executions of one fetch must reach the same verdicts as explicit
// enumeration, with one path where explicit takes 2^k, and counterexamples
// that still name each fetched version and replay.
// tests/data/specs/choices/*.toml argue their verdicts in their headers.
#include <catch2/catch.hpp>

#include "checker/explore/Checker.h"

using namespace patchcheck;

namespace {

const std::string kData = std::string(PATCHCHECK_TEST_DATA) + "/specs/";

Spec load(const std::string& file) {
  auto r = loadSpec(kData + file);
  if (auto* errors = std::get_if<Diagnostics>(&r)) {
    std::string all;
    for (const Diagnostic& d : *errors) all += d.str() + "\n";
    FAIL(all);
  }
  return std::get<Spec>(std::move(r));
}

SpecResult check(const Spec& spec, FetchChoices choices) {
  z3::context ctx;
  CheckOptions opt;
  opt.fetchChoices = choices;
  auto r = checkSpec(spec, spec.target, ctx, opt);
  REQUIRE(std::holds_alternative<SpecResult>(r));
  return std::get<SpecResult>(std::move(r));
}

}  // namespace

TEST_CASE("ten words in one barrier group: one path merged, 1024 explicit, SAFE both ways", "[checker_fetch_choices]") {
  for (const char* file : {"choices/weak-ten-words.toml", "choices/stale-ten-words.toml"}) {
    INFO(file);
    Spec spec = load(file);
    SpecResult merged = check(spec, FetchChoices::Symbolic);
    REQUIRE(merged.transitions.size() == 1);
    CHECK(merged.transitions[0].verdict == Verdict::Safe);
    CHECK(merged.transitions[0].counts.paths == 1);
    CHECK(merged.transitions[0].counts.witnessedStates == merged.transitions[0].counts.intermediateStates);
    // Auto switches to merging past its cap: the same single path.
    SpecResult automatic = check(spec, FetchChoices::Auto);
    CHECK(automatic.transitions[0].verdict == Verdict::Safe);
    CHECK(automatic.transitions[0].counts.paths == 1);
  }
  SpecResult plain = check(load("choices/weak-ten-words.toml"), FetchChoices::Explicit);
  CHECK(plain.transitions[0].verdict == Verdict::Safe);
  CHECK(plain.transitions[0].counts.paths == 1024);
}

TEST_CASE("a merged counterexample names each version and replays", "[checker_fetch_choices]") {
  Spec spec = load("choices/weak-torn-call.toml");
  for (FetchChoices choices : {FetchChoices::Symbolic, FetchChoices::Explicit}) {
    SpecResult r = check(spec, choices);
    REQUIRE(r.transitions.size() == 1);
    const TransitionResult& t = r.transitions[0];
    REQUIRE(t.verdict == Verdict::Unsafe);
    REQUIRE(t.counterexample);
    INFO(t.counterexample->rule << "\n" << t.counterexample->replayNote);
    CHECK(t.counterexample->replayed);
    // A merged fetch is reported as the version the model chose, never as
    // a choice term.
    bool oldHead = false, newJal = false;
    for (const FetchEvent& f : t.counterexample->schedule) {
      CHECK((f.version == "old" || f.version == "new" || f.version == "old/new"));
      if (f.word <= 1 && f.version == "old") oldHead = true;
      if (f.word == 8 && f.version == "new") newJal = true;
    }
    CHECK(oldHead);
    CHECK(newJal);
  }
}

// The model specs (tests/data/specs/model) under both ways: every state
// and transition verdict the same. Left out: expect-mismatch.toml and
// stop-machine-stale.toml, where a pass jumps through a register the
// merge made an ite of several images and so reaches every site word
// in every mix: correct but minutes long symbolically, which is why Auto
// caps the symbolic run too (FetchChoices.h).
TEST_CASE("model specs: symbolic verdicts equal explicit ones", "[checker_fetch_choices]") {
  for (const char* file : {"allow.toml", "arm-cmodx.toml", "arm-floor.toml", "call-offset.toml", "delay-slot-interrupt.toml",
                           "flush-stale.toml", "sc-vs-weak.toml", "stale-line.toml", "stop-machine-preemption.toml",
                           "wait-enter.toml"}) {
    INFO(file);
    Spec spec = load(std::string("model/") + file);
    SpecResult a = check(spec, FetchChoices::Explicit), b = check(spec, FetchChoices::Symbolic);
    REQUIRE(a.transitions.size() == b.transitions.size());
    for (size_t k = 0; k < a.transitions.size(); ++k) {
      INFO(a.transitions[k].transition);
      CHECK(a.transitions[k].verdict == b.transitions[k].verdict);
    }
    REQUIRE(a.states.size() == b.states.size());
    for (size_t k = 0; k < a.states.size(); ++k) CHECK(a.states[k].verdict == b.states[k].verdict);
  }
}
