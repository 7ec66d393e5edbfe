#pragma once
// What a check found: per transition and per state, with the counts and,
// for UNSAFE, a counterexample a kernel developer can follow. Reports (text,
// JSON, SARIF, JUnit), tables and graphs are all made from these.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/spec/Spec.h"
#include "encoder/Target.h"

namespace patchcheck {

enum class Verdict { Safe, Unsafe, Unknown };
std::string_view name(Verdict);

// One instruction a pass executed.
struct TraceStep {
  uint64_t address = 0;
  uint32_t word = 0;
  std::string text;        // disassembly
  std::string origin;      // "word 1 (new: jalr t1,at)", "body 0", "ftrace_regs_caller"
  std::string note;        // "interrupt here: resumes at the branch", "delay slot", ...
};

// Which writes a fetch saw: for each fetch of a site word, the version.
struct FetchEvent {
  unsigned word = 0;
  std::string version;     // "old", "new", "interim 1"
  unsigned writesLanded = 0;  // how many of the writer's steps had happened
};

struct Counterexample {
  std::string rule;                      // the broken rule, one line
  std::string intermediateState;         // words of the site the pass saw, one line
  std::vector<FetchEvent> schedule;
  std::vector<std::string> interrupts;   // where an interrupt hit
  std::vector<TraceStep> trace;
  std::vector<std::pair<std::string, uint64_t>> entryRegisters;  // $1..$31 by ABI name
  std::map<std::string, uint64_t> symbols;         // symbol -> address
  std::vector<std::string> details;      // register that differs, target reached, ...
  bool replayed = false;                 // confirmed by the concrete semantics
  std::string replayNote;
};

struct Counts {
  unsigned intermediateStates = 0;
  // Of those, how many admit at least one feasible execution (a SAFE
  // verdict needs all of them: else it would hold vacuously).
  unsigned witnessedStates = 0;
  unsigned executions = 0;
  unsigned paths = 0;
  unsigned queries = 0;
  double seconds = 0;
};

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
  std::string transition;        // "from->to"
  SourceLocation where;          // of the [[transition]]
  mips::Target target;
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
  mips::Target target;
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
  mips::Target target;
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
