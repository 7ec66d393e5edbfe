#pragma once
// The one step loop. Every run of code goes through it: a pass through a
// patch site (checker/explore/PassExplorer), a trampoline
// (checker/explore/TrampolineRun), `patchcheck run`, and the concrete runs
// that replay counterexamples and meet QEMU (model/mips/Concrete). It keeps
// the executions still to run, forks where the plug-in leaves a branch
// undecided (IsaModel::undecided), runs one instruction at a time and stops
// an execution at the step limit. Its client says what lies at pc, what a
// step's faults and effects mean and how an execution ends. Every question
// goes to one Decide: the checker's Prover (under --timeout), or numerals
// alone in a concrete run.
#include <z3++.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/Answer.h"
#include "model/Cpu.h"
#include "model/IsaModel.h"

namespace patchcheck {

// The default of the one step limit (--max-steps): how many instructions
// one execution (a pass through a site, a trampoline run, a path of
// `patchcheck run`) runs before it counts as not terminating.
inline constexpr unsigned kDefaultMaxSteps = 1024;

// One execution: the CPU and the conditions that chose its way so far.
struct Execution {
  explicit Execution(Cpu c) : cpu(std::move(c)) {}

  Cpu cpu;
  std::vector<z3::expr> path;
  unsigned steps = 0;

  // Adds a condition to the path, unless it is plainly true.
  void assume(const z3::expr&);
  z3::expr condition() const;  // the path's conjunction
};

// Is `cond` possible together with `path`?
using Decide = std::function<Answer(const std::vector<z3::expr>& path, const z3::expr& cond)>;

// A Decide for concrete runs: every condition simplifies to true or false;
// one that does not is Unknown.
Answer decideByValue(const std::vector<z3::expr>& path, const z3::expr& cond);

template <class E>  // E derives from Execution
class Executor {
 public:
  class Client {
   public:
    virtual ~Client() = default;
    // At an instruction boundary with no branch left undecided: the
    // instruction at pc, or nothing when the execution ends here (or the
    // client forked it with Executor::later / Executor::step).
    virtual std::optional<Instruction> fetch(E&) = 0;
    // Just before an instruction runs.
    virtual void beforeStep(E&) {}
    // After it ran, with the faults it may raise and the index of its first
    // side effect: false when the execution ended.
    virtual bool stepped(E&, const std::vector<Fault>&, size_t effectsBefore) = 0;
    // The execution ran the step limit's instructions and has not ended.
    virtual void runaway(E&) = 0;
    // An undecided branch went this way (for traces).
    virtual void settled(E&, bool /*taken*/) {}
    // Neither way of an undecided branch is possible, or none could be
    // decided: the execution goes no further.
    virtual void stuck(E&) {}
    // Stop taking executions from the queue (a counterexample is found).
    virtual bool done() const { return false; }
  };

  // The work done so far, for the budget.
  struct Effort {
    unsigned taken = 0;       // executions taken from the queue
    unsigned made = 0;        // executions queued (forks included), taken or waiting
    unsigned long steps = 0;  // instructions run, over every execution
  };

  struct Options {
    unsigned maxSteps = kDefaultMaxSteps;
    // An exception may come before any instruction: the plug-in clobbers
    // what the kernel's exception entry may change (IsaModel::exceptionBoundary).
    bool exceptionsBetweenSteps = false;
    // Why to stop, if so: asked before each execution is taken from the
    // queue and before every step, so that one execution that runs and
    // forks without end is bound as well as many short ones.
    std::function<std::optional<std::string>(const Effort&)> budget;
    // Executions wait in queues by rank, the lowest first (the explorer:
    // the fewest interrupts); within one, the newest first.
    std::function<unsigned(const E&)> rank;
  };

  Executor(Client& client, Decide decide, Options o)
      : client_(client), decide_(std::move(decide)), o_(std::move(o)) {}

  // Queues an execution.
  void later(E e) {
    ++work_.made;
    unsigned r = o_.rank ? o_.rank(e) : 0;
    if (queues_.size() <= r) queues_.resize(r + 1);
    queues_[r].push_back(std::move(e));
  }

  // Runs every queued execution to its end; the budget's reason when it
  // stopped before.
  std::optional<std::string> run() {
    while (!client_.done() && !over_) {
      auto q = std::find_if(queues_.begin(), queues_.end(), [](const auto& v) { return !v.empty(); });
      if (q == queues_.end()) return std::nullopt;
      ++work_.taken;
      if (spent()) break;
      E e = std::move(q->back());
      q->pop_back();
      advance(e);
    }
    return over_;
  }

  // Runs one instruction on `e`; false when the execution ended.
  bool step(E& e, const Instruction& i) {
    if (o_.exceptionsBetweenSteps) e.cpu.isa().exceptionBoundary(e.cpu.state);
    client_.beforeStep(e);
    size_t effectsBefore = e.cpu.state.effects.size();
    std::vector<Fault> faults = e.cpu.step(i);
    ++e.steps;
    ++work_.steps;
    return client_.stepped(e, faults, effectsBefore);
  }

  // The answer to `cond` on e's path. Unknown is remembered: some way was
  // not explored, so no verdict built on this run may be SAFE.
  Answer decide(const E& e, const z3::expr& cond) {
    z3::expr s = cond.simplify();
    if (s.is_false()) return Answer::Unsat;
    if (s.is_true() && e.path.empty()) return Answer::Sat;
    Answer a = decide_(e.path, s);
    if (a == Answer::Unknown) undecided_ = true;
    return a;
  }
  bool possible(const E& e, const z3::expr& cond) { return decide(e, cond) == Answer::Sat; }

  // Some question had no answer.
  bool undecided() const { return undecided_; }
  unsigned maxSteps() const { return o_.maxSteps; }

 private:
  Client& client_;
  Decide decide_;
  Options o_;
  std::vector<std::vector<E>> queues_;
  bool undecided_ = false;
  Effort work_;
  std::optional<std::string> over_;  // the budget's reason, once spent

  bool spent() {
    if (!over_ && o_.budget) over_ = o_.budget(work_);
    return bool(over_);
  }

  void advance(E& e) {
    while (true) {
      // The execution stops where it is: it is not a path, its hazards
      // are not asked, and run() answers with the budget's reason.
      if (spent()) return;
      if (e.steps >= o_.maxSteps) {
        client_.runaway(e);
        return;
      }
      if (e.cpu.branchUnsettled() && !settle(e)) return;
      std::optional<Instruction> i = client_.fetch(e);
      if (!i || !step(e, *i)) return;
    }
  }

  // Forks on the undecided branch: false when neither way is possible.
  bool settle(E& e) {
    z3::expr taken = *e.cpu.undecided();
    bool yes = possible(e, taken), no = possible(e, !taken);
    if (!yes && !no) {
      client_.stuck(e);
      return false;
    }
    if (yes && no) {
      E other = e;
      other.assume(!taken);
      other.cpu.settleBranch(false);
      client_.settled(other, false);
      later(std::move(other));
    }
    e.assume(yes ? taken : !taken);
    e.cpu.settleBranch(yes);
    client_.settled(e, yes);
    return true;
  }
};

}  // namespace patchcheck
