// Hand-made small specs (tests/data/specs/model/*.toml) with verdicts argued
// from DESIGN.md's model in each file's header comment; where the comment
// says "the test flips it", the test changes that one knob of the loaded spec
// and expects the other verdict. Every UNSAFE verdict that comes from an
// execution must carry a counterexample that the concrete replay confirmed.
#include <catch2/catch.hpp>

#include <sstream>

#include "checker/spec/FetchRegistry.h"
#include "checker/explore/Checker.h"
#include "checker/report/Report.h"

using namespace patchcheck;

namespace {

const std::string kModel = std::string(PATCHCHECK_TEST_DATA) + "/specs/model/";

Spec load(const std::string& file) {
  auto r = loadSpec(kModel + file);
  if (auto* errors = std::get_if<Diagnostics>(&r)) {
    std::string all;
    for (const Diagnostic& d : *errors) all += d.str() + "\n";
    FAIL(all);
  }
  return std::get<Spec>(std::move(r));
}

// Counterexamples that are not executions (nothing to replay).
bool structural(const Counterexample& cx) {
  return cx.rule.find("the steps do not end in") == 0 || cx.rule.find("but no pass does") != std::string::npos ||
         cx.rule.find("not published: ") == 0 || cx.rule.find("not synchronised ") == 0;  // the writer's steps alone
}

void requireReplayed(const std::optional<Counterexample>& cx, const std::string& what) {
  INFO(what);
  REQUIRE(cx);
  INFO("rule: " << cx->rule << "\nreplay: " << cx->replayNote);
  CHECK(!cx->rule.empty());
  if (!structural(*cx)) CHECK(cx->replayed);
}

SpecResult check(const Spec& spec) {
  z3::context ctx;
  CheckOptions opt;
  auto r = checkSpec(spec, spec.target, ctx, opt);
  if (auto* errors = std::get_if<Diagnostics>(&r)) {
    std::string all;
    for (const Diagnostic& d : *errors) all += d.str() + "\n";
    FAIL(all);
  }
  SpecResult out = std::get<SpecResult>(std::move(r));
  for (const StateResult& s : out.states)
    if (s.verdict == Verdict::Unsafe) requireReplayed(s.counterexample, "state " + s.state);
  for (const TransitionResult& t : out.transitions)
    if (t.verdict == Verdict::Unsafe) requireReplayed(t.counterexample, "transition " + t.transition);
  return out;
}

const TransitionResult& transition(const SpecResult& r, const std::string& name) {
  for (const TransitionResult& t : r.transitions)
    if (t.transition == name) return t;
  FAIL("no transition " << name);
  throw;
}

const StateResult& state(const SpecResult& r, const std::string& name) {
  for (const StateResult& s : r.states)
    if (s.state == name) return s;
  FAIL("no state " << name);
  throw;
}

Verdict verdictOf(const SpecResult& r, const std::string& name) { return transition(r, name).verdict; }

void allStatesSafe(const SpecResult& r) {
  for (const StateResult& s : r.states) {
    INFO("state " << s.state << (s.counterexample ? ": " + s.counterexample->rule : ""));
    CHECK(s.verdict == Verdict::Safe);
  }
}

SymbolSpec& symbol(Spec& s, const std::string& name) {
  for (SymbolSpec& x : s.symbols)
    if (x.name == name) return x;
  FAIL("no symbol " << name);
  throw;
}

}  // namespace

TEST_CASE("sc vs weak: two writes in one barrier group", "[checker_model_specs]") {
  Spec spec = load("sc-vs-weak.toml");
  REQUIRE(spec.model.fetch->name() == "sc");
  SpecResult sc = check(spec);
  allStatesSafe(sc);
  CHECK(verdictOf(sc, "off->on") == Verdict::Safe);

  spec.model.fetch = fetchModelNamed("weak");
  SpecResult weak = check(spec);
  const TransitionResult& t = transition(weak, "off->on");
  REQUIRE(t.verdict == Verdict::Unsafe);
  // The pass saw the new jalr with the old delay slot.
  CHECK(t.counterexample->rule.find("t0 == 1") != std::string::npos);
  CHECK(t.counterexample->intermediateState.find("word 1 new") != std::string::npos);
  CHECK(t.counterexample->intermediateState.find("word 2 old") != std::string::npos);
}

TEST_CASE("barriers: none, sync, flush under stale and weak", "[checker_model_specs]") {
  Spec spec = load("flush-stale.toml");
  REQUIRE(spec.model.fetch->name() == "stale");
  SpecResult stale = check(spec);
  allStatesSafe(stale);
  CHECK(verdictOf(stale, "off->on_none") == Verdict::Unsafe);
  CHECK(verdictOf(stale, "off->on_sync") == Verdict::Unsafe);
  CHECK(verdictOf(stale, "off->on_flush") == Verdict::Safe);

  spec.model.fetch = fetchModelNamed("weak");
  SpecResult weak = check(spec);
  CHECK(verdictOf(weak, "off->on_none") == Verdict::Unsafe);
  CHECK(verdictOf(weak, "off->on_sync") == Verdict::Safe);
  CHECK(verdictOf(weak, "off->on_flush") == Verdict::Safe);
}

TEST_CASE("an interrupt in a delay slot re-executes a jalr whose rs changed", "[checker_model_specs]") {
  Spec spec = load("delay-slot-interrupt.toml");
  REQUIRE(spec.model.delaySlotInterrupts);
  SpecResult with = check(spec);
  allStatesSafe(with);
  const TransitionResult& t = transition(with, "a->b");
  REQUIRE(t.verdict == Verdict::Unsafe);
  CHECK(t.counterexample->rule.find("untraced") != std::string::npos);
  CHECK_FALSE(t.counterexample->interrupts.empty());
  // Word 2 fetched at least twice: the old jalr, then (after the interrupt)
  // the new one.
  std::vector<std::string> word2;
  for (const FetchEvent& f : t.counterexample->schedule)
    if (f.word == 2) word2.push_back(f.version);
  REQUIRE(word2.size() >= 2);
  CHECK(word2.front() == "old");
  CHECK(word2.back() == "new");

  spec.model.delaySlotInterrupts = false;
  SpecResult without = check(spec);
  allStatesSafe(without);
  CHECK(verdictOf(without, "a->b") == Verdict::Safe);
}

TEST_CASE("%hi with ori is broken only where T has bit 15 set", "[checker_model_specs]") {
  Spec spec = load("placement.toml");
  REQUIRE(symbol(spec, "T").align == 4);
  SpecResult any = check(spec);
  const StateResult& on = state(any, "on");
  REQUIRE(on.verdict == Verdict::Unsafe);
  CHECK((on.counterexample->symbols.at("T") & 0x8000) != 0);
  const TransitionResult& t = transition(any, "off->on");
  REQUIRE(t.verdict == Verdict::Unsafe);
  CHECK((t.counterexample->symbols.at("T") & 0x8000) != 0);

  symbol(spec, "T").align = 0x10000;
  SpecResult aligned = check(spec);
  allStatesSafe(aligned);
  CHECK(verdictOf(aligned, "off->on") == Verdict::Safe);
}

TEST_CASE("stop_machine with preemption full still fails; with none it is safe", "[checker_model_specs]") {
  Spec spec = load("stop-machine-preemption.toml");
  REQUIRE(spec.model.preemption);
  SpecResult full = check(spec);
  allStatesSafe(full);
  const TransitionResult& t = transition(full, "off->lp");
  REQUIRE(t.verdict == Verdict::Unsafe);
  CHECK_FALSE(t.counterexample->interrupts.empty());  // the preemption

  spec.model.preemption = false;
  SpecResult none = check(spec);
  allStatesSafe(none);
  CHECK(verdictOf(none, "off->lp") == Verdict::Safe);
}

TEST_CASE("wait makes live patching safe; enter G", "[checker_model_specs]") {
  SpecResult r = check(load("wait-enter.toml"));
  allStatesSafe(r);
  CHECK(verdictOf(r, "off->lp") == Verdict::Safe);
  CHECK(verdictOf(r, "off->lp_nowait") == Verdict::Unsafe);
  CHECK(verdictOf(r, "lp->off") == Verdict::Safe);
  for (const TransitionResult& t : r.transitions) CHECK(t.expectationMet());
}

TEST_CASE("boot: only the final state matters; the steps must end in `to`", "[checker_model_specs]") {
  Spec spec = load("boot.toml");
  SpecResult boot = check(spec);
  allStatesSafe(boot);
  CHECK(verdictOf(boot, "nop->on") == Verdict::Safe);
  const TransitionResult& missing = transition(boot, "nop->on2");
  REQUIRE(missing.verdict == Verdict::Unsafe);
  CHECK(missing.counterexample->rule.find("word 2 ends as 'nop'") != std::string::npos);
  const TransitionResult& interim = transition(boot, "nop->on3");
  REQUIRE(interim.verdict == Verdict::Unsafe);
  CHECK(interim.counterexample->rule.find("li t0, 2") != std::string::npos);

  for (TransitionSpec& t : spec.transitions) t.when = When::Live;
  SpecResult live = check(spec);
  const TransitionResult& t = transition(live, "nop->on");
  REQUIRE(t.verdict == Verdict::Unsafe);
  // The steps still do not end in `to` live, before any execution is run.
  CHECK(verdictOf(live, "nop->on2") == Verdict::Unsafe);
}

TEST_CASE("allow replaces the allowed set, both ways", "[checker_model_specs]") {
  SpecResult r = check(load("allow.toml"));
  allStatesSafe(r);
  const TransitionResult& noAllow = transition(r, "t->u");
  REQUIRE(noAllow.verdict == Verdict::Unsafe);
  CHECK(noAllow.counterexample->rule.find("untraced") != std::string::npos);
  CHECK(verdictOf(r, "t->u2") == Verdict::Safe);
  const TransitionResult& narrow = transition(r, "t->u3");
  REQUIRE(narrow.verdict == Verdict::Unsafe);
  CHECK(narrow.counterexample->rule.find("reaches T") != std::string::npos);
  CHECK(verdictOf(r, "t->u4") == Verdict::Safe);
}

TEST_CASE("expect mismatches are reported, both ways", "[checker_model_specs]") {
  Spec spec = load("expect-mismatch.toml");
  SpecResult r = check(spec);
  allStatesSafe(r);
  const TransitionResult& saidUnsafe = transition(r, "off->on");
  CHECK(saidUnsafe.verdict == Verdict::Safe);
  CHECK_FALSE(saidUnsafe.expectationMet());
  const TransitionResult& saidSafe = transition(r, "nop->on");
  CHECK(saidSafe.verdict == Verdict::Unsafe);
  CHECK_FALSE(saidSafe.expectationMet());
  CHECK(transition(r, "nop->off").expectationMet());

  std::ostringstream text;
  printSpecResult(text, r, spec.target, false);
  std::string out = text.str();
  size_t first = out.find("EXPECTATION MISMATCH: the spec says unsafe");
  CHECK(first != std::string::npos);
  CHECK(out.find("EXPECTATION MISMATCH: the spec says safe") != std::string::npos);
  RunResults rr;
  rr.specs.push_back(r);
  rr.targets.push_back(spec.target);
  CHECK(exitCodeOf(rr) == 1);
  nlohmann::json j = toJson(rr);
  unsigned missed = 0;
  for (const auto& t : j["results"][0]["transitions"]) missed += t.contains("expectation_met") && !t["expectation_met"];
  CHECK(missed == 2);
}

TEST_CASE("a state whose declared behaviour is wrong is UNSAFE", "[checker_model_specs]") {
  SpecResult r = check(load("wrong-behaviour.toml"));
  CHECK(state(r, "calls").verdict == Verdict::Unsafe);
  CHECK(state(r, "calls").counterexample->rule.find("reaches T") != std::string::npos);
  CHECK(state(r, "either").verdict == Verdict::Unsafe);
  CHECK(state(r, "either").counterexample->rule.find("no pass does 'untraced'") != std::string::npos);
  CHECK(state(r, "withcond").verdict == Verdict::Unsafe);
  CHECK(state(r, "withcond").counterexample->rule.find("t0 == 1") != std::string::npos);
  CHECK(state(r, "right").verdict == Verdict::Safe);
  CHECK(state(r, "plain").verdict == Verdict::Safe);
  RunResults rr;
  rr.specs.push_back(r);
  rr.targets.push_back(r.states.front().target);
  CHECK(exitCodeOf(rr) == 1);  // a broken state fails the run
}

// ---- disagreements with DESIGN.md (see /work/notes/CHECKER-BUGS.md)

TEST_CASE("stale: a refill brings the whole line, so a sync orders words of one line",
          "[checker_model_specs]") {
  SpecResult r = check(load("stale-line.toml"));
  allStatesSafe(r);
  const TransitionResult& t = transition(r, "off->on");
  INFO((t.counterexample ? t.counterexample->rule : std::string()));
  CHECK(t.verdict == Verdict::Safe);
}

TEST_CASE("stale: stop_machine without a flush leaves stale lines", "[checker_model_specs]") {
  SpecResult r = check(load("stop-machine-stale.toml"));
  allStatesSafe(r);
  CHECK(verdictOf(r, "off->lp") == Verdict::Unsafe);
  CHECK(verdictOf(r, "off->lp_flushed") == Verdict::Safe);
}

TEST_CASE("an UNKNOWN verdict meets no expectation", "[checker_model_specs]") {
  // DESIGN.md: unknown or timeout = UNKNOWN, never SAFE; an UNKNOWN neither
  // confirms `expect = "safe"` nor `expect = "unsafe"`.
  TransitionResult t;
  t.verdict = Verdict::Unknown;
  t.expect = Expect::Safe;
  CHECK_FALSE(t.expectationMet());
  t.expect = Expect::Unsafe;
  CHECK_FALSE(t.expectationMet());
}

TEST_CASE("a counterexample carries no interrupt the violation does not need", "[checker_model_specs]") {
  // delay-slot-interrupt.toml breaks with one interrupt: old jalr, interrupt,
  // new jalr. Extra interrupts that re-fetch the same old word change nothing
  // and only lengthen the trace a developer has to read.
  SpecResult r = check(load("delay-slot-interrupt.toml"));
  const TransitionResult& t = transition(r, "a->b");
  REQUIRE(t.verdict == Verdict::Unsafe);
  CHECK(t.counterexample->interrupts.size() == 1);
}

TEST_CASE("call T + 8 names the entry a legacy vmlinux site jumps to", "[checker_model_specs]") {
  Spec spec = load("call-offset.toml");
  SpecResult r = check(spec);
  allStatesSafe(r);
  CHECK(verdictOf(r, "off->on") == Verdict::Safe);
  // `call T` is T's own entry: T + 8 is somewhere else.
  spec.behaviour["on"] = std::get<BehaviourSpec>(parseBehaviour("call T"));
  SpecResult entry = check(spec);
  const TransitionResult& t = transition(entry, "off->on");
  CHECK(t.verdict == Verdict::Unsafe);
  REQUIRE(t.counterexample);
  CHECK(t.counterexample->rule.find("jump to T+0x8") == 0);
}

TEST_CASE("a data unit before F: loads read the versions the writer makes", "[checker_model_specs]") {
  Spec spec = load("data-literal.toml");
  REQUIRE(spec.before.size() == 1);
  SpecResult r = check(spec);
  // Alone, each state's load reads its own literal (entry memory would
  // make the jump go anywhere).
  allStatesSafe(r);
  REQUIRE(r.transitions.size() == 2);
  CHECK(r.transitions[0].verdict == Verdict::Safe);
  const TransitionResult& t = r.transitions[1];
  REQUIRE(t.verdict == Verdict::Unsafe);
  CHECK(t.counterexample->rule.find("jump to 0x0") != std::string::npos);
  bool named = false;
  for (const std::string& d : t.counterexample->details)
    named = named || d.find("reads data F-4 as its interim") != std::string::npos;
  CHECK(named);

  // The same literal read by a big- and a little-endian CPU: same verdicts.
  spec.target.endian = Endian::Little;
  SpecResult le = check(spec);
  allStatesSafe(le);
  CHECK(le.transitions[0].verdict == Verdict::Safe);
  CHECK(le.transitions[1].verdict == Verdict::Unsafe);
}

TEST_CASE("an exploration past its time budget answers UNKNOWN, never SAFE", "[checker_model_specs]") {
  Spec spec = load("sc-vs-weak.toml");
  z3::context ctx;
  CheckOptions opt;
  opt.budget.maxSeconds = 0;  // spent at the first execution taken
  auto r = checkSpec(spec, spec.target, ctx, opt);
  REQUIRE(std::holds_alternative<SpecResult>(r));
  const TransitionResult& t = transition(std::get<SpecResult>(r), "off->on");
  CHECK(t.verdict == Verdict::Unknown);
  CHECK(t.unknownReason.find("time budget") != std::string::npos);
}

TEST_CASE("an 8-byte data unit before F on arm64, both data byte orders", "[checker_model_specs]") {
  Spec spec = load("data-literal-arm64.toml");
  REQUIRE(spec.before.size() == 1);
  REQUIRE(spec.before[0].bytes == 8);
  for (Endian e : {Endian::Little, Endian::Big}) {
    INFO((e == Endian::Big ? "big" : "little"));
    spec.target.endian = e;
    SpecResult r = check(spec);
    allStatesSafe(r);
    REQUIRE(r.transitions.size() == 2);
    CHECK(r.transitions[0].verdict == Verdict::Safe);
    CHECK(r.transitions[1].verdict == Verdict::Unsafe);
  }
}

namespace {
// The verdicts of a spec's transitions in file order (several share from and to).
std::vector<Verdict> verdicts(const SpecResult& r) {
  std::vector<Verdict> out;
  for (const TransitionResult& t : r.transitions) out.push_back(t.verdict);
  return out;
}
}  // namespace

TEST_CASE("Arm: the floor DC CVAU, DSB, IC IVAU, DSB leaves, by cache type", "[checker_model_specs]") {
  Spec spec = load("arm-floor.toml");
  REQUIRE(spec.model.fetch->name() == "arm");  // arm64's default
  REQUIRE(spec.model.cacheType == CacheType::Dic0Idc0);
  SpecResult idc0 = check(spec);
  allStatesSafe(idc0);
  CHECK(verdicts(idc0) == std::vector{Verdict::Safe, Verdict::Unsafe, Verdict::Unsafe, Verdict::Safe});
  // The stale BRK is what the pass runs.
  CHECK(idc0.transitions[1].counterexample->rule.find("brk") != std::string::npos);

  spec.model.cacheType = CacheType::Dic0Idc1;  // no clean needed: the invalidation alone is enough
  CHECK(verdicts(check(spec)) == std::vector{Verdict::Safe, Verdict::Unsafe, Verdict::Safe, Verdict::Safe});
  spec.model.cacheType = CacheType::Dic1Idc1;  // coherent fetches: the dsb is enough
  CHECK(verdicts(check(spec)) == std::vector{Verdict::Safe, Verdict::Safe, Verdict::Safe, Verdict::Safe});
}

TEST_CASE("Arm: CMODX, a live change outside the list is UNSAFE by itself", "[checker_model_specs]") {
  SpecResult r = check(load("arm-cmodx.toml"));
  allStatesSafe(r);
  CHECK(verdicts(r) == std::vector{Verdict::Safe, Verdict::Unsafe, Verdict::Safe});
  const Counterexample& cx = *r.transitions[1].counterexample;
  CHECK(cx.rule.find("CMODX") != std::string::npos);
  CHECK(cx.rule.find("'mov x9, x30' to 'nop'") != std::string::npos);
}

TEST_CASE("Arm: a fetch of the new word orders the loads after it", "[checker_model_specs]") {
  SpecResult r = check(load("arm-literal-order.toml"));
  allStatesSafe(r);
  CHECK(verdicts(r) == std::vector{Verdict::Safe, Verdict::Safe, Verdict::Unsafe});
  bool oldLiteral = false;
  for (const std::string& d : r.transitions[2].counterexample->details)
    oldLiteral = oldLiteral || d.find("as its old version") != std::string::npos;
  CHECK(oldLiteral);
}
