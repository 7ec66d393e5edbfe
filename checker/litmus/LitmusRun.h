#pragma once
// Every execution of a litmus test's threads (docs/litmus.md "How a test
// runs"): instructions run through the plug-in's semantics on concrete
// values, one at a time in every interleaving; stores wait in a per-CPU
// buffer until they reach memory; each fetch returns a version the Arm
// fetch model allows (checker/explore/CacheMaintenance.h, shared with
// `check`). The final states answer the condition as herd7 does.
#include <z3++.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "checker/litmus/LitmusStep.h"
#include "checker/litmus/LitmusTest.h"
#include "checker/spec/FetchRules.h"
#include "encoder/Diagnostic.h"
#include "encoder/Target.h"

namespace patchcheck::litmus {

struct Limits {
  unsigned maxStates = 2'000'000;   // distinct states explored
  unsigned maxThreadSteps = 1000;   // instructions one thread may run
};

struct LitmusResult {
  std::string name;
  std::string cacheType;                             // "DIC0-IDC0", ...; empty: the model takes none (RISC-V)
  std::string fetch;                                 // the fetch model it ran under: "arm", "ziccif", ...
  std::string condition;                             // as herd7 prints it: "exists (0:X9=0)"
  std::string quantifier;                            // "exists", "~exists", "forall"
  std::vector<std::map<std::string, uint64_t>> states;  // distinct final states, sorted
  unsigned positive = 0, negative = 0;               // final states where the proposition holds / not
  std::string observation;                           // Never, Sometimes, Always
  std::string verdict;                               // Allowed, Forbidden (exists, ~exists); Required, NotRequired (forall)
  uint64_t explored = 0;                             // states visited
};

// What the tests of one run share: its Z3 context and, per target, the
// instruction steps already computed (LitmusStep.h: a step's outcome is a
// function of its word, pc, registers and the bytes it reads, whichever
// test reaches it). Tests share no solver, so no answer depends on the
// tests before it.
class LitmusSession {
 public:
  explicit LitmusSession(z3::context& c) : ctx_(c) {}
  ~LitmusSession();
  StepSemantics& semantics(const Target&);

 private:
  z3::context& ctx_;
  std::vector<std::unique_ptr<StepSemantics>> semantics_;
};

// `fetch`: the fetch model to run under (one the test's ISA allows);
// nothing: its dialect's (LitmusDialect::fetchModel).
std::variant<LitmusResult, Diagnostics> runLitmus(const Test&, LitmusSession&, const Limits& = {},
                                                  const FetchRules* fetch = nullptr);
// The same in a session of its own.
std::variant<LitmusResult, Diagnostics> runLitmus(const Test&, z3::context&, const Limits& = {},
                                                  const FetchRules* fetch = nullptr);

// The proposition as herd7 prints it: "(1:X10=1 /\ 1:X11=0)".
std::string str(const Prop&);

}  // namespace patchcheck::litmus
