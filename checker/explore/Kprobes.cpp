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
      // The word before it, where the spec says what memory holds there
      // (the probed state's word, or a data unit before F).
      const auto& words = site.state(probed);
      const Unit* previous = !spec.byteUnits && unit > 0 ? &words[unit - 1].assembled : nullptr;
      IsaPatching::KprobeRun run = isa.kprobeRunAfter(original->second->assembled, previous);
      if (isa.isProbeBreakpoint(original->second->assembled))
        run = {IsaPatching::KprobeRun::Refused, "it is the probe breakpoint itself"};
      if (run.kind == IsaPatching::KprobeRun::Refused) {
        std::string outcome = run.byKernel ? ", so register_kprobe fails and nothing is armed"
                                           : ", so the spec is refused rather than checked without it";
        errs.push_back({spec.kprobeWhere, "'" + original->second->source + "' cannot be probed: " + run.why +
                                              outcome + " (the breakpoint at " + where + ")"});
        continue;
      }
      std::shared_ptr<const UnitImage> delaySlot;
      if (run.kind == IsaPatching::KprobeRun::DelaySlotOutOfLine) {
        unsigned next = unit + 1;
        if (next < spec.siteUnits()) delaySlot = std::make_shared<const UnitImage>(words[next]);
        else if (next - spec.siteUnits() < site.body().size())
          delaySlot = std::make_shared<const UnitImage>(site.body()[next - spec.siteUnits()]);
        if (!delaySlot) {
          errs.push_back({spec.kprobeWhere, "'" + original->second->source + "' is a branch whose delay slot the "
                                                "kprobe handler copies from the word after it, which lies outside "
                                                "the site and its body (the breakpoint at " + where + ")"});
          continue;
        }
      }
      Kprobe& k = out[unit];
      k.insn = original->second;
      k.delaySlot = delaySlot;
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
