// fetch = "arm": the Arm ARM's own model for instruction fetch (B2.2.5
// concurrent modification and execution, B2.4.4 cache maintenance), the
// only one an arm64 spec takes (docs/model.md "The Arm fetch model"). A
// fetch may return any version at or above the floor the cache
// maintenance left (DIC = 0), or what a dsb completed (DIC = 1); racing
// versions must both be on the CMODX list; a fetch that read a write
// orders the pass's later loads after it.
#include <algorithm>

#include "checker/explore/CacheMaintenance.h"
#include "checker/explore/Timeline.h"
#include "checker/spec/FetchRules.h"
#include "checker/spec/Spec.h"

namespace patchcheck::fetch {
namespace {

class ArmRules final : public FetchRules {
 public:
  std::string_view name() const override { return "arm"; }
  std::string_view description() const override { return "the AArch64 model"; }
  bool takesStep(std::string_view v) const override {
    for (std::string_view t : {"write", "sync", "flush", "wait", "dc", "dsb", "dmb", "ic", "isb", "ipi"})
      if (v == t) return true;
    return false;
  }
  std::string_view stepUsage() const override {
    return "write I, write I = \"insn\", dc cvau I, dsb ish, ic ivau I, dmb ish (or sync), isb, ipi, flush, wait";
  }
  std::string_view stepOwner() const override { return "an arm64 step"; }
  bool takesCacheType() const override { return true; }
  LitmusFetch litmusFetch() const override { return LitmusFetch::ArmCache; }
  Forced forcedBy(bool) const override { return Forced::Completed; }
  bool coherent(const ModelSpec& m) const override { return m.cacheType == CacheType::Dic1Idc1; }
  bool fetchOrdersLoads() const override { return true; }
  bool racesNeedModifiableList() const override { return true; }
  // DIC = 1: fetches read what memory holds, so a write is published once
  // a dsb (or flush) completed it; DIC = 0: the floor.
  Settled settledBy(const ModelSpec& m) const override {
    return m.cacheType == CacheType::Dic1Idc1 ? Settled::Completed : Settled::Floor;
  }
  std::string publishingSteps(const ModelSpec& m, const std::string& i) const override {
    if (m.cacheType == CacheType::Dic1Idc1) return "`dsb ish` (or `flush`)";
    if (m.cacheType == CacheType::Dic0Idc1) return "`dsb ish`, `ic ivau " + i + "`, `dsb ish` (or `flush`)";
    return "`dc cvau " + i + "`, `dsb ish`, `ic ivau " + i + "`, `dsb ish` (or `flush`)";
  }
  std::string synchronisingSteps() const override { return "`ipi` (kick_all_cpus_sync) or `flush`"; }

  // The floor of each word after each prefix of the writer's steps. A dc
  // cvau cleans the word's newest version (the writer's own earlier store
  // to it included); an ic ivau under IDC = 1 refills what is in memory,
  // which is only what a dsb (or flush) before it completed. A flush is
  // Linux's flush_icache_range: every word cleaned and invalidated,
  // completed, then every CPU interrupted.
  std::vector<std::vector<unsigned>> floors(const Timeline& tl, const ModelSpec& m) const override {
    std::vector<std::vector<unsigned>> out;
    CacheMaintenance cm(m.cacheType);
    unsigned words = unsigned(tl.byUnit.size());
    auto snapshot = [&] {
      std::vector<unsigned> f(words);
      for (unsigned i = 0; i < words; ++i) f[i] = cm.floor(i);
      out.push_back(std::move(f));
    };
    auto inMemory = [&](unsigned word, unsigned p) {
      unsigned n = tl.completedWrites(p + 1), v = 0;
      for (unsigned k = 0; k < n; ++k)
        if (tl.writes[k].unit == word) ++v;
      return v;
    };
    snapshot();
    size_t next = 0;
    for (unsigned p = 0; p < tl.stepCount; ++p) {
      for (; next < tl.maintenance.size() && tl.maintenance[next].step == p; ++next) {
        const Maintenance& mt = tl.maintenance[next];
        switch (mt.kind) {
          case StepSpec::Kind::DcCvau: cm.clean(0, mt.unit, tl.versionAt(mt.unit, p)); break;
          case StepSpec::Kind::IcIvau: cm.invalidate(0, mt.unit, inMemory(mt.unit, p)); break;
          case StepSpec::Kind::Dsb: cm.barrier(0); break;
          default: break;  // isb, ipi: nothing another CPU's fetch depends on (docs/model.md)
        }
      }
      if (std::find(tl.flushSteps.begin(), tl.flushSteps.end(), p) != tl.flushSteps.end()) {
        for (unsigned i = 0; i < words; ++i) cm.clean(0, i, tl.versionAt(i, p));
        cm.barrier(0);
        for (unsigned i = 0; i < words; ++i) cm.invalidate(0, i, tl.versionAt(i, p));
        cm.barrier(0);
      }
      snapshot();
    }
    return out;
  }
};

}  // namespace

const FetchRules& Arm() {
  static const ArmRules rules{};
  return rules;
}

}  // namespace patchcheck::fetch
