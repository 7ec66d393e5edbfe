#pragma once
// One fetch model: the rules that decide which version of a site unit an
// instruction fetch may return while the writer's steps are under way
// (docs/model.md "The writer and what a fetch may see"). A spec picks one
// by name with [model] fetch; each ISA plug-in names the models its specs
// may take and its default (IsaPlugin::fetchModels). Each model is one file
// in checker/fetch/, listed by the build (FetchRegistry.h); the observer
// that applies the rules to a writer's timeline is checker/explore/FetchModel.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace patchcheck {

struct ModelSpec;
struct Timeline;

// What a writer's step does (StepSpec::Kind). Sync is any ordering barrier
// (MIPS sync, arm64 dmb, RISC-V fence w,w); DcCvau, Dsb, IcIvau, Isb and
// Ipi are arm64's cache maintenance and synchronisation (docs/model.md
// "The Arm fetch model"; Isb: its CPU's own context synchronisation, Ipi:
// an interrupt on every CPU). OutputFence orders the writer's earlier
// stores before its later device output (the IPI) and nothing else (RISC-V
// fence w,o); LocalFence orders them before its own later fetches only
// (RISC-V fence.i): docs/model.md "The RISC-V fetch models". IrqWindow:
// under stop_machine, the writer's CPU takes interrupts for a moment
// (x86 text_poke_early's local_irq_restore before the next site's
// local_irq_save), so a pass may run the site then. Run: under
// `when = "early"`, the writer's CPU may run the site here.
enum class StepKind { Write, Sync, Flush, Wait, DcCvau, Dsb, IcIvau, Isb, Ipi, OutputFence, LocalFence, IrqWindow, Run };

class FetchRules {
 public:
  virtual ~FetchRules() = default;

  // As [model] fetch, certificates and `synth --fetch` spell it: "weak".
  virtual std::string_view name() const = 0;
  // What an error calls it where an ISA refuses it: "the AArch64 model".
  virtual std::string_view description() const = 0;

  // ---- the writer's steps
  // Does a spec under this model take the step verb ("write", "dc", "sync_core")?
  virtual bool takesStep(std::string_view verb) const = 0;
  // The steps, as an error's usage line lists them after "steps are: ".
  virtual std::string_view stepUsage() const = 0;
  // Why this model refuses `verb`, when it has a reason of its own (x86:
  // only serialisation orders what a fetch sees); empty: an error names the
  // verb as the step of the model that takes it (stepOwner).
  virtual std::string refusal(std::string_view verb) const {
    (void)verb;
    return {};
  }
  // How an error names a step only this model takes: "an arm64 step";
  // empty for a model whose steps every model takes.
  virtual std::string_view stepOwner() const { return {}; }
  // The step that publishes every write and makes every CPU
  // context-synchronise, as a spec writes it: synthesis closes an order
  // with it ("flush"; x86 "sync_core").
  virtual std::string_view fullBarrier() const { return "flush"; }
  // Steps this model names whole beyond the verbs every model shares (the
  // loader's table: write, sync, flush, dc, ...), with what each does: the
  // RISC-V models' `fence w,o`, `fence.i`, `flush_icache_all`, as Linux
  // spells them. Each takes nothing after it; `takesStep` must take its
  // first word (StepSpec::verb: "fence", "flush_icache_all").
  struct OwnStep {
    std::string_view spelling;  // lower case, one space between words, none around a comma
    StepKind kind;
  };
  virtual std::span<const OwnStep> ownSteps() const { return {}; }
  // Does [model] cache_type (CTR_EL0.DIC/IDC) apply?
  virtual bool takesCacheType() const { return false; }

  // ---- the observer's rules (checker/explore/FetchModel)
  // What a write needs before every fetch from then on must see it: to be
  // done (sc), completed by a barrier (Arm: dsb), or forced by a flush
  // (flush_icache_range; x86: sync_core). `live`: false under
  // stop_machine and at boot.
  enum class Forced { Done, Completed, Flushed };
  virtual Forced forcedBy(bool live) const = 0;
  // Are writes seen in the order they happen (every visible set a prefix
  // in time: sc)? Then barrier groups order nothing more.
  virtual bool inOrder() const { return false; }
  // Does a barrier group order writes for a fetch only within one I-cache
  // line (stale: a refill copies one line from memory)? The checker then
  // splits a site by line (Checker::lineSplits).
  virtual bool lineGrained() const { return false; }
  // Need a fetch of a unit return a version at least as new as the one the
  // same pass fetched before? Not under Arm with DIC = 0, nor on x86.
  virtual bool coherent(const ModelSpec&) const { return true; }
  // The oldest version of each unit a fetch may return after each prefix
  // of the writer's steps, [time][unit]; empty when the model has no floor
  // (then it must be coherent).
  virtual std::vector<std::vector<unsigned>> floors(const Timeline&, const ModelSpec&) const { return {}; }
  // The same for the writer's own CPU (`when = "early"`): its own
  // synchronisation may raise them further (RISC-V: a local fence.i). The
  // default, the floors any CPU has, allows at least as much.
  virtual std::vector<std::vector<unsigned>> ownFloors(const Timeline& tl, const ModelSpec& m) const {
    return floors(tl, m);
  }
  // Are the bytes of one instruction fetched between two serialisations of
  // its CPU, so none predates the floor at the observer's time nor
  // postdates that time (x86)?
  virtual bool fetchedBetweenSerialisations() const { return false; }
  // Does a task that resumes on another CPU see that CPU's older I-cache
  // lines (stale, under preemption)?
  virtual bool migrationSeesOlderLines() const { return false; }
  // Does a fetch that read a write order the pass's later loads after it
  // (Arm: herd's MP.FR tests)?
  virtual bool fetchOrdersLoads() const { return false; }
  // Must two versions a fetch may race between both be on the ISA's list
  // of concurrently modifiable instructions (Arm CMODX)?
  virtual bool racesNeedModifiableList() const { return false; }
  // Publication (docs/model.md "Publication"): what settles a version for
  // ever: the write done (sc), completed (Arm DIC = 1), forced by a flush,
  // or the floor (Arm DIC = 0, x86).
  enum class Settled { Done, Completed, Flushed, Floor };
  virtual Settled settledBy(const ModelSpec&) const = 0;
  // The steps that publish a unit after its last write, as a spec spells
  // them (in backquotes), `index` the write's index.
  virtual std::string publishingSteps(const ModelSpec&, const std::string& index) const = 0;
  // The steps that make every CPU context-synchronise.
  virtual std::string synchronisingSteps() const { return "`flush`"; }

  // ---- patchcheck litmus (checker/litmus/LitmusRun.cpp): how a CPU's
  // fetch runs there. None: the runner does not run this model. ArmCache:
  // a fetch returns a version at or above the floor the Arm cache
  // maintenance left (CacheMaintenance; DIC = 1: what memory holds), and an
  // exception's entry or return synchronises the CPU's fetches. Memory: a
  // fetch returns a version memory has held, at or above what the CPU's
  // last context synchronisation saw in memory, which first waits for the
  // CPU's own stores (RISC-V fence.i); traps synchronise nothing. Either
  // way a fetch of a coherent model (`coherent`) sees no older view after.
  enum class LitmusFetch { None, ArmCache, Memory };
  virtual LitmusFetch litmusFetch() const { return LitmusFetch::None; }

  // ---- synthesis
  // Do the writes between two full barriers land in any order and subset,
  // so synthesis tries each group in one order only (x86)?
  virtual bool unorderedWithinGroup() const { return false; }

  // ---- byte sites
  // The naturally aligned chunk one instruction fetch reads atomically: the
  // bytes of one instruction inside one chunk come from one fetch. 1: every
  // byte its own choice (x86). RISC-V Ziccif: M = 4 bytes.
  virtual unsigned atomicFetchBytes() const { return 1; }

 protected:
  FetchRules() = default;
};

}  // namespace patchcheck
