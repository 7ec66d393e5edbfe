#include "checker/explore/Breakpoints.h"

namespace patchcheck {

std::variant<Breakpoints, Diagnostics> transitionBreakpoints(const SiteInstance& site, const TransitionSpec& t) {
  Breakpoints out;
  Diagnostics errs;
  const IsaPatching& isa = site.target().isa->patching();
  if (!isa.patchBreakpoint() || !site.spec().byteUnits) return out;
  for (const StepSpec& s : t.steps) {
    // text_poke_bp publishes the new instruction of each address it
    // writes the breakpoint at; its handler emulates that instruction.
    // The breakpoint is known by its bytes, however the spec spells it.
    if (s.kind != StepSpec::Kind::Write || !s.interim) continue;
    auto written = site.interim(*s.interim, s.index);
    if (auto* e = std::get_if<Diagnostics>(&written)) {
      errs.insert(errs.end(), e->begin(), e->end());
      continue;
    }
    const UnitImage& byte = std::get<UnitImage>(written);
    if (!isa.isPatchBreakpoint(byte.whole ? byte.whole->assembled : byte.assembled)) continue;
    const auto& starts = site.instructions(t.to);
    auto at = starts.find(s.index);
    if (at == starts.end()) continue;
    if (site.spec().model.breakpoint == ModelSpec::Breakpoint::Emulate)
      if (auto why = isa.breakpointRefuses(at->second->assembled, site.spec().model.breakpointKernel)) {
        errs.push_back({s.where, "'" + s.text + "': " + *why + " (at " + site.spec().unitName(s.index) + " of '" +
                                     t.to + "'; [model] int3_handler = \"skip\" or \"none\" model other handlers)"});
        continue;
      }
    out[s.index] = at->second;
  }
  if (!errs.empty()) return errs;
  return out;
}

std::set<unsigned> instructionStarts(const SiteInstance& site, const TransitionSpec& t) {
  std::set<unsigned> out;
  if (!site.spec().byteUnits) return out;
  for (const std::string& state : {t.from, t.to})
    for (const auto& [unit, insn] : site.instructions(state)) out.insert(unit);
  for (const StepSpec& s : t.steps) {
    if (s.kind == StepSpec::Kind::Write && s.interim) out.insert(s.index);
    // write I..J = STATE: that state's instructions that start there.
    if (s.kind == StepSpec::Kind::Write && !s.source.empty() && site.instructions(s.source).count(s.index))
      out.insert(s.index);
  }
  return out;
}

}  // namespace patchcheck
