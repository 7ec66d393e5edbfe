#include "checker/report/ObjectGate.h"

#include <map>
#include <set>

#include "checker/report/Baseline.h"
#include "encoder/Target.h"

namespace patchcheck {

namespace {

// What keeps a state from counting as proven, across the gate's results
// for its spec: each transition into or out of it that is UNKNOWN or
// missed its `expect`, a state check that is not SAFE, and no transition
// out of it proven SAFE (nor skipped as certified by the baseline).
struct Proof {
  std::vector<std::string> against;
  bool leftSafely = false;
};

}  // namespace

void holdSitesToProofs(std::vector<ObjectScan>& scans, const RunResults& rr, const std::vector<const Spec*>& specOf,
                       const std::map<std::string, std::string>& skipped) {
  std::map<std::pair<std::string, std::string>, Proof> proofs;  // (spec path, state)
  for (size_t i = 0; i < rr.specs.size() && i < specOf.size(); ++i) {
    const Spec& spec = *specOf[i];
    std::string on = " on " + rr.targets[i].str();
    for (const StateResult& s : rr.specs[i].states)
      if (s.verdict != Verdict::Safe)
        proofs[{spec.path, s.state}].against.push_back("state " + std::string(name(s.verdict)) + on);
    for (const TransitionResult& t : rr.specs[i].transitions) {
      std::string bad;
      if (t.verdict == Verdict::Unknown) bad = t.transition + " UNKNOWN" + on;
      else if (!t.expectationMet())
        bad = t.transition + " " + std::string(name(t.verdict)) + on + ", the spec expects " +
              (*t.expect == Expect::Safe ? "safe" : "unsafe");
      for (const std::string& state : {t.from, t.to})
        if (!bad.empty()) proofs[{spec.path, state}].against.push_back(bad);
      if (t.verdict == Verdict::Safe && t.expectationMet()) proofs[{spec.path, t.from}].leftSafely = true;
    }
    // gate --baseline: an unchanged transition the certified table proved.
    for (const TransitionSpec& t : spec.transitions)
      if (skipped.count(spec.name + " " + changeKey(rr.targets[i].str(), t.name())))
        proofs[{spec.path, t.from}].leftSafely = true;
  }
  for (ObjectScan& o : scans)
    for (const ScannedSite& site : o.sites) {
      if (site.state.empty()) continue;  // the scan already says it matches no state
      const Proof& p = proofs[{site.spec, site.state}];
      std::string why;
      for (const std::string& a : p.against) why += (why.empty() ? "" : "; ") + a;
      if (!p.leftSafely) why += std::string(why.empty() ? "" : "; ") + "no transition out of it was proven SAFE";
      if (why.empty()) continue;
      o.findings.push_back({site.where, "site is state `" + site.state + "` of " + site.spec +
                                            ", which is not proven SAFE (" + why + ")", {}, false, site.fileOffset});
    }
}

}  // namespace patchcheck
