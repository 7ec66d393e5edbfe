#pragma once
// The pass explorer (PassExplorer.h) inside: its events, hazards and
// executions, and the Explorer class, whose parts live by concern in
// PassRun.cpp (the run, locations, faults, one query per path),
// PassExits.cpp (exit checks, inline trampolines), PassFetch.cpp (unit
// versions, crossed branches, CMODX), PassFetchMerging.cpp (symbolic
// fetch choices), PassByteFetch.cpp (byte sites, breakpoints) and
// PassReplay.cpp (counterexamples and their concrete replay).
// Internal to checker/explore: include PassExplorer.h instead.
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "checker/explore/AddressFacts.h"
#include "checker/explore/PassEvent.h"
#include "checker/explore/PassExplorer.h"
#include "checker/explore/SymbolOffsets.h"
#include "model/Cpu.h"
#include "model/Executor.h"
#include "model/IsaModel.h"

namespace patchcheck::passes {

// The value of a numeral (0 for anything else).
uint64_t u64(const z3::expr& e);
// The placement symbols' terms.
std::vector<z3::expr> symbolTerms(const SiteInstance& site);

enum class LocKind { Unit, RegionEnd, Symbol, Elsewhere };
struct Location {
  LocKind kind;
  unsigned unit = 0;  // Unit, RegionEnd: the site region's unit
  std::string symbol;  // a declared symbol, or a trampoline entry key ("ftrace_caller+8")
  std::string callee;  // the function `symbol` is an entry of
};

// A trampoline a pass ran inline, and the state at its entry (where the
// behaviour's `with` conditions are checked).
struct Called {
  std::string entry, callee;
  MachineState atEntry;
};

// What the replay must find concretely for a hazard to be confirmed.
// The version each unit was seen in, "byte 0 old, byte 1 new"; a run of
// three or more neighbouring units seen in one version is a range ("bytes
// 0..154 old"), so a large site names only where the versions change.
std::string unitsSeen(const Spec& spec, const std::map<unsigned, std::string>& seen);

struct Hazard {
  Violation violation;
  enum class Kind { Fault, Exit, Elsewhere, Overwritten, Runaway, Trampoline, Effect, Cmodx } kind;
  std::optional<Location> exit;  // Exit: where the pass left
  size_t events = 0;             // how many events had happened
  FaultKind fault = FaultKind::Unpredictable;
};

// One pass: an execution of the one executor (model/Executor.h) with what
// the fetch model tracks and what the pass has done.
struct Node : Execution {
  using Execution::Execution;
  std::vector<Observer> observers;
  std::vector<Event> events;
  std::vector<Hazard> hazards;
  unsigned interrupts = 0;
  bool inBody = false;
  std::optional<Location> located;  // a location fork already chosen
  std::optional<Called> called;     // inline: the trampoline this pass ran
  unsigned fetchedAt = 0;           // byte site: the unit the last instruction started at
  bool fetchedInDelaySlot = false;  // the last instruction was fetched in a delay slot
  // The breakpoint handler runs this instruction at `.first` next.
  std::optional<std::pair<z3::expr, Instruction>> emulate;
  std::string emulatedBy;  // which handler, for the trace (empty: text_poke_bp's int3 handler)
  // Then this one, at `at`, by `by` (MIPS kprobes: a branch's delay
  // slot, stepped in the slot after the branch was evaluated in place).
  struct Emulation {
    z3::expr at;
    Instruction instruction;
    std::string by;
  };
  std::optional<Emulation> emulateNext;
  // The kprobe handler stepped the probed instruction out of line: a pc
  // at `.first` (the end of the slot's copy) resumes at `.second`.
  std::optional<std::pair<z3::expr, z3::expr>> resumeFromSlot;
};

class Explorer final : public Executor<Node>::Client {
 public:
  // `merging`: symbolic fetch choices (FetchChoices.h); `cap`: give up
  // (overCap()) once the exploration takes more executions.
  Explorer(const PassSetup& s, Prover& p, bool merging, std::optional<unsigned> cap = std::nullopt)
      : s_(s), prover_(p), merging_(merging), cap_(cap), c_(s.site->ctx()), t_(s.site->target()),
        isa_(modelOf(t_)), abi_(isa_.abi(t_)),
        entry_(MachineState::symbolic(c_, t_, "in.")), executor_(*this, decider(), options()),
        addresses_([this](const std::vector<z3::expr>&, const z3::expr& fact) {
          return prover_.check(fact);  // base facts only; an open question rewrites nothing
        }),
        offsets_(p, symbolTerms(*s.site)) {
    EntryBranch e = s.site->spec().enteredBy;
    enteredBy_ = isa_.enteredBy(entry_, e != EntryBranch::Indirect, e != EntryBranch::Direct);
  }

  // The exploration passed its cap: its outcome means nothing.
  bool overCap() const { return overCap_; }
  // A merged execution broke a rule on a schedule the fetch model does not
  // allow (merging forgets which fetches each observer made): the outcome
  // means nothing, explore explicitly.
  bool spurious() const { return spurious_; }

  PassOutcome run();

 private:
  const PassSetup& s_;
  Prover& prover_;
  bool merging_;
  std::optional<unsigned> cap_;
  mutable bool overCap_ = false;  // set by the executor's budget check
  bool spurious_ = false;
  unsigned choices_ = 0;  // fetch choice terms made
  z3::context& c_;
  Target t_;
  const IsaModel& isa_;
  const AbiModel& abi_;
  MachineState entry_;
  std::optional<z3::expr> enteredBy_;  // what F's entry branch may have been ([site] entered_by)
  PassOutcome out_;
  bool unknown_ = false;
  // The facts under every path are the site's placement and the entry
  // facts alone, which SiteInstance::make showed to have a model: a path
  // whose condition is true is then feasible without asking.
  bool baseSatisfiable_ = false;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  Executor<Node> executor_;
  // A branch target read back from a placement-dependent immediate
  // (F + sext(T - F) when T is in reach) is T, once proven: then each
  // location question is a numeral, not one solver query per symbol.
  AddressFacts addresses_;
  // An address computed from placement symbols alone (lui/ori, %hi/%lo)
  // is one symbol plus a constant, once proven.
  SymbolOffsets offsets_;

  // Crossed conditional branches (mixesOf) by unit, version, racing
  // version and which one gives the condition; kept for the events that
  // point at them.
  std::map<std::tuple<unsigned, unsigned, unsigned, bool>, UnitImage> mixes_;

  std::vector<ApartRanges> opsApart_;  // assumeCallOps' ranges, for the inline runs' AddressFacts

  // Inline mode: each struct F's ops literal may name (each version of
  // that data unit) gets at F's entry what the trampoline's [call_ops]
  // contract lets its modular proof assume of the struct (CallOpsFacts.h):
  // without it ops->direct_call is any value and the run jumps anywhere.
  // In F's entry memory rather than at the trampoline's entry, so that a
  // site's own stores stay on top and a replay evaluates the same facts.
  void assumeCallOps();

  // Units before this are the site's (its data units, then those from F on), the rest the body's.
  unsigned siteUnits() const { return s_.site->spec().siteUnits(); }

  // Every question goes to the prover. Unknown: that way is not explored,
  // and the verdict is UNKNOWN.
  Decide decider();

  Executor<Node>::Options options() const;

  void later(Node&& n) { executor_.later(std::move(n)); }

  // The wall-clock budget checked within one step that may fork many ways
  // (the executor checks it between executions).
  bool timeUp();
  z3::expr pathOf(const Node& n) const { return n.condition(); }
  bool feasible(const Node& n, const z3::expr& cond) { return executor_.possible(n, cond); }

  bool done() const override { return out_.counterexample || out_.witnessed || spurious_; }

  void addHazard(Node& n, const z3::expr& cond, Hazard::Kind kind,
                 std::function<std::string(const z3::model&)> explain,
                 std::optional<Location> exit = std::nullopt);

  // "T+0x8 (0x...)": the closest declared symbol at or below, within 4 KiB.
  std::string nameAddress(uint64_t a, const z3::model& m) const;

  // ---- one execution, as the executor's client
  void runaway(Node& n) override;

  void settled(Node& n, bool taken) override;

  // Where the pass is: an interrupt may come first; the location may fork;
  // a site unit may be seen in several versions (each its own execution).
  std::optional<Instruction> fetch(Node& n) override;

  void forkInterrupt(Node& n);

  // Where the next fetch is: a unit of the site region, its end, a declared
  // symbol, or anywhere else; each feasible one with its condition.
  std::vector<std::pair<Location, z3::expr>> locate(const Node& n);

  // Handles the location: the instruction to run there, or nothing when
  // the execution ended.
  std::optional<Instruction> handle(Node& n, const Location& loc);

  // The pass is back at F's entry. With the stack where it was, it runs
  // the site again (a loop, a self-branch waiting for a write); with sp
  // moved, F runs recursively (a torn call to F itself), which nothing
  // the spec allows does. False when no way on is left.
  bool reenter(Node& n);

  using Alternatives = std::vector<std::pair<std::string, std::vector<Violation>>>;

  const TrampolineContract* contractAt(const std::string& key) const;

  // Does `call T [+ k]` name the entry `loc`? `call T` names T itself and,
  // when T's code is known, every entry its contract lists.
  bool names(const OutcomeSpec& o, const Location& loc) const;

  // `call T` where the pass reached `loc`, an entry of T: the contract of
  // that entry, if T's code is known (modular: T's proof covers the rest).
  std::vector<Violation> callAt(const ExitContext& x, const OutcomeSpec& o, const Location& loc) const;

  // CALL_OPS: the trampoline's proof takes F's ops literal to point to a
  // struct ftrace_ops ([call_ops]: ops->func the callback, direct_call 0 or
  // the direct trampoline). A modular proof may rely on that only when
  // every version of the literal a later load may read names a data symbol
  // the spec declares: not a numeral (`.quad 0`: ftrace_caller would load
  // ops->direct_call from address 184), not F or any code the spec calls or
  // enters, not an expression. Every version of the literal in this pass's
  // site counts: the trampoline loads it after the pass enters, at any
  // later time.
  std::optional<Violation> opsLiteralViolation(const TrampolineCode& code) const;

  // The trampoline's proof starts from the entry state its contract
  // states: each register of its `values` within them, and every other
  // register outside the general ones that is fixed at a function's entry
  // (arm64's BTYPE, x86's DF) at zero. The pass must arrive so:
  // under arm64-bti BTYPE is the branch type a landing pad judges, so a
  // `br x10` into an entry whose contract takes BTYPE 00 (a BL) or 01 (a
  // `br x16/x17`) is refused, as the inline run's Branch Target exception.
  std::vector<Violation> contractRegisters(const ExitContext& x, const TrampolineContract& k) const;

  // The allowed behaviours that fit where the pass left, each with what
  // would break it. A pass that ran a trampoline inline and came back fits
  // only `call T`: its conditions at T's entry, its live state here.
  Alternatives alternatives(const Location& loc, const ExitContext& x, const std::optional<Called>& called) const;

  void exitCheck(Node& n, const Location& loc, bool inSlot);

  // Inline mode: at a trampoline entry that an allowed `call` names, the
  // pass runs the trampoline's real instructions (checker/explore/TrampolineRun.h) and,
  // where it resumes, goes on through the site. False when this is not
  // such a place.
  bool runInline(Node& n, const Location& loc, bool inSlot);

  // The distinct images of unit i these observers may fetch, each with
  // the observers after it. `merge` = false: each version its own group
  // (a byte site checks each instruction's versions together afterwards,
  // FetchModel::stillFetchable, which needs the version each observer saw).
  struct Group {
    const UnitImage* image;
    std::vector<Observer> observers;
    std::string names;
    std::optional<std::string> race;  // a CMODX violation this fetch may be part of
    std::vector<unsigned> versions;   // every version with this image
  };
  std::vector<Group> groupsOf(const std::vector<Observer>& observers, unsigned i, bool merge = true);

  // Arm ARM B2.2.5: a conditional branch fetched while a write turns it into
  // another conditional branch may run with the condition of either and
  // the target of either. The two crossed units, for each version a write
  // racing this fetch of version v puts there. The fetch is one of version
  // v for the fetch model (the mix's bits are v's and the racing write's).
  std::vector<const UnitImage*> mixesOf(const std::vector<Observer>& obs, unsigned i, unsigned v);

  // Is `img` a crossed unit fetched as version v of unit i?
  bool mixOf(const UnitImage* img, unsigned i, unsigned v) const;

  // The unit with `target`'s bits in `field` and `cond`'s elsewhere.
  UnitImage crossed(const UnitImage& cond, const UnitImage& target, uint64_t field) const;

  // The versions of unit i the pass may see: one execution per distinct
  // image; the others run their step now and wait, this one goes on.
  std::optional<Instruction> fetchVersions(Node& n, unsigned i);

  // Symbolic fetch choices: each image runs its step from the same state
  // under `choice == k`; the executions that end at the same place with
  // the same kind of state are one again, each register and memory
  // holding its image's result under its guard. Those that differ (a
  // branch in one image, not in another) go on apart: a path is a
  // control-flow path.
  std::optional<Instruction> fetchMerged(Node& n, unsigned i, const std::vector<Group>& groups);

  static bool sameTerms(const std::vector<z3::expr>& a, const std::vector<z3::expr>& b);

  // Executions of one fetch that may be one again: at the same pc with
  // the same pending transfer, the same effects, accesses and fresh
  // values, and the same pass bookkeeping. Registers and memory may differ.
  static bool mergeable(const Node& a, const Node& b);

  // One execution for ran[which]: each differing value an ite over the
  // guards; the path the disjunction of their own conditions since the
  // fork (`paths`), every hazard of each, the fetch event with each image
  // as an alternative, and observers merged into their meet (which
  // allows more: a counterexample's schedule is checked exactly before
  // it counts).
  // `fetchEvent`: the index of each run's event::Fetch of its image.
  Node merged(std::vector<Node>& ran, const std::vector<z3::expr>& guards, const std::vector<size_t>& which,
              size_t paths, size_t hazards, size_t fetchEvent);

  // The pass's events with each merged fetch replaced by the image the
  // model chose.
  Node resolved(const Node& n, const z3::model& m) const;

  // A byte site (x86): the instruction at unit `first` is decoded from
  // bytes each fetched in any version the fetch model allows, one byte
  // more until the ISA knows its length (IsaPlugin::instructionLength).
  // Each distinct mix of versions is its own execution: a torn
  // instruction is simply one of them.
  std::optional<Instruction> fetchBytes(Node& n, unsigned first);

  // What fetching a byte changes on a node, to undo it.
  struct Snapshot {
    std::vector<Observer> observers;
    std::shared_ptr<const MemoryOverlay> overlay;
    size_t events = 0, hazards = 0, path = 0;
  };
  static Snapshot snapshot(const Node& n);
  static void restore(Node& n, const Snapshot& s);

  // One byte more for a byte site's instruction: each version the fetch
  // model allows, each its own partial fetch.
  template <class Partial>
  void extend(Partial&& p, unsigned first, std::vector<Partial>& work);

  // The values a placement-dependent byte may take on this path, each as
  // a concrete byte image with its condition: a few when alignment fixes
  // the low bits of a displacement. Past kMaxByteValues the ways it may
  // decode are not followed (each value is an instruction of its own) and
  // the verdict is UNKNOWN unless another path refutes the transition;
  // so is it when the solver cannot say.
  static constexpr unsigned kMaxByteValues = 16;
  std::deque<UnitImage> concreteBytes_;
  std::vector<std::pair<const UnitImage*, z3::expr>> byteValues(const Node& n, const z3::expr& byte, unsigned unit);

  // The instruction the fetched bytes make, in the ISA's byte order.
  Instruction compose(const std::vector<const UnitImage*>& bytes) const;

  // Arm's CMODX rule: fetching version v of unit i while a later write to
  // it may be under way is defined only when both instructions are on the
  // architecture's list (IsaPatching::concurrentlyModifiable).
  std::optional<std::string> cmodxRace(const std::vector<Observer>& obs, unsigned i, unsigned v) const;

  // The pass fetches this version of unit i.
  // `byte`: one byte of the instruction a byte site's fetch decodes.
  void seen(Node& c, unsigned i, const UnitImage* img, const std::vector<Observer>& obs, const std::string& names,
            const std::optional<std::string>& race = std::nullopt, bool byte = false);

  // What the site's data units (before F) may read as from now on: each
  // version from the oldest the fetch model still allows these observers
  // to see up to the newest (time only moves forward, and the pass may run
  // on into a trampoline meanwhile). Each load chooses anew
  // (MachineState::load); without data units, nothing.
  std::map<std::vector<unsigned>, std::shared_ptr<const MemoryOverlay>> overlays_;
  std::shared_ptr<const MemoryOverlay> dataOverlay(const std::vector<Observer>& obs);

  // After one instruction ran: forbidden effects and faults; false when
  // the execution ended.
  bool stepped(Node& c, const std::vector<Fault>& faults, size_t effectsBefore) override;

  // The breakpoint the transition wrote, executed where it wrote it: the
  // patcher's handler finds the address in its vector and emulates the
  // new instruction (or, before Linux 5.2, skips it). A breakpoint
  // anywhere else is no patch's and stays a fault.
  bool breakpointHandled(Node& c, const Fault& f);
  // The kprobe breakpoint of a registered probe, executed: the handler
  // runs the probed instruction in place or in its slot (PassKprobe.cpp).
  // A hazard when the handler may run after the steps, once the probe is
  // unregistered and its data freed.
  bool kprobeHandled(Node& c, const Fault& f);
  std::optional<z3::expr> kprobeSlot_;  // where out-of-line copies lie
  // MIPS: the trap handler reads the trapping word back; a hazard (and
  // true) when a write may have changed it to a word it does not take for
  // the probe's trap.
  bool rereadHazard(Node& c, unsigned unit);

  // ---- one query per distinct path
  void finish(Node& n);

  // Can any of the path's hazards so far happen? Asked when the path ends,
  // and as soon as a fault may arise on it: a path that loops through the
  // site for --max-steps instructions must not keep a fault it could
  // report at once. Those ruled out (or left open: UNKNOWN) are dropped,
  // so the next question is smaller.
  void ask(Node& n);

  Counterexample counterexample(const Node& n, const z3::model& m);

  // Is the schedule (the version each fetch saw, where interrupts came)
  // one the fetch model allows with F where the model puts it? Checked
  // from scratch, with the I-cache lines of that concrete address.
  bool scheduleAllowed(const Node& n, const z3::model& m, size_t upto) const;

  // Runs the same path again through the one executor on the concrete
  // values of the model, and checks that it reaches the same places and
  // breaks the same rule. The pass's events say where interrupts came,
  // which way branches went and what each fetch saw.
  class Replay;

  void replay(const Node& n, const z3::model& m, const Hazard* broken, Counterexample& cx);
};

}  // namespace patchcheck::passes
