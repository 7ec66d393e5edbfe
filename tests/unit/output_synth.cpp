// Synthesis of safe orders. Expected orders come from the hand-derived
// orders in the shipped specs (FACTS.md "The proposed patchable-entry
// scheme"; the reasoning in specs/mips/patchable-entry-livepatch.toml), not
// from synthesis output; the no-order case is constructed so that each
// single write moves sp (a fault by the spec format's behaviours).
#include <catch2/catch.hpp>

#include "checker/spec/FetchRegistry.h"
#include "checker/explore/Synthesis.h"
#include "checker/spec/Spec.h"

using namespace patchcheck;

namespace {

const std::string kSpecs = std::string(PATCHCHECK_SOURCE_DIR) + "/specs/mips/";
const std::string kData = std::string(PATCHCHECK_TEST_DATA) + "/outputs/";

Spec load(const std::string& path) {
  auto r = loadSpec(path);
  REQUIRE(std::holds_alternative<Spec>(r));
  return std::get<Spec>(std::move(r));
}

SynthResult synth(const Spec& spec, z3::context& ctx, const std::string& tr, bool all = false) {
  auto site = SiteInstance::make(spec, spec.target, ctx);
  REQUIRE(std::holds_alternative<SiteInstance>(site));
  SynthOptions o;
  o.all = all;
  auto r = synthesize(std::get<SiteInstance>(site), tr, o);
  REQUIRE(std::holds_alternative<SynthResult>(r));
  return std::get<SynthResult>(r);
}

unsigned writes(const std::vector<StepSpec>& steps) {
  unsigned n = 0;
  for (const StepSpec& s : steps) n += s.kind == StepSpec::Kind::Write;
  return n;
}

}  // namespace

TEST_CASE("synth finds an order no longer than the hand-written one for every patchable-entry transition",
          "[output_synth]") {
  Spec spec = load(kSpecs + "patchable-entry.toml");
  for (const TransitionSpec& t : spec.transitions) {
    if (t.when != When::Live) continue;
    INFO(t.name());
    z3::context ctx;
    SynthResult r = synth(spec, ctx, t.name());
    REQUIRE(!r.orders.empty());
    const SafeOrder& o = r.orders.front();
    CHECK(o.proof.verdict == Verdict::Safe);
    CHECK(writes(o.steps) == writes(t.steps));  // single-word writes of the words that differ
    CHECK(o.steps.size() <= t.steps.size());
    CHECK(o.steps.back().kind == StepSpec::Kind::Flush);
    // A transition that changes one word: that write, then the flush.
    if (writes(t.steps) == 1) CHECK(stepsText(o.steps) == stepsText(t.steps));
  }
}

TEST_CASE("synth derives the live-patching order with its flushes and waits", "[output_synth]") {
  Spec spec = load(kSpecs + "patchable-entry-livepatch.toml");
  z3::context ctx;
  SynthResult r = synth(spec, ctx, "disabled->livepatch");
  REQUIRE(!r.orders.empty());
  // The spec's order, argued by hand: lui, then addiu, then the jr, each
  // behind a flush and a wait.
  CHECK(stepsText(r.orders.front().steps) == stepsText(spec.transitions.front().steps));
  CHECK(r.pruned > 0);  // the cheaper orders were refuted, not skipped
}

// synth closes an order by the check's own publication rule
// (docs/model.md "Publication"): under sc a done write is published, so no
// final flush; under weak a flush must follow the last write.
TEST_CASE("synth ends an order with a flush only when publication needs it", "[output_synth]") {
  Spec spec = load(std::string(PATCHCHECK_TEST_DATA) + "/specs/model/sc-vs-weak.toml");
  REQUIRE(spec.model.fetch->name() == "sc");
  {
    z3::context ctx;
    SynthResult r = synth(spec, ctx, "off->on");
    REQUIRE(!r.orders.empty());
    CHECK(stepsText(r.orders.front().steps) == "write 2, write 1");  // sc: in program order, nothing after
    CHECK(r.orders.front().proof.verdict == Verdict::Safe);
  }
  spec.transitions.front().publish = Publish::Synchronised;
  {
    z3::context ctx;
    SynthResult r = synth(spec, ctx, "off->on");
    REQUIRE(!r.orders.empty());
    CHECK(stepsText(r.orders.front().steps) == "write 2, write 1, flush");  // the flush's IPIs
    CHECK(r.orders.front().proof.verdict == Verdict::Safe);
  }
  spec.model.fetch = fetchModelNamed("weak");
  spec.transitions.front().publish = Publish::Eventually;
  {
    z3::context ctx;
    SynthResult r = synth(spec, ctx, "off->on");
    REQUIRE(!r.orders.empty());
    CHECK(stepsText(r.orders.front().steps) == "write 2, sync, write 1, flush");  // the sync orders, the flush publishes
  }
}

TEST_CASE("synth proves that no order exists when each single write breaks a pass", "[output_synth]") {
  Spec spec = load(kData + "no-safe-order.toml");
  z3::context ctx;
  SynthResult r = synth(spec, ctx, "plain->framed", true);
  CHECK(r.orders.empty());
  CHECK_FALSE(r.undecided);
  REQUIRE(r.failures.size() == 2);
  for (const FirstWriteFailure& f : r.failures) {
    CHECK(f.explored);
    REQUIRE(f.counterexample);
    CHECK(f.counterexample->rule.find("sp") != std::string::npos);
    CHECK(f.prefix.size() == 1);  // the first write alone already breaks
  }
  CHECK(r.prefixesChecked == 2);  // pruning: nothing was extended
  CHECK(r.ordersChecked == 0);
}

TEST_CASE("synth rejects unknown states and identical states", "[output_synth]") {
  Spec spec = load(kSpecs + "patchable-entry.toml");
  z3::context ctx;
  auto site = SiteInstance::make(spec, spec.target, ctx);
  REQUIRE(std::holds_alternative<SiteInstance>(site));
  CHECK(std::holds_alternative<Diagnostics>(synthesize(std::get<SiteInstance>(site), "nop->nowhere", {})));
  CHECK(std::holds_alternative<Diagnostics>(synthesize(std::get<SiteInstance>(site), "regs", {})));
  CHECK(std::holds_alternative<Diagnostics>(synthesize(std::get<SiteInstance>(site), "regs->regs", {})));
}
