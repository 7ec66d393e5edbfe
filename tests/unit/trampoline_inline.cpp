// The two ways a site check treats a trampoline (docs/trampolines.md) must
// agree: with the trampoline's proven contract (modular, the default) and
// with its code run inside every pass (--inline-trampolines). Every shipped
// spec that names a trampoline, on every ISA/ABI of its matrix: the same
// verdict for every state and every transition.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "encoder/Target.h"
#include "checker/explore/CheckRun.h"
#include "tests/unit/output_support.h"

using namespace patchcheck;
using namespace patchcheck::test;

namespace {

std::vector<SpecResult> run(const Spec& spec, const std::vector<Target>& targets, bool inlined, bool statesOnly) {
  CheckOptions opt;
  opt.inlineTrampolines = inlined;
  opt.statesOnly = statesOnly;
  // Inline runs ask a few hard questions (seconds each, more on a loaded
  // machine): agreement is the point here, so give them room.
  opt.limits.timeoutMs = inlined ? 120000 : opt.limits.timeoutMs;
  auto r = checkTargets(spec, targets, opt, RunControl{2, nullptr});
  if (auto* e = std::get_if<Diagnostics>(&r)) FAIL(e->front().str());
  return std::get<std::vector<SpecResult>>(std::move(r));
}

// Every shipped spec of specs/<isa> that names a trampoline, on the targets
// of its matrix `endian` keeps (all when unset): the same verdict for every
// state and every transition, modular and inline. `part` of `parts`: those
// specs in name order, every parts-th from the part-th, so that the parts
// together cover them all. Returns the specs run.
unsigned agree(const std::string& isa, std::optional<Endian> endian = std::nullopt, unsigned part = 0,
               unsigned parts = 1, bool statesOnly = false) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(PATCHCHECK_SOURCE_DIR) + "/specs/" + isa))
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  unsigned specs = 0, compared = 0, named = 0;
  for (const auto& file : files) {
    auto loaded = loadSpec(file.string());
    REQUIRE(std::holds_alternative<Spec>(loaded));
    const Spec& spec = std::get<Spec>(loaded);
    if (spec.trampolines.empty()) continue;  // inline and modular are then one run
    if (named++ % parts != part) continue;
    std::vector<Target> targets;
    for (const Target& t : targetsOf(spec, true))
      if (!endian || t.endian == *endian) targets.push_back(t);
    if (targets.empty()) continue;
    ++specs;
    std::vector<SpecResult> modular = run(spec, targets, false, statesOnly),
                            inlined = run(spec, targets, true, statesOnly);
    REQUIRE(modular.size() == inlined.size());
    for (size_t i = 0; i < targets.size(); ++i) {
      REQUIRE(modular[i].states.size() == inlined[i].states.size());
      REQUIRE(modular[i].transitions.size() == inlined[i].transitions.size());
      for (size_t k = 0; k < modular[i].states.size(); ++k) {
        const StateResult& m = modular[i].states[k];
        const StateResult& n = inlined[i].states[k];
        INFO(spec.name << " " << targets[i].str() << " state " << m.state << ": inline "
                       << (n.counterexample ? n.counterexample->rule : n.unknownReason));
        CHECK(name(m.verdict) == name(n.verdict));
        ++compared;
      }
      for (size_t k = 0; k < modular[i].transitions.size(); ++k) {
        const TransitionResult& m = modular[i].transitions[k];
        const TransitionResult& n = inlined[i].transitions[k];
        INFO(spec.name << " " << targets[i].str() << " " << m.transition << ": inline "
                       << (n.counterexample ? n.counterexample->rule : n.unknownReason));
        CHECK(name(m.verdict) == name(n.verdict));
        CHECK(n.verdict != Verdict::Unknown);
        ++compared;
      }
    }
  }
  CHECK(compared > 0);
  return specs;
}

}  // namespace

// One test case per ISA (one CTest entry each, tests/CMakeLists.txt), so
// that no entry runs long.
TEST_CASE("modular and inline trampolines agree on every shipped MIPS spec, big-endian", "[trampoline_inline_mips_big]") {
  CHECK(agree("mips", Endian::Big) >= 5);  // the four legacy _mcount specs and patchable-entry
}

TEST_CASE("modular and inline trampolines agree on every shipped MIPS spec, little-endian",
          "[trampoline_inline_mips_little]") {
  CHECK(agree("mips", Endian::Little) >= 5);
}

// arm64's inline runs are the longest: a transition's passes run
// ftrace_caller's whole code at every interleaving, minutes of CPU per spec
// and byte order (measured: over 9 minutes for one entry on a loaded
// machine), too long for `make test`. Here every arm64 spec's states alone
// (where the disagreement of on, on_list and far was), little-endian, one
// spec per entry; the transitions inline are `make inline-arm64`
// (docs/trampolines.md).
TEST_CASE("modular and inline trampolines agree on the states of the first arm64 spec", "[trampoline_inline_arm64_1]") {
  CHECK(agree("arm64", Endian::Little, 0, 2, true) >= 1);  // ftrace-call-ops-bti
}

TEST_CASE("modular and inline trampolines agree on the states of the second arm64 spec", "[trampoline_inline_arm64_2]") {
  CHECK(agree("arm64", Endian::Little, 1, 2, true) >= 1);  // ftrace-call-ops
}

// Not in `make test` (no tag a CTest entry names): `make inline-arm64`.
TEST_CASE("modular and inline trampolines agree on every arm64 spec and transition, both byte orders",
          "[.][trampoline_inline_arm64_full]") {
  CHECK(agree("arm64") >= 2);
}

TEST_CASE("modular and inline trampolines agree on every shipped x86 spec", "[trampoline_inline_x86]") {
  CHECK(agree("x86") >= 1);  // ftrace.toml
}

TEST_CASE("an inline run through a buggy trampoline is refuted with the trampoline in the replayed trace",
          "[trampoline_inline]") {
  // patchable-entry.toml with ftrace_regs_caller replaced by one that passes
  // ip = F + 4 (tests/data/trampolines/wrong_ip.S and its contract).
  TempDir dir;
  std::string data = std::string(PATCHCHECK_TEST_DATA) + "/trampolines/";
  writeFile(dir.file("tramp.S"), readFile(data + "wrong_ip.S"));
  writeFile(dir.file("tramp.toml"), readFile(data + "contract_64.toml"));
  std::string text = readFile(std::string(PATCHCHECK_SOURCE_DIR) + "/specs/mips/patchable-entry.toml");
  std::string from = "\"mips/ftrace_regs_caller.S\"";
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(), "\"" + dir.file("tramp.S") + "\"");
  auto loaded = parseSpec(text, dir.file("spec.toml"));
  REQUIRE(std::holds_alternative<Spec>(loaded));
  const Spec& spec = std::get<Spec>(loaded);
  CheckOptions opt;
  opt.inlineTrampolines = true;
  opt.transition = "disabled->regs";
  auto r = checkTargets(spec, {spec.target}, opt, RunControl{1, nullptr});
  REQUIRE(std::holds_alternative<std::vector<SpecResult>>(r));
  const SpecResult& res = std::get<std::vector<SpecResult>>(r).front();
  REQUIRE(res.trampolines.size() == 1);
  CHECK(res.trampolines[0].verdict == Verdict::Unsafe);  // its own proof refutes it too
  REQUIRE(res.transitions.size() == 1);
  const TransitionResult& t = res.transitions[0];
  CHECK(t.verdict == Verdict::Unsafe);
  REQUIRE(t.counterexample);
  INFO(t.counterexample->rule << " / " << t.counterexample->replayNote);
  CHECK(t.counterexample->rule.find("ip argument (a0)") != std::string::npos);
  CHECK(t.counterexample->replayed);
  bool throughTrampoline = false;
  for (const TraceStep& s : t.counterexample->trace) throughTrampoline = throughTrampoline || s.origin.rfind("ftrace_regs_caller", 0) == 0;
  CHECK(throughTrampoline);
}
