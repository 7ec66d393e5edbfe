#include "checker/explore/Kprobes.h"

namespace patchcheck {
namespace {

// A state's instructions by unit: decoded from the first byte on a byte
// site, one per word otherwise.
std::map<unsigned, std::shared_ptr<const UnitImage>> instructionsOf(const SiteInstance& site, const std::string& state) {
  if (site.spec().byteUnits) return site.instructions(state);
  std::map<unsigned, std::shared_ptr<const UnitImage>> out;
  const auto& words = site.state(state);
  for (unsigned u = site.spec().entryUnit(); u < site.spec().siteUnits(); ++u)
    out[u] = std::make_shared<const UnitImage>(words[u]);
  return out;
}

}  // namespace

std::variant<Kprobes, Diagnostics> siteKprobes(const SiteInstance& site) {
  const Spec& spec = site.spec();
  Kprobes out;
  if (spec.model.kprobe.empty()) return out;
  const IsaPatching& isa = site.target().isa->patching();
  Diagnostics errs;
  const std::string& probed = spec.model.kprobe;
  auto originals = instructionsOf(site, probed);
  for (const StateSpec& st : spec.states)
    for (const auto& [unit, insn] : instructionsOf(site, st.name)) {
      if (!isa.isProbeBreakpoint(insn->assembled)) continue;
      std::string where = spec.unitName(unit) + " of '" + st.name + "'";
      auto original = originals.find(unit);
      if (original == originals.end()) {
        errs.push_back({spec.kprobeWhere, "the kprobe breakpoint at " + where + " lies inside an instruction of '" +
                                              probed + "': register_kprobe takes only an instruction's first byte"});
        continue;
      }
      IsaPatching::KprobeRun run = isa.kprobeRun(original->second->assembled);
      if (isa.isProbeBreakpoint(original->second->assembled))
        run = {IsaPatching::KprobeRun::Refused, "it is the probe breakpoint itself"};
      if (run.kind == IsaPatching::KprobeRun::Refused) {
        errs.push_back({spec.kprobeWhere, "'" + original->second->source + "' cannot be probed: " + run.why +
                                              ", so register_kprobe fails and nothing is armed (the breakpoint at " +
                                              where + ")"});
        continue;
      }
      Kprobe& k = out[unit];
      k.insn = original->second;
      k.run = run.kind;
      k.armedIn.insert(st.name);
    }
  if (!errs.empty()) return errs;
  return out;
}

KprobeLife kprobeLife(const Kprobes& probes, const std::string& from, const std::string& to) {
  KprobeLife life;
  for (const auto& [unit, k] : probes) {
    if (k.armedIn.count(from) || k.armedIn.count(to)) life.during.insert(unit);
    if (k.armedIn.count(to)) life.after.insert(unit);
  }
  return life;
}

}  // namespace patchcheck
