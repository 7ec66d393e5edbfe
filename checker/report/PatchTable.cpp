#include "checker/report/PatchTable.h"

#include <bit>
#include <cctype>
#include <cstdio>
#include <set>
#include <sstream>

#include "checker/report/ByteSiteTable.h"
#include "checker/report/Certificate.h"
#include "checker/spec/SpecTarget.h"
#include "checker/spec/SpecTree.h"
#include "encoder/Isa.h"

namespace patchcheck {
namespace {

// A unit's value as the plug-in reads it, two digits per byte.
std::string hexUnit(uint64_t v, unsigned bytes) {
  char b[32];
  snprintf(b, sizeof b, "0x%0*llx", int(2 * bytes), (unsigned long long)v);
  return b;
}

// One patch unit (region index, offset from F, length): its value, or for
// a unit that depends on an address the fixed bits (opcode, registers: from
// the instruction table row the assembler chose) and how the
// address-dependent field is formed.
nlohmann::json unitJson(const Unit& w, const Target& t, const std::string& text, unsigned index,
                        const PatchUnit& at) {
  nlohmann::json j{{"index", index}, {"offset", at.offset}, {"bytes", at.length}, {"text", text}};
  // How a patcher stores the value: arm64 instructions are little-endian
  // even where data is big-endian.
  j["byte_order"] = name(t.isa->byteOrder(w, t));
  if (w.isConcrete()) {
    j["word"] = hexUnit(w.bits, w.bytes);
    return j;
  }
  j["fixed"] = hexUnit(w.bits & ~w.symbolicMask, w.bytes);
  j["field_mask"] = hexUnit(w.symbolicMask, w.bytes);
  j["field_shift"] = std::countr_zero(w.symbolicMask);
  auto r = t.isa->relocation(w);
  if (!r) return j;
  nlohmann::json enc;
  enc["symbol"] = r->value.symbol;
  enc["addend"] = r->value.addend;
  enc["kind"] = r->kind;
  if (r->relativeTo) {  // the offset counts from here, wherever the site lies
    enc["slot_symbol"] = r->relativeTo->symbol;
    enc["slot_addend"] = r->relativeTo->addend;
  }
  enc["text"] = r->text;
  enc["formula"] = r->formula;
  std::vector<Relocation::Piece> pieces = r->pieces;
  uint64_t run = w.symbolicMask >> std::countr_zero(w.symbolicMask);
  if (pieces.empty() && (run & (run + 1)) == 0)  // one run: the value's low bits fill it
    pieces.push_back({0, unsigned(std::popcount(w.symbolicMask)), unsigned(std::countr_zero(w.symbolicMask))});
  // Left empty for a split field the plug-in did not describe: the header
  // then refuses to build rather than guess.
  enc["pieces"] = nlohmann::json::array();
  for (const Relocation::Piece& p : pieces) enc["pieces"].push_back({{"from", p.from}, {"width", p.width}, {"at", p.at}});
  j["encoding"] = enc;
  return j;
}

// The instructions of a state already in the target's table.
nlohmann::json instructionsOf(const nlohmann::json& target, const std::string& state) {
  for (const nlohmann::json& s : target["states"])
    if (s["name"] == state) return s["instructions"];
  return nlohmann::json::array();
}

// A word site's steps: each write with the word it stores (the `to`
// state's entry, or the interim word), each barrier by name.
std::variant<nlohmann::json, Diagnostics> unitSiteSteps(const Spec& spec, const TransitionSpec& tr, const Target& t,
                                                        const std::vector<nlohmann::json>& toUnits) {
  nlohmann::json out = nlohmann::json::array();
  for (const StepSpec& s : tr.steps) {
    switch (s.kind) {
      case StepSpec::Kind::Write: {
        nlohmann::json w;
        if (s.interim) {
          auto a = assembleUnit(spec, *s.interim, s.index, t);
          if (auto* e = std::get_if<Diagnostics>(&a)) return *e;
          w = unitJson(std::get<Unit>(a), t, s.interim->text, s.index, siteLayout(spec, t).units().at(s.index));
          w["interim"] = true;
        } else if (s.index < spec.siteUnits()) {
          w = toUnits[s.index];
        } else {
          continue;  // the checker refused this already
        }
        w["op"] = "write";
        out.push_back(w);
        break;
      }
      case StepSpec::Kind::Sync: out.push_back({{"op", "sync"}}); break;
      case StepSpec::Kind::Flush: out.push_back({{"op", "flush"}}); break;
      case StepSpec::Kind::Wait: out.push_back({{"op", "wait"}}); break;
      case StepSpec::Kind::DcCvau: out.push_back({{"op", "dc cvau"}, {"index", s.index}}); break;
      case StepSpec::Kind::IcIvau: out.push_back({{"op", "ic ivau"}, {"index", s.index}}); break;
      case StepSpec::Kind::Dsb: out.push_back({{"op", "dsb ish"}}); break;
      case StepSpec::Kind::Isb: out.push_back({{"op", "isb"}}); break;
      case StepSpec::Kind::Ipi: out.push_back({{"op", "ipi"}}); break;
      case StepSpec::Kind::OutputFence: out.push_back({{"op", "fence w,o"}}); break;
      case StepSpec::Kind::LocalFence: out.push_back({{"op", "fence.i"}}); break;
      case StepSpec::Kind::Run: break;  // the site's own code, not a patching step
      case StepSpec::Kind::IrqWindow: out.push_back({{"op", "irq_window"}}); break;
    }
  }
  return out;
}

const char* whenName(When w) {
  switch (w) {
    case When::Live: return "live";
    case When::StopMachine: return "stop_machine";
    case When::Boot: return "boot";
    case When::Early: return "early";
  }
  return "?";
}

nlohmann::json countsJson(const Counts& c) {
  return {{"intermediate_states", c.intermediateStates}, {"executions", c.executions}, {"paths", c.paths},
          {"queries", c.queries}};
}

}  // namespace

std::string verificationText(const nlohmann::json& v) {
  std::ostringstream s;
  s << v["verdict"].get<std::string>() << ": " << v["intermediate_states"] << " intermediate states, "
    << v["executions"] << " executions, " << v["paths"] << " paths, " << v["queries"] << " queries"
    << (v.value("all_unsat", false) ? ", all unsat" : "");
  return s.str();
}

std::string tableStem(const std::string& specName) {
  std::string out;
  for (char c : specName) out += std::isalnum((unsigned char)c) || c == '-' || c == '_' ? c : '_';
  return out.empty() ? "table" : out;
}

// A state or transition UNSAFE as its `expect = "unsafe"` says is a
// documented regression case, not a refusal: the table records it apart
// (patchTable's "regressions"). Anything else not SAFE, UNKNOWN above all,
// refuses the table.
static bool expectedUnsafe(Verdict v, const std::optional<Expect>& expect) {
  return v == Verdict::Unsafe && expect && *expect == Expect::Unsafe;
}

std::vector<std::string> tableRefusals(const std::vector<SpecResult>& results,
                                       const std::vector<Target>& targets) {
  std::vector<std::string> out;
  for (size_t i = 0; i < results.size(); ++i) {
    for (const TrampolineResult& k : results[i].trampolines)
      if (k.verdict != Verdict::Safe)
        out.push_back(results[i].spec + " [" + targets[i].str() + "] trampoline " + k.entry + ": " +
                      std::string(name(k.verdict)));
    for (const StateResult& s : results[i].states)
      if (s.verdict != Verdict::Safe && !expectedUnsafe(s.verdict, s.expect))
        out.push_back(results[i].spec + " [" + targets[i].str() + "] state " + s.state + ": " +
                      std::string(name(s.verdict)));
    for (const TransitionResult& t : results[i].transitions)
      if (t.verdict != Verdict::Safe && !expectedUnsafe(t.verdict, t.expect))
        out.push_back(results[i].spec + " [" + targets[i].str() + "] " + t.transition + ": " +
                      std::string(name(t.verdict)));
  }
  return out;
}

std::variant<nlohmann::json, Diagnostics> patchTable(const Spec& spec, const std::vector<Target>& targets,
                                                     const std::vector<SpecResult>& results,
                                                     const TableOptions& opt) {
  nlohmann::json table;
  table["format"] = "patchcheck-table/1";
  table["spec"] = {{"name", spec.name}, {"path", treeName(spec.root, spec.path)}, {"summary", spec.summary}, {"function", spec.function},
                   {spec.byteUnits ? "bytes" : "words", spec.words}, {"units", spec.siteUnits()}, {"prefix", cIdentifier(spec.name)}};
  z3::context ctx;  // a byte site reads its instructions' bytes from their terms
  table["options"] = {{"matrix", opt.matrix}};
  Counts total;
  unsigned transitions = 0, states = 0;
  Diagnostics errs;
  table["targets"] = nlohmann::json::array();
  for (size_t ti = 0; ti < targets.size(); ++ti) {
    const Target& t = targets[ti];
    nlohmann::json tj{{"target", t.str()}, {"isa", t.variantName()}, {"abi", t.abiName()},
                      {"endian", name(t.endian)}};
    // The trampolines' own proofs, which every `call` in the table relies on.
    tj["trampolines"] = nlohmann::json::array();
    for (const TrampolineResult& k : results[ti].trampolines)
      tj["trampolines"].push_back({{"entry", k.entry}, {"source", k.source}, {"source_sha256", k.sourceSha256},
                                   {"verdict", name(k.verdict)},
                                   {"paths", k.counts.paths}, {"queries", k.counts.queries}});
    std::map<std::string, std::vector<nlohmann::json>> words;  // state -> word entries (a byte site: none)
    // Regression cases: UNSAFE as the spec expects. Named, never certified:
    // no words or steps a reader could take for a proven sequence.
    tj["regressions"] = nlohmann::json::array();
    std::set<std::string> broken;  // states UNSAFE as expected
    for (const StateResult& r : results[ti].states)
      if (expectedUnsafe(r.verdict, r.expect)) {
        broken.insert(r.state);
        const StateSpec* st = spec.state(r.state);
        tj["regressions"].push_back({{"kind", "state"}, {"name", r.state}, {"expect", "unsafe"},
                                     {"verdict", name(r.verdict)}, {"line", st ? st->where.line : 0}});
      }
    // A state's entry: its units (a byte site: its instructions) and proof.
    auto stateJson = [&](const StateSpec& st, const nlohmann::json& units) {
      nlohmann::json sj{{"name", st.name}, {"behaviour", spec.behaviour.at(st.name).str()}};
      sj[spec.byteUnits ? "instructions" : "words"] = units;
      for (const StateResult& r : results[ti].states)
        if (r.state == st.name) sj["verification"] = countsJson(r.counts), sj["verification"]["verdict"] = name(r.verdict);
      ++states;
      return sj;
    };
    auto addState = [&](const StateSpec& st, const nlohmann::json& sj) {
      if (!broken.count(st.name)) tj["states"].push_back(sj);
    };
    tj["states"] = nlohmann::json::array();
    for (const StateSpec& st : spec.states) {
      if (spec.byteUnits) {
        auto insns = byteSiteInstructions(spec, st, t, ctx);
        if (auto* e = std::get_if<Diagnostics>(&insns)) {
          errs.insert(errs.end(), e->begin(), e->end());
          continue;
        }
        words[st.name] = {};
        addState(st, stateJson(st, std::get<nlohmann::json>(insns)));
        continue;
      }
      auto a = assembleState(spec, st, t);
      if (auto* e = std::get_if<Diagnostics>(&a)) {
        errs.insert(errs.end(), e->begin(), e->end());
        continue;
      }
      const auto& asmUnits = std::get<Program>(a).units;
      SiteLayout layout = siteLayout(spec, t);
      for (unsigned i = 0; i < spec.siteUnits(); ++i)
        words[st.name].push_back(unitJson(asmUnits[i], t, st.words[i].text, i, layout.units()[i]));
      addState(st, stateJson(st, words[st.name]));
    }
    tj["transitions"] = nlohmann::json::array();
    for (const TransitionSpec& x : spec.transitions) {
      const TransitionSpec* ts = &x;
      const TransitionResult* checked = nullptr;
      for (const TransitionResult& r : results[ti].transitions)
        if (r.transition == x.name()) checked = &r;
      if (!words.count(ts->to)) continue;
      // UNSAFE as expected, or from or to a broken state: a regression case.
      if (checked && (checked->verdict != Verdict::Safe || broken.count(ts->from) || broken.count(ts->to))) {
        tj["regressions"].push_back({{"kind", "transition"}, {"name", ts->name()}, {"from", ts->from},
                                     {"to", ts->to}, {"expect", ts->expect ? (*ts->expect == Expect::Safe ? "safe" : "unsafe") : "none"},
                                     {"verdict", name(checked->verdict)}, {"line", ts->where.line}});
        continue;
      }
      nlohmann::json trj{{"name", ts->name()}, {"from", ts->from}, {"to", ts->to}, {"when", whenName(ts->when)},
                         {"line", ts->where.line}};
      auto steps = spec.byteUnits ? byteSiteSteps(spec, *ts, t, [&](const std::string& st) { return instructionsOf(tj, st); })
                                  : unitSiteSteps(spec, *ts, t, words[ts->to]);
      if (auto* e = std::get_if<Diagnostics>(&steps)) errs.insert(errs.end(), e->begin(), e->end());
      else trj["steps"] = std::get<nlohmann::json>(steps);
      if (checked) {  // without results (the gate's comparison with a baseline): the content only
        const TransitionResult& r = *checked;
        nlohmann::json v = countsJson(r.counts);
        v["verdict"] = name(r.verdict);
        v["all_unsat"] = r.verdict == Verdict::Safe;
        trj["verification"] = v;
        total.intermediateStates += r.counts.intermediateStates;
        total.executions += r.counts.executions;
        total.paths += r.counts.paths;
        total.queries += r.counts.queries;
        ++transitions;
      }
      tj["transitions"].push_back(trj);
    }
    table["targets"].push_back(tj);
  }
  if (!errs.empty()) return errs;
  nlohmann::json cert = certificateInputs(spec, opt.limits.timeoutMs);
  nlohmann::json summary = countsJson(total);
  summary["targets"] = targets.size();
  summary["states_checked"] = states;
  summary["transitions_checked"] = transitions;
  summary["all_unsat"] = tableRefusals(results, targets).empty();
  cert["verification"] = summary;
  table["certificate"] = cert;
  return table;
}

std::variant<BuiltTable, Diagnostics> buildTable(const Spec& spec, const TableOptions& opt, const RunControl& rc) {
  BuiltTable b;
  b.targets = targetsOf(spec, opt.matrix);
  for (const Target& t : b.targets)
    if (auto p = t.problem()) return Diagnostics{{{spec.path, 0, 0}, *p}};
  CheckOptions co;
  co.limits = opt.limits;
  auto r = checkTargets(spec, b.targets, co, rc);
  if (auto* e = std::get_if<Diagnostics>(&r)) return *e;
  b.results = std::get<std::vector<SpecResult>>(std::move(r));
  b.refusals = tableRefusals(b.results, b.targets);
  if (!b.refusals.empty()) return b;
  auto j = patchTable(spec, b.targets, b.results, opt);
  if (auto* e = std::get_if<Diagnostics>(&j)) return *e;
  b.json = std::get<nlohmann::json>(std::move(j));
  return b;
}

}  // namespace patchcheck
