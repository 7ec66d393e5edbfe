#pragma once
// The thin layer over Z3 the checker uses: base facts asserted once, then
// one check per question, with a timeout. Unknown is never read as unsat.
#include <z3++.h>

#include <optional>
#include <string>
#include <vector>

#include "model/Answer.h"

namespace patchcheck {

class Prover {
 public:
  Prover(z3::context&, unsigned timeoutMs);

  void assume(const z3::expr&);
  // Is `query` satisfiable together with the base facts?
  Answer check(const z3::expr& query);
  // The same question to a fresh non-incremental solver (Prover.cpp says when).
  Answer checkOnce(const z3::expr& query);
  // Are the base facts and `facts` satisfiable together? When not, `core`
  // gets the indexes of facts that conflict (an unsat core: it names the
  // spec lines behind a placement no symbol can have).
  Answer checkFacts(const std::vector<z3::expr>& facts, std::vector<size_t>& core);
  // The model of the last Sat answer.
  const z3::model& model() const { return *model_; }
  unsigned queries() const { return queries_; }
  // Nothing assumed (outside a push): the facts are only what a caller
  // pushes.
  bool assumesNothing() const { return solver_.assertions().empty(); }
  std::string lastUnknownReason() const { return unknownReason_; }

  void push() { solver_.push(); }
  void pop() { solver_.pop(); }

 private:
  std::string why(const std::string& z3Reason) const;

  z3::solver solver_;
  unsigned timeoutMs_;
  std::optional<z3::model> model_;
  unsigned queries_ = 0;
  std::string unknownReason_;
};

}  // namespace patchcheck
