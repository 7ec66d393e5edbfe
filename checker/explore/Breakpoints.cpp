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
    if (at == starts.end())
      errs.push_back({s.where, "'" + s.text + "': no instruction of '" + t.to + "' starts at byte " +
                                   std::to_string(s.index) + ", so the " + std::string(*trap) +
                                   " handler has nothing to emulate there"});
    else
      out[s.index] = at->second;
  }
  if (!errs.empty()) return errs;
  return out;
}

}  // namespace patchcheck
