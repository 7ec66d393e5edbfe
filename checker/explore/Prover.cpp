#include "checker/explore/Prover.h"

#include <stdexcept>

namespace patchcheck {

Prover::Prover(z3::context& c, unsigned timeoutMs) : solver_(c, "QF_AUFBV"), timeoutMs_(timeoutMs) {
  z3::params p(c);
  p.set("timeout", timeoutMs);
  solver_.set(p);
}

void Prover::assume(const z3::expr& e) {
  solver_.add(e);
  sat_.clear();
  added_.back() = true;
}

void Prover::assumeBase(const z3::expr& e) {
  if (scopes_ != 0) throw std::logic_error("Prover::assumeBase inside a push");
  if (base_.insert(Z3_get_ast_id(e.ctx(), e)).second) assume(e);
}

bool Prover::assumesExactly(const std::vector<z3::expr>& base) const {
  if (scopes_ != 0) return false;
  auto idsOf = [](const auto& facts, size_t n) {
    std::set<unsigned> ids;
    for (size_t i = 0; i < n; ++i) ids.insert(Z3_get_ast_id(facts[i].ctx(), facts[i]));
    return ids;
  };
  z3::expr_vector now = solver_.assertions();
  return idsOf(now, now.size()) == idsOf(base, base.size());
}

// Z3 says "canceled" (or "timeout") when a query runs out of time: say
// which limit, so the user knows what to raise.
std::string Prover::why(const std::string& z3Reason) const {
  if (z3Reason == "canceled" || z3Reason == "timeout")
    return "the solver gave up after --timeout " + std::to_string(timeoutMs_) + " ms";
  return "the solver could not decide (" + z3Reason + ")";
}

std::optional<Answer> Prover::recall(const z3::expr& query) {
  unsigned id = Z3_get_ast_id(query.ctx(), query);
  if (auto it = sat_.find(id); it != sat_.end()) {
    model_ = it->second.second;
    return Answer::Sat;
  }
  for (const auto& scope : unsat_)
    if (scope.count(id)) return Answer::Unsat;
  return std::nullopt;
}

void Prover::remember(const z3::expr& query, Answer a) {
  unsigned id = Z3_get_ast_id(query.ctx(), query);
  if (a == Answer::Sat) sat_.insert_or_assign(id, std::make_pair(query, *model_));
  // Unsat under the facts of the lowest scope with all of them: it then
  // outlives the scopes above, which added none.
  size_t level = unsat_.size() - 1;
  while (level > 0 && !added_[level]) --level;
  if (a == Answer::Unsat) unsat_[level].insert_or_assign(id, query);
}

Answer Prover::answer(const z3::expr& query, Answer (Prover::*ask)(const z3::expr&)) {
  ++queries_;
  if (auto known = recall(query)) return *known;
  Answer a = (this->*ask)(query);
  remember(query, a);
  return a;
}

Answer Prover::check(const z3::expr& query) { return answer(query, &Prover::ask); }

Answer Prover::checkOnce(const z3::expr& query) { return answer(query, &Prover::askOnce); }

Answer Prover::ask(const z3::expr& query) {
  z3::expr q = query.simplify();
  if (q.is_false()) return Answer::Unsat;
  solver_.push();
  solver_.add(q);
  z3::check_result r = solver_.check();
  Answer a = r == z3::sat ? Answer::Sat : r == z3::unsat ? Answer::Unsat : Answer::Unknown;
  if (a == Answer::Sat) model_ = solver_.get_model();
  if (a == Answer::Unknown) unknownReason_ = why(solver_.reason_unknown());
  solver_.pop();
  return a;
}

// A fresh solver with the same facts: Z3 then runs its one-shot QF_AUFBV
// tactic (simplify, bit-blast, SAT) instead of the incremental core, about
// twice as fast on one large question (a trampoline path's rules), slower
// on many small ones (the explorer's).
Answer Prover::askOnce(const z3::expr& query) {
  z3::expr q = query.simplify();
  if (q.is_false()) return Answer::Unsat;
  z3::solver once(solver_.ctx(), "QF_AUFBV");
  z3::params p(solver_.ctx());
  p.set("timeout", timeoutMs_);
  once.set(p);
  z3::expr_vector facts = solver_.assertions();
  for (unsigned i = 0; i < facts.size(); ++i) once.add(facts[i]);
  once.add(q);
  z3::check_result r = once.check();
  Answer a = r == z3::sat ? Answer::Sat : r == z3::unsat ? Answer::Unsat : Answer::Unknown;
  if (a == Answer::Sat) model_ = once.get_model();
  if (a == Answer::Unknown) unknownReason_ = why(once.reason_unknown());
  return a;
}

Answer Prover::checkFacts(const std::vector<z3::expr>& facts, std::vector<size_t>& core) {
  ++queries_;
  z3::context& c = solver_.ctx();
  z3::solver s(c, "QF_AUFBV");
  z3::params p(c);
  p.set("timeout", timeoutMs_);
  p.set("core.minimize", true);
  s.set(p);
  z3::expr_vector base = solver_.assertions();
  for (unsigned i = 0; i < base.size(); ++i) s.add(base[i]);
  for (size_t i = 0; i < facts.size(); ++i) s.add(facts[i], ("fact#" + std::to_string(i)).c_str());
  z3::check_result r = s.check();
  core.clear();
  if (r == z3::sat) {
    model_ = s.get_model();
    return Answer::Sat;
  }
  if (r == z3::unknown) {
    unknownReason_ = why(s.reason_unknown());
    return Answer::Unknown;
  }
  z3::expr_vector names = s.unsat_core();
  for (unsigned k = 0; k < names.size(); ++k)
    core.push_back(std::stoul(names[k].decl().name().str().substr(std::string("fact#").size())));
  return Answer::Unsat;
}

}  // namespace patchcheck
