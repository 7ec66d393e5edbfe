#pragma once
// What a proof leaves as evidence, as plain data: the counterexample a
// kernel developer can follow for UNSAFE, and the counts. explore/ fills
// these in, report/ prints them (checker/explore/Verdict.h). They sit at the
// bottom of checker/ because a trampoline contract carries the outcome of
// its own proof (checker/spec/TrampolineContract.h), and spec/ includes
// nothing above it.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace patchcheck {

// One instruction a pass executed.
struct TraceStep {
  uint64_t address = 0;
  uint64_t word = 0;       // the unit's bytes as the plug-in reads them
  unsigned bytes = 4;      // its length
  std::string encoding;    // a byte-patched ISA's (x86): its bytes in memory order, "e8 10 00 00 00"
  std::string text;        // disassembly
  std::string origin;      // "word 1 (new: jalr t1,at)", "body 0", "ftrace_regs_caller"
  std::string note;        // "interrupt here: resumes at the branch", "delay slot", ...
  // A fetch from the site region: how many of its units it read, one
  // schedule entry each (a byte site's instruction: its bytes); 0 for any
  // other step (a trampoline's, an emulated one).
  unsigned siteUnits = 0;
};

// Which writes a fetch saw: for each fetch of a site word, the version.
struct FetchEvent {
  int word = 0;           // as `write I` names the unit: from F's entry, negative before F
  std::string unit;       // how reports name it: "word 2", "data F-8"
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

}  // namespace patchcheck
