#include "checker/Prover.h"

namespace patchcheck {

Prover::Prover(z3::context& c, unsigned timeoutMs) : solver_(c, "QF_AUFBV") {
  z3::params p(c);
  p.set("timeout", timeoutMs);
  solver_.set(p);
}

void Prover::assume(const z3::expr& e) { solver_.add(e); }

Answer Prover::check(const z3::expr& query) {
  ++queries_;
  z3::expr q = query.simplify();
  if (q.is_false()) return Answer::Unsat;
  solver_.push();
  solver_.add(q);
  z3::check_result r = solver_.check();
  Answer a = r == z3::sat ? Answer::Sat : r == z3::unsat ? Answer::Unsat : Answer::Unknown;
  if (a == Answer::Sat) model_ = solver_.get_model();
  if (a == Answer::Unknown) unknownReason_ = solver_.reason_unknown();
  solver_.pop();
  return a;
}

}  // namespace patchcheck
