#include "checker/spec/SpecTarget.h"

#include <cstdlib>

#include "checker/spec/FetchRegistry.h"
#include "checker/spec/Regions.h"
#include "encoder/Hex.h"
#include "encoder/Isa.h"
#include "model/IsaModel.h"

namespace patchcheck {
namespace {

std::string isaAbi(const Target& t) {
  return std::string(t.variantName()) + "/" + std::string(t.abiName());
}

// Assembles `entries` as one program, one line each, and points every word
// and error back at its entry in the spec.
// `lengths`: the unit length each entry must fill (empty: any).
std::variant<Program, Diagnostics> assembleLines(const Spec& spec,
                                                        const std::vector<const UnitSpec*>& entries,
                                                        const AssemblyOptions& options,
                                                        const std::vector<unsigned>& lengths = {}) {
  std::string program;
  Diagnostics lineErrors;
  for (const UnitSpec* w : entries) {
    if (w->text.find_first_of("\r\n") != std::string::npos)
      lineErrors.push_back({w->where, "a word must be one line of assembly"});
    program += w->text + "\n";
  }
  if (!lineErrors.empty()) return lineErrors;
  auto toSpec = [&](SourceLocation at) {
    if (entries.empty()) return at;
    if (at.line == 0 || at.line > entries.size()) return entries[0]->where;
    const UnitSpec& w = *entries[at.line - 1];
    return spec.locate(w.where, at.column ? at.column - 1 : 0);
  };
  auto result = options.target.isa->assemble(program, spec.path, options);
  if (auto* errors = std::get_if<Diagnostics>(&result)) {
    for (Diagnostic& d : *errors) {
      d.where = toSpec(d.where);
      // The assembler names program lines ("(line 2)"); here a line is a word.
      size_t at = d.message.find("(line ");
      if (at != std::string::npos) {
        unsigned line = unsigned(std::strtoul(d.message.c_str() + at + 6, nullptr, 10));
        size_t close = d.message.find(')', at);
        if (line >= 1 && line <= entries.size() && close != std::string::npos)
          d.message.replace(at, close - at + 1, "(word " + std::to_string(line - 1) + ")");
      }
    }
    return std::move(*errors);
  }
  auto& assembly = std::get<Program>(result);
  // A spec entry is exactly one word: no labels-only lines, no `a; b`.
  std::vector<unsigned> perLine(entries.size(), 0);
  for (const Unit& w : assembly.units)
    if (w.where.line >= 1 && w.where.line <= entries.size()) ++perLine[w.where.line - 1];
  Diagnostics errors;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (perLine[i] == 1) continue;
    errors.push_back({entries[i]->where,
                      "'" + entries[i]->text + "' is " +
                          (perLine[i] ? std::to_string(perLine[i]) + " words" : "no instruction word") +
                          "; each entry must be exactly one instruction word"});
  }
  if (!errors.empty()) return errors;
  for (size_t i = 0; i < lengths.size() && i < assembly.units.size(); ++i)
    if (assembly.units[i].bytes != lengths[i])
      errors.push_back({entries[i]->where, "'" + entries[i]->text + "' is " +
                                               std::to_string(assembly.units[i].bytes) + " bytes, but its unit is " +
                                               std::to_string(lengths[i])});
  if (!errors.empty()) return errors;
  for (Unit& w : assembly.units) w.where = toSpec(w.where);
  return std::move(assembly);
}

void checkBehaviour(const BehaviourSpec& b, const Target& t, Diagnostics& errors) {
  for (const OutcomeSpec& o : b.alternatives)
    for (const ConditionSpec& c : o.with) {
      if (!modelOf(t).parseRegister(c.reg, t))
        errors.push_back({c.where, "'" + c.reg + "' is not a register under " + std::string(t.abiName()) +
                                       modelOf(t).registerHint(t)});
      else if (!t.wide() && c.value > 0xffffffffull)
        errors.push_back({c.where, "value " + hex(c.value) + " for '" + c.reg +
                                       "' does not fit a 32-bit register"});
    }
}

// What the loader decided by the spec's own ISA: words or bytes, the fetch
// model, the step verbs, the breakpoint handler. Another target (a matrix
// entry, the command line's --isa) must take the same, or the proof would
// run a spec it was never read as.
Diagnostics checkFits(const Spec& spec, const Target& t) {
  Diagnostics errors;
  std::string family(t.isa->family());
  SourceLocation top{spec.path, 1, 1};
  auto here = [&](const SourceLocation& at) { return at.line ? at : top; };
  bool bytes = spec.byteUnits ? t.isa->byteSites(t) : t.isa->patchUnitBytes(t) == 1;
  std::string written(spec.target.variantName());
  if (bytes != spec.byteUnits)
    errors.push_back({here(spec.unitsWhere), spec.byteUnits ? "[site] bytes counts bytes, but " + family +
                                                                  " sites count instruction words ([site] words = N); "
                                                                  "this spec is written for " + written
                                                            : "[site] words counts instruction words, but " + family +
                                                                  " sites are byte ranges ([site] bytes = N); this "
                                                                  "spec is written for " + written});
  const FetchRules& fetch = *spec.model.fetch;
  std::string given = "fetch = \"" + std::string(fetch.name()) + "\"" + (spec.fetchWhere.line ? "" : " (the spec's default)");
  bool allowed = allowsFetchModel(*t.isa, fetch);
  if (!allowed && t.isa->fetchModels().size() == 1)
    errors.push_back({here(spec.fetchWhere), given + ", but " + family +
                                                 " instruction fetch follows its architecture's model, fetch = \"" +
                                                 std::string(t.isa->fetchModels().front()) + "\""});
  else if (!allowed)
    errors.push_back({here(spec.fetchWhere), given + " is " + std::string(fetch.description()) + "; " + family +
                                                 " uses " + fetchModelsText(*t.isa)});
  if (spec.breakpointWhere.line && t.isa->patching().patchBreakpoint() != std::optional<std::string_view>("int3"))
    errors.push_back({spec.breakpointWhere, "int3_handler applies to x86 sites (text_poke_bp's breakpoint), not " + family});
  if (spec.kprobeWhere.line && !t.isa->patching().probeBreakpoint())
    errors.push_back({spec.kprobeWhere, "kprobe: patchcheck models kprobes on x86, arm64 and MIPS, not " + family});
  // The steps of the model the target would run: the spec's, else its ISA's default.
  const FetchRules& steps = allowed ? fetch : defaultFetchModel(*t.isa);
  for (const TransitionSpec& tr : spec.transitions)
    for (const StepSpec& step : tr.steps) {
      if (step.continuesRange() || step.kind == StepSpec::Kind::Run) continue;  // run: every model's
      std::string verb = step.verb();
      if (steps.takesStep(verb)) continue;
      std::string own = steps.refusal(verb);
      errors.push_back({step.where, own.empty() ? stepRefusal(steps, verb) + ", not " + family : own});
    }
  return errors;
}

}  // namespace

std::vector<Target> specTargets(const Spec& spec) {
  std::vector<Target> out{spec.target};
  for (const Target& m : spec.matrix) {
    bool seen = false;
    for (const Target& t : out) seen = seen || (t.isa == m.isa && t.variant == m.variant && t.abi == m.abi);
    if (!seen) out.push_back(m);
  }
  return out;
}

AssemblyOptions assemblyOptions(const Spec& spec, const Target& t, unsigned index) {
  AssemblyOptions o;
  o.target = t;
  o.allowUnpredictable = spec.allowUnpredictable;
  o.requireKernelReach = true;
  for (const SymbolSpec& s : spec.symbols) {
    // A value that is no address of this target is reported by
    // checkSpecForTarget; symbolic here, so words using it still assemble.
    if (auto a = symbolAddress(s, t)) o.symbols[s.name] = *a;
    else o.symbolic.insert(s.name);
  }
  for (const SymbolSpec& s : spec.symbols)
    if (!s.near.empty() && o.symbolic.count(s.name)) o.near[s.name] = {s.near, s.within};
  Value entry{spec.function, 0};
  if (auto it = o.symbols.find(spec.function); it != o.symbols.end())
    entry = Value::constant(int64_t(it->second));
  o.base = entry.plus(siteLayout(spec, t).offsetOf(index));
  return o;
}

SiteLayout siteLayout(const Spec& spec, const Target& t) {
  std::vector<PatchUnit> units;
  int64_t at = -int64_t(spec.beforeBytes());
  for (const DataUnitSpec& d : spec.before) {
    units.push_back({at, d.bytes});
    at += d.bytes;
  }
  unsigned word = spec.unitBytes(t);
  for (unsigned i = 0; i < spec.words + spec.bodyUnits(); ++i) units.push_back({int64_t(i) * word, word});
  return SiteLayout::of(std::move(units), spec.siteUnits());
}

std::variant<Program, Diagnostics> assembleState(const Spec& spec, const StateSpec& state,
                                                        const Target& t) {
  std::vector<const UnitSpec*> entries;
  for (const UnitSpec& w : state.words) entries.push_back(&w);
  for (const UnitSpec& w : spec.body) entries.push_back(&w);
  std::vector<unsigned> lengths;
  SiteLayout layout = siteLayout(spec, t);
  if (!spec.byteUnits) {
    for (const PatchUnit& u : layout.units()) lengths.push_back(u.length);
    return assembleLines(spec, entries, assemblyOptions(spec, t, 0), lengths);
  }
  // A byte site's state is its data units (RISC-V: the ops literal before
  // F), then instructions that fill its bytes exactly.
  auto r = assembleLines(spec, entries, assemblyOptions(spec, t, 0));
  if (auto* p = std::get_if<Program>(&r)) {
    for (size_t k = 0; k < spec.before.size() && k < p->units.size() && k < state.words.size(); ++k)
      if (p->units[k].bytes != spec.before[k].bytes)
        return Diagnostics{{state.words[k].where, "'" + state.words[k].text + "' is " +
                                                      std::to_string(p->units[k].bytes) + " bytes, but the data unit " +
                                                      spec.unitName(unsigned(k)) + " has " +
                                                      std::to_string(spec.before[k].bytes)}};
    unsigned total = 0;  // the state's own units, before the body's
    for (size_t i = spec.before.size(); i < state.words.size() && i < p->units.size(); ++i) total += p->units[i].bytes;
    if (total != spec.words)
      return Diagnostics{{state.where, "state '" + state.name + "' is " + std::to_string(total) +
                                           " bytes of instructions, but the site has " + std::to_string(spec.words) +
                                           " bytes"}};
  }
  return r;
}

std::variant<unsigned, Diagnostics> bodyLength(const Spec& spec, const Target& t) {
  std::vector<const UnitSpec*> entries;
  for (const UnitSpec& w : spec.body) entries.push_back(&w);
  auto r = assembleLines(spec, entries, assemblyOptions(spec, t, spec.siteUnits()));
  if (auto* e = std::get_if<Diagnostics>(&r)) return std::move(*e);
  unsigned total = 0;
  for (const Unit& u : std::get<Program>(r).units) total += u.bytes;
  return total;
}

std::variant<Unit, Diagnostics> assembleUnit(const Spec& spec, const UnitSpec& word,
                                                            unsigned index, const Target& t) {
  auto r = assembleLines(spec, {&word}, assemblyOptions(spec, t, index), {siteLayout(spec, t).units().at(index).length});
  if (auto* errors = std::get_if<Diagnostics>(&r)) return std::move(*errors);
  return std::move(std::get<Program>(r).units.front());
}

Diagnostics checkSpecForTarget(const Spec& spec, const Target& t) {
  Diagnostics errors;
  if (auto problem = t.problem()) {
    errors.push_back({{spec.path, 1, 1}, *problem});
    return errors;
  }
  errors = checkFits(spec, t);
  if (!errors.empty()) return errors;  // its words would fail to assemble in the same way
  // addressFor only fails on 32-bit targets.
  std::string isa(t.variantName());
  // On a 64-bit target 0x80000000..0xffffffff is user space (XUSEG), never
  // kernel text: almost surely a 32-bit address missing its sign extension.
  auto unextended = [&](uint64_t v) { return t.wide() && v >= 0x80000000ull && v <= 0xffffffffull; };
  auto extendHint = [&](uint64_t v) {
    return " is a user-space address on " + isa + "; for the kernel address write \"" +
           hex(uint64_t(int64_t(int32_t(uint32_t(v))))) + "\" (a string: TOML integers are signed)";
  };
  for (const RegionSpec& r : spec.regions) {
    auto lo = addressFor(r.lo, t), hi = addressFor(r.hi, t);
    if (unextended(r.lo) || unextended(r.hi))
      errors.push_back({r.where, "region '" + r.name + "': " + hex(unextended(r.lo) ? r.lo : r.hi) +
                                     extendHint(unextended(r.lo) ? r.lo : r.hi)});
    else if (!lo || !hi)
      errors.push_back({r.where, "region '" + r.name + "' [" + hex(r.lo) + ", " + hex(r.hi) +
                                     "] is not a range of 32-bit addresses (" + isa + ")"});
    else if (*lo > *hi)
      errors.push_back({r.where, "region '" + r.name + "' is empty: " + hex(*lo) + " > " + hex(*hi) +
                                     " as " + isaAbi(t) + " addresses"});
  }
  std::vector<RegionSpec> regions = regionsFor(spec, t);
  for (const SymbolSpec& s : spec.symbols) {
    if (!s.value) continue;
    auto a = symbolAddress(s, t);
    if (unextended(*s.value)) {
      errors.push_back({s.where, "symbol '" + s.name + "' = " + hex(*s.value) + extendHint(*s.value)});
      continue;
    }
    if (!a) {
      errors.push_back({s.where, "symbol '" + s.name + "' = " + hex(*s.value) +
                                     " is not a 32-bit address (" + isa + ")"});
      continue;
    }
    const RegionSpec* r = s.region.empty() ? nullptr : findRegion(regions, s.region);
    if (r && (*a < r->lo || *a > r->hi))
      errors.push_back({s.where, "symbol '" + s.name + "' = " + hex(*a) + " lies outside region '" +
                                     r->name + "' [" + hex(r->lo) + ", " + hex(r->hi) + "]"});
  }
  for (const auto& [state, b] : spec.behaviour) checkBehaviour(b, t, errors);
  for (const TransitionSpec& tr : spec.transitions)
    if (tr.allow) checkBehaviour(*tr.allow, t, errors);

  auto add = [&](auto&& result) {
    if (auto* e = std::get_if<Diagnostics>(&result)) errors.insert(errors.end(), e->begin(), e->end());
  };
  for (const StateSpec& s : spec.states) add(assembleState(spec, s, t));
  if (spec.states.empty() && !spec.body.empty()) {
    std::vector<const UnitSpec*> body;
    for (const UnitSpec& w : spec.body) body.push_back(&w);
    add(assembleLines(spec, body, assemblyOptions(spec, t, spec.siteUnits())));
  }
  for (const TransitionSpec& tr : spec.transitions)
    for (const StepSpec& step : tr.steps)
      if (step.interim) add(assembleUnit(spec, *step.interim, step.index, t));
  return errors;
}

}  // namespace patchcheck
