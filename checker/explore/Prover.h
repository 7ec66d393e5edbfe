#pragma once
// The thin layer over Z3 the checker uses: base facts asserted once, then
// one check per question, with a timeout. Unknown is never read as unsat.
#include <z3++.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/Answer.h"

namespace patchcheck {

class Prover {
 public:
  Prover(z3::context&, unsigned timeoutMs);

  void assume(const z3::expr&);
  // A fact kept for every later question, asserted once at the base level
  // (outside any push) however often it is assumed: the solver then
  // internalizes it once, not once per scope that asserts it again.
  void assumeBase(const z3::expr&);
  // The facts are exactly these base facts: nothing else assumed, nothing
  // pushed.
  bool assumesExactly(const std::vector<z3::expr>& base) const;
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
  std::string lastUnknownReason() const { return unknownReason_; }

  void push() {
    solver_.push();
    ++scopes_;
    unsat_.emplace_back();
    added_.push_back(false);
  }
  void pop() {
    solver_.pop();
    --scopes_;
    unsat_.pop_back();
    added_.pop_back();
  }

 private:
  std::string why(const std::string& z3Reason) const;

  z3::solver solver_;
  unsigned timeoutMs_;
  std::optional<z3::model> model_;
  unsigned queries_ = 0;
  unsigned scopes_ = 0;       // pushes not yet popped
  std::set<unsigned> base_;   // ids of the facts assumeBase asserted
  // Questions answered before, by id, answered again without the solver.
  // Sat stays Sat (with the same model) until a fact is added; Unsat stays
  // Unsat until the scope it was asked in is popped. Unknown is asked again.
  // The terms are held: a freed term's id is given to the next one made.
  std::map<unsigned, std::pair<z3::expr, z3::model>> sat_;
  std::vector<std::map<unsigned, z3::expr>> unsat_{1};  // one per open scope, the base first
  std::vector<bool> added_{false};  // per scope: were facts assumed in it?
  std::optional<Answer> recall(const z3::expr& query);
  void remember(const z3::expr& query, Answer);
  Answer answer(const z3::expr& query, Answer (Prover::*ask)(const z3::expr&));
  Answer ask(const z3::expr& query);
  Answer askOnce(const z3::expr& query);
  std::string unknownReason_;
};

// A push, popped when it goes out of scope (a question that throws too).
class Scope {
 public:
  explicit Scope(Prover& p) : p_(p) { p_.push(); }
  ~Scope() {
    try {
      p_.pop();
    } catch (const z3::exception&) {  // the prover is dropped with the error
    }
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  Prover& p_;
};

}  // namespace patchcheck
