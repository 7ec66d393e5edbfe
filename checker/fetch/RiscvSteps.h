#pragma once
// What the RISC-V fetch models (Ziccif.cpp, Ziccid.cpp) share: the writer's
// steps as Linux spells them (arch/riscv/mm/cacheflush.c) and the floor a
// remote FENCE.I leaves (docs/model.md "The RISC-V fetch models").
#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "checker/explore/Timeline.h"
#include "checker/spec/FetchRules.h"

namespace patchcheck::fetch::riscv {

// flush_icache_all: a local fence.i, `fence w,o`, then every other hart
// runs fence.i (an IPI, or the SBI's remote fence.i) and the writer waits
// for them; Linux's flush_icache_range is flush_icache_all. `fence w,w`
// and `fence rw,rw` (smp_wmb, smp_mb) order the writer's stores.
inline std::span<const FetchRules::OwnStep> ownSteps() {
  static const FetchRules::OwnStep steps[] = {{"flush_icache_all", StepKind::Flush},
                                              {"fence w,o", StepKind::OutputFence},
                                              {"fence.i", StepKind::LocalFence},
                                              {"fence w,w", StepKind::Sync},
                                              {"fence rw,rw", StepKind::Sync}};
  return steps;
}

// `ipi`: every other hart is interrupted and runs fence.i, the writer
// waiting for them (ipi_remote_fence_i, sbi_remote_fence_i).
inline bool takesStep(std::string_view v) {
  return v == "write" || v == "wait" || v == "ipi" || v == "fence" || v == "flush_icache_all";
}

// Why a step of another model is refused, where RISC-V has its own
// spelling of it; empty: the registry names the model that takes it.
inline std::string refusal(std::string_view v) {
  if (v == "flush") return "'flush' is flush_icache_range elsewhere; RISC-V's is flush_icache_all";
  if (v == "sync") return "'sync' is MIPS's barrier; RISC-V's are fence w,w and fence rw,rw";
  return {};
}

inline constexpr std::string_view kStepUsage =
    "write I, write I = \"insn\", fence w,o, fence w,w, fence rw,rw, fence.i, ipi, flush_icache_all, wait";

// The oldest version of each unit a hart's fetch may return after each
// prefix of the steps, [time][unit]. A hart's FENCE.I makes its later
// fetches see every store already visible to it (Zifencei); a store is
// visible to a hart the writer asks to run FENCE.I only when a data fence
// ordered it before the request: `fence w,o` before `ipi`, or the one
// inside flush_icache_all. A local fence.i raises no other hart's floor;
// `own`: the floors of the writer's own hart, which its fence.i raises for
// every store before it (Zifencei: FENCE.I orders the hart's own stores
// before its later fetches).
inline std::vector<std::vector<unsigned>> remoteFenceFloors(const Timeline& tl, bool own = false) {
  std::vector<std::vector<unsigned>> out;
  std::vector<unsigned> floor(tl.byUnit.size(), 0);
  out.push_back(floor);
  auto raise = [&](unsigned before) {  // every write at a step < before
    for (const Write& w : tl.writes)
      if (w.step < before) floor[w.unit] = std::max(floor[w.unit], w.version);
  };
  unsigned fenced = 0;  // writes at steps before this one are ordered before a later IPI
  size_t next = 0;
  for (unsigned p = 0; p < tl.stepCount; ++p) {
    for (; next < tl.maintenance.size() && tl.maintenance[next].step == p; ++next) {
      if (tl.maintenance[next].kind == StepKind::OutputFence) fenced = p;
      if (tl.maintenance[next].kind == StepKind::Ipi) raise(fenced);
      if (own && tl.maintenance[next].kind == StepKind::LocalFence) raise(p);
    }
    if (std::find(tl.flushSteps.begin(), tl.flushSteps.end(), p) != tl.flushSteps.end()) {
      fenced = p;
      raise(p);
    }
    out.push_back(floor);
  }
  return out;
}

}  // namespace patchcheck::fetch::riscv
