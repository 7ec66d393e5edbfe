#pragma once
// A loaded spec file (docs/spec-format.md): one
// patch site, its states and behaviours, and the transitions between them.
// Everything keeps its source location so errors and reports can point at
// the spec line.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "checker/spec/FetchRules.h"
#include "encoder/Diagnostic.h"
#include "encoder/KernelVersion.h"
#include "encoder/Target.h"
#include "model/Effect.h"

namespace patchcheck {

struct SymbolSpec {
  std::string name;
  std::optional<uint64_t> value;  // concrete address
  std::string region;             // symbolic: the region it lies in
  uint64_t align = 4;              // the loader's default: the ISA's (IsaPlugin::codeAlignment)
  SourceLocation where;
  // `near = "N", within = W`: |this - N| <= W bytes, a placement fact
  // (what lets an x86 `jmp` to it take the rel8 form). Empty: no bound.
  std::string near{};
  uint64_t within = 0;
  SourceLocation nearWhere{};  // the `near` key's value
};

struct RegionSpec {
  std::string name;
  uint64_t lo = 0, hi = 0;  // inclusive
  SourceLocation where;
};

// One line of a state: the assembly text of one word.
struct UnitSpec {
  std::string text;
  SourceLocation where;  // points at the first character of the text
};

enum class Expect { Safe, Unsafe };

// A data unit of the site before F ([site] before): the bytes of a literal
// the code reads, such as arm64 CALL_OPS's ops pointer at F - 8.
struct DataUnitSpec {
  unsigned bytes = 0;
  SourceLocation where;
};

struct StateSpec {
  std::string name;
  std::vector<UnitSpec> words;  // one per site unit: the data units before F, then site.words
  SourceLocation where;
};

// `reg == value`; the register name is resolved per target ABI.
struct ConditionSpec {
  std::string reg;
  uint64_t value = 0;
  SourceLocation where;  // the register name in the spec
};

// One alternative of a behaviour: `untraced`, `call T [with C && ...]`, `enter G`.
struct OutcomeSpec {
  enum class Kind { Untraced, Call, Enter };
  Kind kind = Kind::Untraced;
  std::string target;                   // T or G
  uint64_t offset = 0;                  // call only: `call T + 8` enters T at T + 8
  std::vector<ConditionSpec> with;      // call only
  SourceLocation where;                 // the symbol name in the spec
  std::string str() const;
  // The entry as trampoline contracts name it: "T" or "T+8".
  std::string entry() const { return offset ? target + "+" + std::to_string(offset) : target; }
};

struct BehaviourSpec {
  std::vector<OutcomeSpec> alternatives;  // A | B | ...
  std::string text;
  SourceLocation where;
  std::string str() const;  // canonical: alternatives' str() joined by " | "
};

// How a function's entry is reached ([site] entered_by).
enum class EntryBranch { Direct, Indirect, Both };

struct Spec;

struct StepSpec {
  // What the step does (StepKind, checker/spec/FetchRules.h).
  using Kind = StepKind;
  Kind kind = Kind::Write;
  // write, dc cvau, ic ivau: the unit's index in the site region, in address order (data
  // units before F first; the spec writes `write I` with I from F's entry,
  // negative for the data units: Spec::unitIndex).
  unsigned index = 0;
  std::optional<UnitSpec> interim;    // write I = "insn"
  // write I = STATE, write I..J = STATE: the unit takes its value in that
  // declared state, not in `to` (x86 nested alternatives: one site's
  // earlier replacement, then the later one). Empty: `to`.
  std::string source;
  SourceLocation sourceWhere;
  // Byte sites (x86): a write stores one byte; `write I = "insn"` of an
  // L-byte instruction is L writes, this one storing byte `part` of it.
  unsigned part = 0;
  // write I..J (byte sites): one spec step made of one write per byte;
  // each of them knows the range's first and last unit.
  std::optional<std::pair<unsigned, unsigned>> range;
  std::string text;  // as the spec writes the step (each byte of a range: the range)
  SourceLocation where;
  // The step alone: "write 2" for a byte of `write 1..4`, else `text`.
  std::string ownText(const Spec&) const;
  // A byte of a range after its first: the same spec step as the write before.
  bool continuesRange() const { return range && index != range->first; }
  // The step's verb as the spec writes it, lower case: "write", "dmb", "sync_core".
  std::string verb() const;
};

// Early: the writer's own CPU is the only one running (early boot, before
// the other CPUs start); it may run the site between two of its steps.
enum class When { Live, StopMachine, Boot, Early };
// What a transition promises once its steps are done (docs/model.md
// "Publication"): every CPU eventually fetches `to`; or, Synchronised,
// every CPU has also passed a context synchronisation after that, before
// the sequence returns (an IPI, kick_all_cpus_sync).
enum class Publish { Eventually, Synchronised };

struct TransitionSpec {
  std::string from, to;
  // `name = "..."`, needed where two transitions share `from` and `to`;
  // empty: the name is derived, "from->to" (docs/spec-format.md).
  std::string given;
  SourceLocation nameWhere;
  When when = When::Live;
  Publish publish = Publish::Eventually;
  std::vector<StepSpec> steps;
  std::optional<Expect> expect;
  std::optional<BehaviourSpec> allow;  // overrides behaviour(from) | behaviour(to)
  SourceLocation where;
  // What every output calls it: the given name, else "from->to".
  std::string name() const { return given.empty() ? from + "->" + to : given; }
};

// A C identifier for `s`: letters and digits in lower case, anything else '_'.
std::string cIdentifier(const std::string& s);
// A transition's C identifier in a table's header: "from_to_to" for a
// derived name, the given name's otherwise.
std::string transitionCName(const std::string& name, const std::string& from, const std::string& to);

// CTR_EL0.DIC / IDC as herd7's catalogue folders name the three cases.
enum class CacheType { Dic0Idc0, Dic0Idc1, Dic1Idc1 };
std::string_view name(CacheType);
std::optional<CacheType> cacheTypeNamed(std::string_view);

struct ModelSpec {
  // [model] fetch (checker/spec/FetchRegistry.h); without it the ISA's
  // default (IsaPlugin::defaultFetchModel). Set by the loader.
  const FetchRules* fetch = nullptr;
  CacheType cacheType = CacheType::Dic0Idc0;  // fetch = "arm" only
  unsigned lineBytes = 32;
  bool preemption = true;             // preemption = "full"
  bool delaySlotInterrupts = true;
  // "fault" (default): an UNPREDICTABLE encoding is a fault. "hardware":
  // run it as common implementations do (jalr rd == rs writes the link and
  // jumps to the old rs), to show what the hazard leads to.
  bool unpredictableAsHardware = false;
  // What the patcher's breakpoint handler (x86 text_poke_bp's
  // poke_int3_handler) does when a pass executes the breakpoint at an
  // address being patched: Emulate the new instruction (Linux 5.2 and
  // later), Skip it as if it were a NOP of its length (before 5.2), or
  // None (no handler: the trap is a fault).
  enum class Breakpoint { Emulate, Skip, None };
  Breakpoint breakpoint = Breakpoint::Emulate;
  // `int3_kernel`: the Linux version whose handler emulates (which
  // instructions it can; IsaPatching::breakpointRefuses). Newest when unset.
  KernelVersion breakpointKernel;
  // `kprobe`: the state whose instructions are probed (empty: no kprobes).
  // Where another state holds the ISA's probe breakpoint
  // (IsaPatching::probeBreakpoint) over the first unit of one of them, a
  // kprobe is armed there, and a pass that executes the breakpoint runs
  // that instruction through the kprobe handler (docs/model.md "kprobes").
  std::string kprobe;
};

struct Spec {
  std::string path;                   // as given (diagnostics name it so)
  // The spec's tree (checker/spec/SpecTree.h): its root, and the directory
  // [trampolines] paths are relative to (empty: none found). loadSpec and
  // parseSpec locate them from `path`; --trampolines DIR replaces the second.
  std::string root, trampolineDir;
  std::string text;                   // the file as read (hashed by `table`)
  int schema = 1;
  std::string name, summary;

  Target target;
  std::vector<Target> matrix;   // from "isa/abi" entries; both endians each

  std::string function = "F";
  unsigned words = 0;                 // patch units from F's entry (instruction words; x86: bytes)
  // The site counts bytes ([site] bytes = N: x86, RISC-V with C), and a
  // state is a list of instructions whose lengths add up to N.
  bool byteUnits = false;
  std::vector<DataUnitSpec> before;   // data units before F, in address order, ending at F
  std::vector<UnitSpec> body;         // F's first real instructions
  // A byte site's body in bytes, each byte a region unit as the site's are
  // (the loader assembles the body to measure it; the same on every target).
  unsigned bodyBytes = 0;
  bool allowUnpredictable = false;    // [site] allow_unpredictable
  // [site] entered_by: how F's entry may be reached, a direct call (BL,
  // CALL, JAL) or an indirect one (BLR, a tail call's BR). The landing pad
  // at F is judged for each (arm64-bti).
  EntryBranch enteredBy = EntryBranch::Both;
  std::set<EffectKind> allowedEffects;  // [site] allow_effects (docs/semantics.md)
  SourceLocation functionWhere;       // [site] function (or the file start)
  // Where the items that only some ISAs take stand, for the errors of a
  // target other than the one the spec was read for (SpecTarget.h): [site]
  // words or bytes, [model] fetch and int3_handler (line 0: not written).
  SourceLocation unitsWhere, fetchWhere, breakpointWhere, kprobeWhere;

  std::vector<SymbolSpec> symbols;
  std::vector<RegionSpec> regions;    // spec-given; ISA defaults fill the rest
  std::map<std::string, std::string> trampolines;  // symbol -> path under trampolineDir
  std::map<std::string, SourceLocation> trampolineWhere;  // symbol -> its [trampolines] value
  // A trampoline proven from a build's bytes instead of its assembly
  // (docs/trampolines.md, "From a build"): `object` (a path usable from the
  // working directory) and its symbol; the contract stays the one beside
  // the trampoline's file. `where` is the spec's `object = ...` value, or
  // the command line's --trampoline-object.
  struct TrampolineObject {
    std::string object, symbol, named;  // named: OBJ:SYMBOL as written
    SourceLocation where;
  };
  std::map<std::string, TrampolineObject> trampolineObjects;  // symbol -> its object code

  std::vector<StateSpec> states;      // in file order
  std::map<std::string, BehaviourSpec> behaviour;
  std::map<std::string, Expect> stateExpect;  // [expect]: state -> claimed verdict alone
  ModelSpec model;
  std::vector<TransitionSpec> transitions;

  // The site region's units in address order: the data units before F,
  // then the words from F, then the body's words.
  unsigned entryUnit() const { return unsigned(before.size()); }  // the unit at F
  unsigned siteUnits() const { return entryUnit() + words; }      // a state's entries
  unsigned bodyUnits() const { return byteUnits ? bodyBytes : unsigned(body.size()); }
  unsigned regionUnits() const { return siteUnits() + bodyUnits(); }
  unsigned beforeBytes() const;
  // The bytes of one unit from F on: 1 on a byte site, else the target's
  // patch unit.
  unsigned unitBytes(const Target& t) const;
  // Region index of `write I` (I from F's entry, negative before F), if any.
  std::optional<unsigned> unitIndex(long long i) const;
  // `write I`'s I for region index u: its inverse.
  long long writeIndex(unsigned u) const { return (long long)u - entryUnit(); }
  // How reports name unit u: "word 2", "body 0", "data F-8".
  std::string unitName(unsigned u) const;

  const StateSpec* state(const std::string& n) const {
    for (const auto& s : states)
      if (s.name == n) return &s;
    return nullptr;
  }
  // The transitions `--transition X` means: the one named X; else, when X
  // is FROM->TO, every transition from FROM to TO (named ones included).
  std::vector<const TransitionSpec*> transitionsNamed(const std::string& x) const;
  // The one transition X names, or why there is none (no such name, or a
  // FROM->TO that several named transitions share).
  std::variant<const TransitionSpec*, std::string> transitionNamed(const std::string& x) const;
  const SymbolSpec* symbol(const std::string& n) const {
    for (const auto& s : symbols)
      if (s.name == n) return &s;
    return nullptr;
  }
  // Where character `offset` of a string that starts at `start` sits in the
  // file: TOML escapes (\t, \") take more columns than they yield.
  SourceLocation locate(const SourceLocation& start, size_t offset) const;
};

std::variant<Spec, Diagnostics> loadSpec(const std::string& path);
std::variant<Spec, Diagnostics> parseSpec(std::string_view text, const std::string& path);

// "call ftrace_regs_caller with t0 == 0 | untraced" -> alternatives.
std::variant<BehaviourSpec, std::string> parseBehaviour(std::string_view text);
// The same, with positions: `locate(offset)` says where character `offset`
// of `text` is; errors and the parts' `where` use it.
std::variant<BehaviourSpec, Diagnostic> parseBehaviour(
    std::string_view text, const std::function<SourceLocation(size_t)>& locate);

}  // namespace patchcheck
