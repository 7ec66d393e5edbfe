// The two ways a site check treats a trampoline (docs/trampolines.md) must
// agree: with the trampoline's proven contract (modular, the default) and
// with its code run inside every pass (--inline-trampolines). Every shipped
// spec that names a trampoline, on every ISA/ABI of its matrix: the same
// verdict for every state and every transition.
#include <catch2/catch.hpp>

#include <filesystem>

#include "checker/CheckRun.h"

using namespace patchcheck;

namespace {

std::vector<SpecResult> run(const Spec& spec, const std::vector<mips::Target>& targets, bool inlined) {
  CheckOptions opt;
  opt.inlineTrampolines = inlined;
  auto r = checkTargets(spec, targets, opt, RunControl{2, nullptr});
  if (auto* e = std::get_if<Diagnostics>(&r)) FAIL(e->front().str());
  return std::get<std::vector<SpecResult>>(std::move(r));
}

}  // namespace

TEST_CASE("modular and inline trampolines give the same verdicts on every shipped spec", "[trampoline_inline]") {
  unsigned specs = 0, compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(PATCHCHECK_SOURCE_DIR) + "/specs/mips")) {
    if (entry.path().extension() != ".toml") continue;
    auto loaded = loadSpec(entry.path().string());
    REQUIRE(std::holds_alternative<Spec>(loaded));
    const Spec& spec = std::get<Spec>(loaded);
    if (spec.trampolines.empty()) continue;
    ++specs;
    // Every ISA/ABI of the matrix; one byte order (both run the same
    // semantics, and the inline runs are what make this test long).
    std::vector<mips::Target> targets;
    for (const mips::Target& t : targetsOf(spec, true))
      if (t.endian == mips::Endian::Big) targets.push_back(t);
    std::vector<SpecResult> modular = run(spec, targets, false), inlined = run(spec, targets, true);
    REQUIRE(modular.size() == inlined.size());
    for (size_t i = 0; i < targets.size(); ++i) {
      REQUIRE(modular[i].states.size() == inlined[i].states.size());
      REQUIRE(modular[i].transitions.size() == inlined[i].transitions.size());
      for (size_t k = 0; k < modular[i].states.size(); ++k) {
        INFO(spec.name << " " << targets[i].str() << " state " << modular[i].states[k].state);
        CHECK(name(modular[i].states[k].verdict) == name(inlined[i].states[k].verdict));
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
  CHECK(specs >= 4);  // the four legacy _mcount specs
  CHECK(compared > 0);
}
