// Timeline and FetchModel on small hand-written step lists. Every expected
// value is derived by hand from docs/model.md ("The formal model"):
//   sc    - a fetch sees the writes in program order up to some point; time
//           only moves forward.
//   weak  - words are single-copy atomic and per-word coherent; writes between
//           two barriers (sync or flush) may become visible in any order; a
//           barrier's earlier writes are visible before any of its later ones;
//           flush makes every earlier write visible to every later fetch.
//   stale - like weak, but sync does not order instruction fetch; after a
//           preemption the task may run on a CPU with older lines.
//   wait  - every pass that began before it has left the site.
//   stop_machine - nothing runs during the steps; a preempted pass resumes
//           after them (preemption = full).
#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>

#include "checker/explore/FetchModel.h"
#include "checker/explore/Timeline.h"
#include "checker/spec/FetchRegistry.h"

using namespace patchcheck;

namespace {

// "w2" = write 2, "s" = sync, "f" = flush (x86: sync_core), "W" = wait;
// arm64: "c2" = dc cvau 2, "d" = dsb ish, "i2" = ic ivau 2, "I" = ipi;
// RISC-V: "o" = fence w,o, "l" = fence.i (local), "I" = ipi (remote fence.i).
TransitionSpec steps(std::initializer_list<const char*> list) {
  TransitionSpec t;
  t.from = "a";
  t.to = "b";
  for (const char* s : list) {
    StepSpec st;
    st.text = s;
    switch (s[0]) {
      case 'w': st.kind = StepSpec::Kind::Write, st.index = unsigned(std::stoul(s + 1)); break;
      case 's': st.kind = StepSpec::Kind::Sync; break;
      case 'f': st.kind = StepSpec::Kind::Flush; break;
      case 'W': st.kind = StepSpec::Kind::Wait; break;
      case 'c': st.kind = StepSpec::Kind::DcCvau, st.index = unsigned(std::stoul(s + 1)); break;
      case 'd': st.kind = StepSpec::Kind::Dsb; break;
      case 'i': st.kind = StepSpec::Kind::IcIvau, st.index = unsigned(std::stoul(s + 1)); break;
      case 'I': st.kind = StepSpec::Kind::Ipi; break;
      case 'o': st.kind = StepSpec::Kind::OutputFence; break;
      case 'l': st.kind = StepSpec::Kind::LocalFence; break;
    }
    t.steps.push_back(st);
  }
  return t;
}

ModelSpec model(std::string_view f, bool preemption = true) {
  ModelSpec m;
  m.fetch = fetchModelNamed(f);
  REQUIRE(m.fetch);
  m.preemption = preemption;
  return m;
}

// Fetches (word, version) in order from `o`; false as soon as one is refused.
bool sees(const FetchModel& fm, Observer o, std::initializer_list<std::pair<unsigned, unsigned>> fetches) {
  for (auto [word, version] : fetches) {
    auto n = fm.observe(o, word, version);
    if (!n) return false;
    o = *n;
  }
  return true;
}

// Any start of the model allows the fetch sequence.
bool someStartSees(const FetchModel& fm, std::initializer_list<std::pair<unsigned, unsigned>> fetches) {
  for (const Observer& o : fm.starts())
    if (sees(fm, o, fetches)) return true;
  return false;
}

}  // namespace

TEST_CASE("Timeline: writes, versions, barrier groups, flushes and waits", "[checker_fetch_model]") {
  // step: 0=write 2, 1=sync, 2=write 1, 3=flush, 4=wait, 5=write 2
  Timeline tl = Timeline::of(steps({"w2", "s", "w1", "f", "W", "w2"}), 3);
  CHECK(tl.stepCount == 6);
  REQUIRE(tl.writes.size() == 3);
  CHECK(tl.writes[0].step == 0);
  CHECK(tl.writes[0].unit == 2);
  CHECK(tl.writes[0].version == 1);
  CHECK(tl.writes[0].syncGroup == 0);
  CHECK(tl.writes[0].flushGroup == 0);
  CHECK(tl.writes[1].step == 2);
  CHECK(tl.writes[1].unit == 1);
  CHECK(tl.writes[1].version == 1);
  CHECK(tl.writes[1].syncGroup == 1);   // after the sync
  CHECK(tl.writes[1].flushGroup == 0);  // no flush before it
  CHECK(tl.writes[2].step == 5);
  CHECK(tl.writes[2].version == 2);     // the second write of word 2
  CHECK(tl.writes[2].syncGroup == 2);   // sync and flush are both barriers
  CHECK(tl.writes[2].flushGroup == 1);
  CHECK(tl.byUnit.size() == 3);
  CHECK(tl.byUnit[0].empty());
  CHECK(tl.byUnit[2] == std::vector<unsigned>{0, 2});
  CHECK(tl.versions(0) == 1);
  CHECK(tl.versions(2) == 3);
  CHECK(tl.writeOf(2, 2) == 2);
  CHECK(tl.flushSteps == std::vector<unsigned>{3});
  CHECK(tl.waitSteps == std::vector<unsigned>{4});
  // Time p = the first p steps have happened.
  CHECK(tl.versionAt(2, 0) == 0);
  CHECK(tl.versionAt(2, 1) == 1);
  CHECK(tl.versionAt(2, 5) == 1);
  CHECK(tl.versionAt(2, 6) == 2);
  CHECK(tl.versionAt(1, 2) == 0);
  CHECK(tl.versionAt(1, 3) == 1);
  CHECK(tl.nextWait(0) == 4);
  CHECK(tl.nextWait(4) == 4);
  CHECK(tl.nextWait(5) == 6);  // none left: the end
  // The flush (step 3) has happened from time 4 on; it covers writes 0 and 1.
  CHECK(tl.flushedWrites(3) == 0);
  CHECK(tl.flushedWrites(4) == 2);
  CHECK(tl.flushedWrites(6) == 2);
}

TEST_CASE("Timeline: a write past the site words addresses a body word", "[checker_fetch_model]") {
  Timeline tl = Timeline::of(steps({"w4", "f"}), 3);
  REQUIRE(tl.byUnit.size() == 5);
  CHECK(tl.byUnit[4] == std::vector<unsigned>{0});
  CHECK(tl.byUnit[3].empty());
}

TEST_CASE("sc: seeing a later write means every earlier one is seen", "[checker_fetch_model]") {
  // write 0, write 1, no barrier. Under sc a pass that saw the new word 1
  // fetched it after both writes, so a later fetch of word 0 is new too.
  Timeline tl = Timeline::of(steps({"w0", "w1"}), 2);
  FetchModel fm(tl, model("sc"), When::Live);
  REQUIRE(fm.starts().size() == 1);
  CHECK(fm.starts()[0].time == 0);
  CHECK(someStartSees(fm, {{1, 1}, {0, 1}}));
  CHECK_FALSE(someStartSees(fm, {{1, 1}, {0, 0}}));
  // The other order is fine: word 0 was fetched before the writes.
  CHECK(someStartSees(fm, {{0, 0}, {1, 1}}));
  // Seeing the new word 0 (time >= 1) leaves word 1 open: its write is later.
  CHECK(someStartSees(fm, {{0, 1}, {1, 0}}));
  CHECK_FALSE(fm.interruptsAnywhere());
}

TEST_CASE("weak: writes between two barriers become visible in any order", "[checker_fetch_model]") {
  Timeline tl = Timeline::of(steps({"w0", "w1"}), 2);
  FetchModel fm(tl, model("weak"), When::Live);
  CHECK(someStartSees(fm, {{1, 1}, {0, 0}}));
  CHECK(someStartSees(fm, {{0, 1}, {1, 0}}));
  Observer o = fm.starts()[0];
  auto n = fm.observe(o, 1, 1);
  REQUIRE(n);
  // The least state after seeing write 1: time past its step, only it visible.
  CHECK(n->time == 2);
  CHECK(n->visible == std::vector<bool>{false, true});
  CHECK(fm.landed(*n) == 1);
  CHECK_FALSE(fm.interruptsAnywhere());
  CHECK_FALSE(fm.interrupt(*n));  // weak: an interrupt changes nothing
}

TEST_CASE("weak: a sync orders the writes before it before those after it", "[checker_fetch_model]") {
  Timeline tl = Timeline::of(steps({"w0", "s", "w1"}), 2);
  FetchModel fm(tl, model("weak"), When::Live);
  CHECK_FALSE(someStartSees(fm, {{1, 1}, {0, 0}}));
  CHECK(someStartSees(fm, {{1, 1}, {0, 1}}));
  // Fetched before it became visible: the order of the fetches matters.
  CHECK(someStartSees(fm, {{0, 0}, {1, 1}}));
  // The later write may lag behind: the new word 0 does not force word 1.
  CHECK(someStartSees(fm, {{0, 1}, {1, 0}}));
}

TEST_CASE("stale: a sync does not order instruction fetch, a flush does", "[checker_fetch_model]") {
  Timeline synced = Timeline::of(steps({"w0", "s", "w1"}), 2);
  FetchModel stale(synced, model("stale", false), When::Live);
  CHECK(someStartSees(stale, {{1, 1}, {0, 0}}));
  Timeline flushed = Timeline::of(steps({"w0", "f", "w1"}), 2);
  FetchModel staleFlushed(flushed, model("stale", false), When::Live);
  CHECK_FALSE(someStartSees(staleFlushed, {{1, 1}, {0, 0}}));
  CHECK_FALSE(staleFlushed.interruptsAnywhere());  // preemption none: no migration
}

TEST_CASE("stale: a refill orders the writes within one I-cache line, not across lines", "[checker_fetch_model]") {
  // w0, sync, w1. One line: a refill that brings the new word 1 copies the
  // line from memory, where the sync put w0 first, so word 0 is new too.
  // Two lines: word 0's line may still be the old one.
  Timeline tl = Timeline::of(steps({"w0", "s", "w1"}), 2);
  FetchModel oneLine(tl, model("stale", false), When::Live, {0, 0});
  CHECK_FALSE(someStartSees(oneLine, {{1, 1}, {0, 0}}));
  CHECK(someStartSees(oneLine, {{1, 1}, {0, 1}}));
  FetchModel twoLines(tl, model("stale", false), When::Live, {0, 1});
  CHECK(someStartSees(twoLines, {{1, 1}, {0, 0}}));
  // The same with the lines the other way round: word 0 in the second line.
  FetchModel swapped(tl, model("stale", false), When::Live, {1, 0});
  CHECK(someStartSees(swapped, {{1, 1}, {0, 0}}));
}

TEST_CASE("weak: once new, a word is never old again within a pass", "[checker_fetch_model]") {
  // Word 0 written twice (versions 1 and 2), no barrier.
  Timeline tl = Timeline::of(steps({"w0", "w0"}), 1);
  FetchModel fm(tl, model("weak"), When::Live);
  CHECK(someStartSees(fm, {{0, 0}, {0, 1}, {0, 2}}));
  CHECK(someStartSees(fm, {{0, 0}, {0, 2}}));
  CHECK_FALSE(someStartSees(fm, {{0, 1}, {0, 0}}));
  CHECK_FALSE(someStartSees(fm, {{0, 2}, {0, 1}}));
  CHECK_FALSE(someStartSees(fm, {{0, 2}, {0, 0}}));
  // A word never written (word 1 of a 2-word site) has only version 0.
  Timeline wide = Timeline::of(steps({"w0", "w0"}), 2);
  FetchModel fw(wide, model("weak"), When::Live);
  CHECK(fw.observe(fw.starts()[0], 1, 0));
  CHECK_FALSE(fw.observe(fw.starts()[0], 1, 1));
}

TEST_CASE("weak: a flush makes the writes before it visible to every later fetch", "[checker_fetch_model]") {
  // 0=write 0, 1=flush, 2=write 1. Seeing the new word 1 means time > 2,
  // past the flush, so word 0 is new from then on, even under weak with the
  // flush taken only as a barrier.
  Timeline tl = Timeline::of(steps({"w0", "f", "w1"}), 2);
  FetchModel fm(tl, model("weak"), When::Live);
  CHECK_FALSE(someStartSees(fm, {{1, 1}, {0, 0}}));
  Observer o = fm.starts()[0];
  auto n = fm.observe(o, 1, 1);
  REQUIRE(n);
  CHECK(n->time == 3);
  CHECK(n->visible == std::vector<bool>{true, true});
  // Never written word 2 of a 3-word site stays version 0 whatever the time.
  Timeline wide = Timeline::of(steps({"w0", "f", "w1"}), 3);
  FetchModel fw(wide, model("weak"), When::Live);
  auto m = fw.observe(fw.starts()[0], 1, 1);
  REQUIRE(m);
  CHECK(fw.observe(*m, 2, 0));
}

TEST_CASE("wait: a pass that began before it has left before the writes after it", "[checker_fetch_model]") {
  // 0=write 0, 1=flush, 2=wait, 3=write 1, 4=flush
  Timeline tl = Timeline::of(steps({"w0", "f", "W", "w1", "f"}), 2);
  FetchModel fm(tl, model("weak"), When::Live);
  auto starts = fm.starts();
  REQUIRE(starts.size() == 2);
  // Before the wait: the writer may not pass step 2 while the pass runs.
  CHECK(starts[0].time == 0);
  CHECK(starts[0].limit == 2);
  CHECK_FALSE(fm.observe(starts[0], 1, 1));
  CHECK(fm.observe(starts[0], 0, 1));
  CHECK(fm.observe(starts[0], 0, 0));
  // After the wait: the flush before it has happened, word 0 is new.
  CHECK(starts[1].time == 3);
  CHECK(starts[1].limit == 5);
  CHECK(starts[1].visible == std::vector<bool>{true, false});
  CHECK_FALSE(fm.observe(starts[1], 0, 0));
  CHECK(fm.observe(starts[1], 1, 1));
  CHECK(fm.observe(starts[1], 1, 0));
  // Without the flush before the wait the write may still be invisible.
  Timeline noFlush = Timeline::of(steps({"w0", "W", "w1", "f"}), 2);
  FetchModel fn(noFlush, model("weak"), When::Live);
  REQUIRE(fn.starts().size() == 2);
  CHECK(fn.observe(fn.starts()[1], 0, 0));
}

TEST_CASE("stop_machine: a pass sees all old or all new; preemption moves it to the end",
          "[checker_fetch_model]") {
  Timeline tl = Timeline::of(steps({"w0", "w1", "f"}), 2);
  FetchModel full(tl, model("weak", true), When::StopMachine);
  auto starts = full.starts();
  REQUIRE(starts.size() == 2);
  CHECK(starts[0].time == 0);
  CHECK(starts[1].time == 3);
  CHECK(sees(full, starts[0], {{0, 0}, {1, 0}}));
  CHECK_FALSE(sees(full, starts[0], {{1, 1}}));
  CHECK(sees(full, starts[1], {{0, 1}, {1, 1}}));
  CHECK_FALSE(sees(full, starts[1], {{0, 0}}));
  // Preempted inside the site before the steps: resumes after all of them.
  CHECK(full.interruptsAnywhere());
  auto resumed = full.interrupt(starts[0]);
  REQUIRE(resumed);
  CHECK(resumed->time == 3);
  CHECK(sees(full, *resumed, {{1, 1}}));
  CHECK_FALSE(full.interrupt(starts[1]));  // already after: nothing changes
  FetchModel none(tl, model("weak", false), When::StopMachine);
  CHECK_FALSE(none.interruptsAnywhere());
  CHECK_FALSE(none.interrupt(none.starts()[0]));
}

TEST_CASE("boot: only the final state is ever fetched", "[checker_fetch_model]") {
  Timeline tl = Timeline::of(steps({"w1", "w0", "f"}), 2);
  FetchModel fm(tl, model("weak"), When::Boot);
  REQUIRE(fm.starts().size() == 1);
  CHECK(sees(fm, fm.starts()[0], {{0, 1}, {1, 1}}));
  CHECK_FALSE(sees(fm, fm.starts()[0], {{0, 0}}));
}

TEST_CASE("stale with preemption: a migrated pass may see older lines again", "[checker_fetch_model]") {
  // 0=write 0, 1=write 1, 2=flush. Before the flush nothing is forced: after
  // a preemption the task may run where word 1 is still old.
  Timeline tl = Timeline::of(steps({"w0", "w1", "f"}), 2);
  FetchModel fm(tl, model("stale", true), When::Live);
  CHECK(fm.interruptsAnywhere());
  auto n = fm.observe(fm.starts()[0], 1, 1);
  REQUIRE(n);
  CHECK_FALSE(fm.observe(*n, 1, 0));  // same CPU: coherent
  auto moved = fm.interrupt(*n);
  REQUIRE(moved);
  CHECK(fm.observe(*moved, 1, 0));
  // After the flush the writes are forced everywhere: migration changes nothing.
  Timeline flushed = Timeline::of(steps({"w0", "f", "w1", "f"}), 2);
  FetchModel ff(flushed, model("stale", true), When::Live);
  auto seen = ff.observe(ff.starts()[0], 1, 1);  // time 3: past the first flush
  REQUIRE(seen);
  auto m2 = ff.interrupt(*seen);
  CHECK_FALSE(ff.observe(m2 ? *m2 : *seen, 0, 0));
  // Word 1's own write is not flushed yet: after migrating it may be old.
  REQUIRE(m2);
  CHECK(ff.observe(*m2, 1, 0));
  // The same under weak: no migration effect at all.
  FetchModel weak(tl, model("weak", true), When::Live);
  CHECK_FALSE(weak.interruptsAnywhere());
}

// Publication (docs/model.md "Publication"): once the steps are done, from
// when on does every fetch of each written word return its final version,
// and has every CPU context-synchronised after that?
namespace {
unsigned publishedFrom(std::initializer_list<const char*> list, const ModelSpec& m, When w = When::Live) {
  TransitionSpec t = steps(list);
  Timeline tl = Timeline::of(t, 3);
  return FetchModel(tl, m, w).publishedFrom(tl.writtenUnits(0));
}
bool publishes(std::initializer_list<const char*> list, const ModelSpec& m, Publish p) {
  TransitionSpec t = steps(list);
  Timeline tl = Timeline::of(t, 3);
  return FetchModel(tl, m, When::Live).publishes(tl.writtenUnits(0), p);
}
ModelSpec arm(CacheType c) {
  ModelSpec m;
  m.fetch = fetchModelNamed("arm");
  m.cacheType = c;
  return m;
}
}  // namespace

TEST_CASE("publication under sc: a write is published once done", "[checker_fetch_model]") {
  CHECK(publishedFrom({"w1"}, model("sc")) == 1);
  CHECK(publishedFrom({"w2", "s", "w1"}, model("sc")) == 3);
  // synchronised needs a flush after the last write, not before it
  CHECK_FALSE(publishes({"f", "w1"}, model("sc"), Publish::Synchronised));
  CHECK(publishes({"w1", "f"}, model("sc"), Publish::Synchronised));
}

TEST_CASE("publication under weak and stale: a flush after each word's last write", "[checker_fetch_model]") {
  for (const char* f : {"weak", "stale"}) {
    CHECK(publishedFrom({"w1"}, model(f)) == 2);  // never (stepCount + 1)
    CHECK(publishedFrom({"w1", "s"}, model(f)) == 3);  // a sync publishes nothing
    CHECK(publishedFrom({"w1", "f"}, model(f)) == 2);
    CHECK(publishedFrom({"w1", "f", "W", "w2"}, model(f)) == 5);  // word 2 after the flush
    CHECK(publishedFrom({"w1", "f", "W", "w2", "f"}, model(f)) == 5);
    // stop_machine and boot do not flush
    CHECK(publishedFrom({"w1"}, model(f), When::StopMachine) == 2);
    CHECK(publishedFrom({"w1"}, model(f), When::Boot) == 2);
    CHECK(publishedFrom({"w1", "f"}, model(f), When::Boot) == 2);
    // the flush's own IPIs synchronise
    CHECK(publishes({"w1", "f"}, model(f), Publish::Synchronised));
  }
}

TEST_CASE("publication under the Arm model: each word's floor at the end is its final version",
          "[checker_fetch_model]") {
  ModelSpec m = arm(CacheType::Dic0Idc0);
  CHECK(publishedFrom({"w0"}, m) == 2);                                 // never
  CHECK(publishedFrom({"w0", "d"}, m) == 3);                            // no invalidation
  CHECK(publishedFrom({"w0", "i0", "d"}, m) == 4);                      // invalidation without a clean
  CHECK(publishedFrom({"w0", "c0", "d", "i0"}, m) == 5);                // the invalidation not completed
  CHECK(publishedFrom({"w0", "c0", "d", "i0", "d"}, m) == 5);           // caches_clean_inval_pou
  CHECK(publishedFrom({"w0", "c0", "d", "i0", "d", "w1"}, m) == 7);     // word 1 not maintained
  CHECK(publishedFrom({"w0", "f"}, m) == 2);
  // IDC = 1: no clean needed, but the store must be complete for the refill
  CHECK(publishedFrom({"w0", "d", "i0", "d"}, arm(CacheType::Dic0Idc1)) == 4);
  CHECK(publishedFrom({"w0", "i0", "d"}, arm(CacheType::Dic0Idc1)) == 4);  // the refill reads the old word
  // DIC = 1: a completed store is what every fetch reads
  CHECK(publishedFrom({"w0"}, arm(CacheType::Dic1Idc1)) == 2);
  CHECK(publishedFrom({"w0", "d"}, arm(CacheType::Dic1Idc1)) == 2);
  // synchronised: an ipi after the last dsb, not before it
  CHECK_FALSE(publishes({"w0", "c0", "d", "i0", "d"}, m, Publish::Synchronised));
  CHECK(publishes({"w0", "c0", "d", "i0", "d"}, m, Publish::Eventually));
  CHECK(publishes({"w0", "c0", "d", "i0", "d", "I"}, m, Publish::Synchronised));
  CHECK_FALSE(publishes({"w0", "c0", "d", "i0", "I", "d"}, m, Publish::Synchronised));
  CHECK(publishes({"w0", "f"}, m, Publish::Synchronised));
  CHECK(publishes({"w0", "d", "I"}, arm(CacheType::Dic1Idc1), Publish::Synchronised));
}

TEST_CASE("publication under x86: a sync_core after each byte's last write", "[checker_fetch_model]") {
  ModelSpec m = model("x86");
  CHECK(publishedFrom({"w0", "w1"}, m) == 3);  // never
  CHECK(publishedFrom({"w0", "f", "w1", "f", "w2"}, m) == 6);
  CHECK(publishedFrom({"w0", "f", "w1", "f", "w2", "f"}, m) == 6);
  CHECK(publishes({"w0", "f"}, m, Publish::Synchronised));
}

// RISC-V, from the Unprivileged ISA manual (docs/model.md "The RISC-V fetch
// models"): ziccif - Zifencei alone orders nothing between two fetches; a
// hart's FENCE.I makes its later fetches see what is visible to it, and a
// store is visible to a hart asked to run FENCE.I only when the writer ran
// a data fence (fence w,o) before asking. ziccid - fetches are reads in the
// global memory order, in program order: coherent, ordered by fence w,w,
// and every store is seen eventually.
TEST_CASE("ziccif: a fetch may return an older version than the same pass fetched", "[checker_fetch_model]") {
  Timeline tl = Timeline::of(steps({"w1", "f"}), 2);
  FetchModel cif(tl, model("ziccif"), When::Live), cid(tl, model("ziccid"), When::Live);
  CHECK(sees(cif, cif.starts()[0], {{1, 1}, {1, 0}}));
  CHECK_FALSE(sees(cid, cid.starts()[0], {{1, 1}, {1, 0}}));  // ziccid: coherent
}

TEST_CASE("ziccif: flush_icache_all raises every hart's floor", "[checker_fetch_model]") {
  // step: 0=write 1, 1=flush_icache_all, 2=write 2
  Timeline tl = Timeline::of(steps({"w1", "f", "w2"}), 3);
  FetchModel fm(tl, model("ziccif"), When::Live);
  CHECK(sees(fm, fm.starts()[0], {{1, 0}, {2, 1}}));        // old first, then the later write
  CHECK_FALSE(sees(fm, fm.starts()[0], {{2, 1}, {1, 0}}));  // after the flush word 1 is never old
  CHECK(sees(fm, fm.starts()[0], {{2, 1}, {2, 0}}));        // word 2: no flush after its write
}

TEST_CASE("ziccif: an ipi raises the floor of the writes a fence w,o ordered before it", "[checker_fetch_model]") {
  // Zifencei: the writer executes a data fence before asking every hart to
  // run FENCE.I; its own fence.i orders nothing for another hart.
  Timeline bare = Timeline::of(steps({"w1", "I", "w2"}), 3);
  Timeline fenced = Timeline::of(steps({"w1", "o", "I", "w2"}), 3);
  Timeline local = Timeline::of(steps({"w1", "l", "I", "w2"}), 3);
  Timeline late = Timeline::of(steps({"w1", "o", "w2", "I"}), 3);
  FetchModel b(bare, model("ziccif"), When::Live), f(fenced, model("ziccif"), When::Live),
      l(local, model("ziccif"), When::Live), t(late, model("ziccif"), When::Live);
  CHECK(sees(b, b.starts()[0], {{2, 1}, {1, 0}}));
  CHECK_FALSE(sees(f, f.starts()[0], {{2, 1}, {1, 0}}));
  CHECK(sees(l, l.starts()[0], {{2, 1}, {1, 0}}));
  // A write between the fence w,o and the ipi is not published by it.
  CHECK(f.publishedFrom({1}) == 3);
  CHECK(t.publishedFrom({1}) == 4);
  CHECK(t.publishedFrom({2}) == 5);  // never
  CHECK(b.publishedFrom({1}) == 4);  // never: no data fence before the ipi
}

TEST_CASE("ziccid: fence w,w orders two stores for every fetch, fence w,o does not", "[checker_fetch_model]") {
  Timeline ww = Timeline::of(steps({"w1", "s", "w2"}), 3);
  Timeline wo = Timeline::of(steps({"w1", "o", "w2"}), 3);
  FetchModel a(ww, model("ziccid"), When::Live), b(wo, model("ziccid"), When::Live);
  CHECK_FALSE(sees(a, a.starts()[0], {{2, 1}, {1, 0}}));
  CHECK(sees(b, b.starts()[0], {{2, 1}, {1, 0}}));
  CHECK(sees(a, a.starts()[0], {{1, 1}, {2, 0}}));
}

TEST_CASE("publication under ziccid: eventually, without FENCE.I; under ziccif, a remote fence.i", "[checker_fetch_model]") {
  Timeline tl = Timeline::of(steps({"w1"}), 2);
  CHECK(FetchModel(tl, model("ziccid"), When::Live).publishedFrom({1}) == 1);
  CHECK(FetchModel(tl, model("ziccif"), When::Live).publishedFrom({1}) == 2);  // never
  Timeline flushed = Timeline::of(steps({"w1", "f"}), 2);
  CHECK(FetchModel(flushed, model("ziccif"), When::Live).publishedFrom({1}) == 2);
  // Under stop_machine no model of RISC-V makes a write visible when the
  // CPUs leave the rendezvous: a pass after it may still fetch the old word.
  FetchModel sm(tl, model("ziccid"), When::StopMachine);
  CHECK(sees(sm, sm.starts().back(), {{1, 0}}));
}
