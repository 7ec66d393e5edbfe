#include "checker/explore/Breakpoints.h"

namespace patchcheck {
namespace {

std::string trimmed(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

std::variant<Breakpoints, Diagnostics> transitionBreakpoints(const SiteInstance& site, const TransitionSpec& t) {
  Breakpoints out;
  Diagnostics errs;
  auto trap = site.target().isa->patchBreakpoint();
  if (!trap || !site.spec().byteUnits) return out;
  for (const StepSpec& s : t.steps) {
    // text_poke_bp publishes the new instruction of each address it
    // writes the breakpoint at; its handler emulates that instruction.
    if (s.kind != StepSpec::Kind::Write || !s.interim || trimmed(s.interim->text) != *trap) continue;
    const auto& starts = site.instructions(t.to);
    auto at = starts.find(s.index);
    if (at == starts.end()) continue;
    if (site.spec().model.breakpoint == ModelSpec::Breakpoint::Emulate)
      if (auto why = site.target().isa->breakpointRefuses(at->second->assembled)) {
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
  for (const StepSpec& s : t.steps)
    if (s.kind == StepSpec::Kind::Write && s.interim) out.insert(s.index);
  return out;
}

}  // namespace patchcheck
