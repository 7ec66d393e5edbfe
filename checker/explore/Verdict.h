#pragma once
// What a check found: per transition and per state, with the counts and,
// for UNSAFE, a counterexample a kernel developer can follow. Reports (text,
// JSON, SARIF, JUnit), tables and graphs are all made from these.
#include <optional>
#include <string>
#include <vector>

#include "checker/spec/Evidence.h"
#include "checker/spec/Spec.h"
#include "encoder/Target.h"

namespace patchcheck {

enum class Verdict { Safe, Unsafe, Unknown };
std::string_view name(Verdict);

// Does a verdict meet what the author claimed? An UNKNOWN neither
// confirms nor refutes a claim: it is never "met", and never a mismatch
// either (exit code 3, not 1).
inline bool expectationMet(const std::optional<Expect>& expect, Verdict v) {
  if (!expect) return v == Verdict::Safe;
  return v != Verdict::Unknown && (*expect == Expect::Safe) == (v == Verdict::Safe);
}

struct TransitionResult {
  std::string spec;              // spec name
  std::string specPath;
  std::string transition;        // its name: given, or "from->to"
  std::string from, to;          // its states
  SourceLocation where;          // of the [[transition]]
  Target target;
  Verdict verdict = Verdict::Safe;
  std::optional<Expect> expect;
  bool expectationMet() const {
    if (!expect) return true;
    return patchcheck::expectationMet(expect, verdict);
  }
  Counts counts;
  std::optional<Counterexample> counterexample;
  std::optional<SourceLocation> culprit;  // spec position of the offending step, when known
  std::vector<std::string> notes;         // "call ftrace_caller checked at the site only", ...
  std::string unknownReason;
};

struct StateResult {
  std::string state;
  Target target;
  Verdict verdict = Verdict::Safe;  // Safe: behaves exactly as declared
  std::optional<Expect> expect;     // [expect] in the spec
  std::string declared;
  Counts counts;
  std::optional<Counterexample> counterexample;
  std::vector<std::string> notes;
  std::string unknownReason;
};

// The modular proof of one trampoline entry's contract on one target
// (docs/trampolines.md). SAFE: its code keeps the contract for every entry
// state the contract allows.
struct TrampolineResult {
  std::string entry;   // "ftrace_caller", "ftrace_caller+8"
  std::string source;        // the assembly file, named from the spec's tree root
  std::string sourceSha256;  // its SHA-256, of the bytes proven
  bool fromObject = false;   // source is OBJ:SYMBOL, the SHA-256 that of the symbol's bytes
  Target target;
  Verdict verdict = Verdict::Safe;
  Counts counts;
  std::optional<Counterexample> counterexample;
  std::string unknownReason;
};

struct SpecResult {
  std::string spec, specPath;
  std::vector<TrampolineResult> trampolines;
  std::vector<StateResult> states;
  std::vector<TransitionResult> transitions;
};

}  // namespace patchcheck
