#pragma once
// Human-readable and JSON renderings of check results.
#include <nlohmann/json.hpp>

#include <ostream>
#include <vector>

#include "checker/explore/Verdict.h"
#include "checker/spec/Spec.h"

namespace patchcheck {

struct RunResults {
  std::vector<SpecResult> specs;  // one per (spec, target)
  std::vector<Target> targets;
  // Bad input met on the way (a spec, baseline or trampoline that could not
  // be read): every output format carries them, and the exit code is 2.
  Diagnostics errors;
};

// Verdicts in the text reports in colour (SAFE green, UNSAFE red, UNKNOWN
// yellow); main turns it on for a terminal unless NO_COLOR is set.
void setColour(bool);

// Addresses print as the target holds them: 32-bit targets show 32 bits.
void printCounterexample(std::ostream&, const Counterexample&, const std::string& indent,
                         const Target&);
void printSpecResult(std::ostream&, const SpecResult&, const Target&, bool verbose);
// One row per transition and target (and per trampoline or state that is
// not SAFE), closed by summaryLine.
void printSummaryTable(std::ostream&, const RunResults&);
// "summary: 208 checked: 200 SAFE, 8 UNSAFE, 0 UNKNOWN; every expectation met":
// transitions by verdict, and whether each `expect` held.
std::string summaryLine(const RunResults&);

nlohmann::json toJson(const Counterexample&);
nlohmann::json toJson(const TransitionResult&);
nlohmann::json toJson(const StateResult&);
nlohmann::json toJson(const TrampolineResult&);
nlohmann::json toJson(const RunResults&);
// Removes the wall-clock "seconds" of every "counts" object (--no-times).
void dropTimes(nlohmann::json&);

// 2 when the run met bad input, else 0 all safe (and expectations met), 1
// unsafe or an expectation missed, 3 unknown. A transition with `expect` counts as its expectation says; a
// broken state counts on its own only when no checked transition covers it.
int exitCodeOf(const RunResults&);

// A broken state is also broken in every transition from or to it, where
// the transition's expectation decides; alone it counts (exit code, gate
// failures) only when no checked transition covers it.
// Every judged item that is not as expected (not SAFE where nothing is
// expected), one line each with its reason: what `gate` and `check` print
// when they do not exit 0.
std::vector<std::string> problems(const RunResults&);

// The line that decides a transition: its offending step when the check
// named one (a culprit other than the [[transition]] header, the checker's
// default), else its first step, else the header. `spec` may be null.
unsigned decidingLine(const TransitionResult&, const Spec* spec);

// problems() as a compiler prints them, where each lies in its spec
// (`specs[i]` is the spec of rr.specs[i], or null):
// "specs/x.toml:57: error: noregs->disabled [mips64r2/n64/big]: UNSAFE, but
// the spec expects safe: ..."; an UNKNOWN is a warning.
std::vector<std::string> problemDiagnostics(const RunResults&, const std::vector<const Spec*>& specs);

}  // namespace patchcheck
