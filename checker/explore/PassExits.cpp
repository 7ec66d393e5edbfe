#include "checker/explore/PassExplorerImpl.h"

#include <algorithm>

#include "encoder/Hex.h"

namespace patchcheck::passes {

const TrampolineContract* Explorer::contractAt(const std::string& key) const {
  if (!s_.contracts) return nullptr;
  auto it = s_.contracts->find(key);
  return it == s_.contracts->end() ? nullptr : &it->second;
}

bool Explorer::names(const OutcomeSpec& o, const Location& loc) const {
  if (o.kind != OutcomeSpec::Kind::Call || o.target != loc.callee) return false;
  if (o.offset) return loc.symbol == o.entry();
  return loc.symbol == o.target || s_.site->trampolines().count(loc.symbol) > 0;
}

std::vector<Violation> Explorer::callAt(const ExitContext& x, const OutcomeSpec& o, const Location& loc) const {
  std::string entries;
  for (const auto& [key, code] : s_.site->trampolines())
    if (code.contract.symbol == loc.callee) entries += (entries.empty() ? "" : ", ") + key;
  if (!entries.empty() && !s_.site->trampolines().count(loc.symbol)) {
    std::string at = loc.symbol;
    return {Violation{c_.bool_val(true), [at, entries](const z3::model&) {
                        return at + " is not an entry of the trampoline (its contract lists " + entries + ")";
                      }}};
  }
  const TrampolineContract* k = contractAt(loc.symbol);
  std::vector<Violation> v = callViolations(x, o, k);
  if (k && k->refutation) {
    std::string why = k->refutation->rule;
    v.push_back(Violation{c_.bool_val(true), [why](const z3::model&) { return why; }});
  }
  if (k) {
    std::vector<Violation> regs = contractRegisters(x, *k);
    v.insert(v.end(), regs.begin(), regs.end());
    if (auto code = s_.site->trampolines().find(loc.symbol); code != s_.site->trampolines().end())
      if (auto ops = opsLiteralViolation(code->second)) v.push_back(*ops);
  }
  return v;
}

std::optional<Violation> Explorer::opsLiteralViolation(const TrampolineCode& code) const {
  if (!code.contract.callback.callOps || !code.opsLiteral) return std::nullopt;
  const Spec& spec = s_.site->spec();
  std::vector<std::string> codeSymbols{spec.function};
  for (const auto& [key, c] : s_.site->trampolines()) codeSymbols.push_back(c.contract.symbol);
  auto addTargets = [&](const BehaviourSpec& b) {
    for (const OutcomeSpec& o : b.alternatives)
      if (!o.target.empty()) codeSymbols.push_back(o.target);
  };
  for (const auto& [name, b] : spec.behaviour) addTargets(b);
  for (const TransitionSpec& t : spec.transitions)
    if (t.allow) addTargets(*t.allow);
  std::vector<std::pair<std::string, z3::expr>> structs;
  for (const SymbolSpec& sym : spec.symbols)
    if (std::find(codeSymbols.begin(), codeSymbols.end(), sym.name) == codeSymbols.end())
      structs.emplace_back(sym.name, s_.site->symbol(sym.name));
  z3::expr literal = code.opsLiteral->simplify();
  z3::expr_vector bad(c_);
  std::vector<std::pair<z3::expr, std::string>> shown;
  for (unsigned u = 0; u < s_.site->spec().entryUnit(); ++u) {
    if (!z3::eq(s_.site->unitAddress(u).simplify(), literal)) continue;
    for (const UnitImage& img : s_.versions[u]) {
      z3::expr value = img.symbolic.term;
      unsigned bits = value.get_sort().bv_size();
      if (bits < 64) value = z3::sext(value, 64 - bits);
      z3::expr_vector named(c_);
      for (const auto& [name, at] : structs) named.push_back(value == at);
      z3::expr none = named.empty() ? c_.bool_val(true) : !z3::mk_or(named);
      bad.push_back(none);
      shown.emplace_back(value, img.source);
    }
  }
  if (bad.empty()) return std::nullopt;
  z3::expr when = z3::mk_or(bad).simplify();
  if (when.is_false()) return std::nullopt;
  std::string entry = code.contract.symbol, unit = "F" + std::to_string(code.contract.callback.callOps->literal);
  std::vector<z3::expr> terms;
  std::vector<std::string> sources;
  for (const auto& [value, source] : shown) terms.push_back(value), sources.push_back(source);
  auto names = structs;
  return Violation{when, [entry, unit, terms, sources, names](const z3::model& m) {
                     std::string why;
                     for (size_t i = 0; i < terms.size(); ++i) {
                       bool some = false;
                       for (const auto& [name, at] : names)
                         some = some || m.eval(terms[i] == at, true).is_true();
                       if (some) continue;
                       why = "'" + sources[i] + "' (" + hex(u64(m.eval(terms[i], true))) + ")";
                       break;
                     }
                     return "the pass enters " + entry + " while the ops literal at " + unit + " may hold " + why +
                            ", which is no struct ftrace_ops the spec declares: " + entry +
                            "'s proof takes the literal to point to one ([call_ops]); declare the struct in "
                            "[symbols]";
                   }};
}

std::vector<Violation> Explorer::contractRegisters(const ExitContext& x, const TrampolineContract& k) const {
  const std::vector<RegisterInfo>& file = isa_.registers(t_);
  std::vector<Violation> out;
  auto explainIn = [&](unsigned r, const z3::expr& now, std::string allowed) {
    std::string name = file[r].name, entry = k.key();
    return [name, now, allowed, entry](const z3::model& m) {
      z3::expr v = m.eval(now, true);
      std::string got = v.is_bool() ? (v.is_true() ? "1" : "0") : hex(u64(v));
      return "the pass enters " + entry + " with " + name + " = " + got + ", but its contract's proof takes " +
             name + " " + allowed + " (contract `values`; under arm64-bti BTYPE is the branch type the landing "
             "pad accepts)";
    };
  };
  for (unsigned r = 0; r < file.size(); ++r) {
    const RegisterInfo& info = file[r];
    z3::expr now = x.now.reg(r);
    auto listed = std::find_if(k.values.begin(), k.values.end(), [&](const auto& v) {
      return registerNumber(isa_, v.first, t_) == r;
    });
    if (listed != k.values.end()) {
      z3::expr_vector any(c_);
      std::string allowed;
      for (uint64_t a : listed->second) {
        any.push_back(info.bits == 0 ? now == c_.bool_val(a != 0) : now == c_.bv_val(a, info.bits));
        allowed += (allowed.empty() ? "in {" : ", ") + std::to_string(a);
      }
      z3::expr bad = (!z3::mk_or(any)).simplify();
      if (!bad.is_false()) out.push_back(Violation{bad, explainIn(r, now, allowed + "}")});
      continue;
    }
    if (info.general || info.zero || info.unknownAtEntry) continue;
    // An entry state holds such a register at zero (RegisterInfo), and so
    // does the proof's.
    z3::expr zero = info.bits == 0 ? c_.bool_val(false) : c_.bv_val(0, info.bits);
    z3::expr bad = (now != zero).simplify();
    if (!bad.is_false()) out.push_back(Violation{bad, explainIn(r, now, "= 0, as at a function's entry")});
  }
  return out;
}

Explorer::Alternatives Explorer::alternatives(const Location& loc, const ExitContext& x, const std::optional<Called>& called) const {
  Alternatives alts;
  for (const OutcomeSpec& o : s_.allowed.alternatives) {
    if (called) {
      if (loc.kind != LocKind::Symbol && names(o, Location{LocKind::Symbol, 0, called->entry, called->callee})) {
        // Memory is checked where the modular proof checks it: up to T's
        // entry here, and each of T's stores by the trampoline run.
        ExitContext atCall{x.entry, called->atEntry, x.abi, x.resumeAddress, x.nameAddress};
        std::vector<Violation> v = conditionViolations(called->atEntry, o);
        std::vector<Violation> memory = memoryChanged(atCall);
        std::vector<Violation> regs = liveRegistersChanged(x, {});
        v.insert(v.end(), memory.begin(), memory.end());
        v.insert(v.end(), regs.begin(), regs.end());
        alts.push_back({o.str(), v});
      }
      continue;
    }
    if (loc.kind != LocKind::Symbol && o.kind == OutcomeSpec::Kind::Untraced)
      alts.push_back({o.str(), untracedViolations(x)});
    if (loc.kind == LocKind::Symbol && names(o, loc)) alts.push_back({o.str(), callAt(x, o, loc)});
    if (loc.kind == LocKind::Symbol && o.kind == OutcomeSpec::Kind::Enter && o.target == loc.symbol)
      alts.push_back({o.str(), enterViolations(x, o)});
  }
  return alts;
}

void Explorer::exitCheck(Node& n, const Location& loc, bool inSlot) {
  if (inSlot) {
    z3::expr pc = n.cpu.pc;
    addHazard(n, c_.bool_val(true), Hazard::Kind::Elsewhere, [this, pc](const z3::model& m) {
      return "the delay slot at " + nameAddress(u64(m.eval(pc, true)), m) +
             " lies outside the declared site and body (declare F's first instructions in [site] body)";
    });
    return;
  }
  ExitContext x{entry_, n.cpu.state, abi_, s_.site->bodyStart(), nullptr};
  x.nameAddress = [](uint64_t a) { return hex(a); };
  std::string where = loc.kind == LocKind::Symbol ? loc.symbol : "F's body";
  if (n.called) where += " (back from " + n.called->entry + ")";
  Alternatives alts = alternatives(loc, x, n.called);
  if (loc.kind == LocKind::Symbol && !n.called)
    if (const TrampolineContract* k = contractAt(loc.symbol); k && !k->proven && !k->refutation) {
      unknown_ = true;  // the pass relies on a contract the solver could not prove
      out_.unknownReason = "the proof of " + loc.symbol + "'s contract: " + k->unknownReason;
    }
  if (s_.trackReached)
    for (const auto& [name, vs] : alts) {
      z3::expr_vector any(c_);
      for (const auto& v : vs) any.push_back(v.when);
      z3::expr holds = vs.empty() ? c_.bool_val(true) : !z3::mk_or(any);
      if (!out_.reached.count(name) && feasible(n, holds)) out_.reached.insert(name);
    }
  if (alts.empty()) {
    std::string allowed = s_.allowed.str();
    std::string what = n.called ? "calls " + n.called->entry + " and then " +
                                      (loc.kind == LocKind::Symbol ? "reaches " + loc.symbol : "runs F's body")
                       : loc.kind == LocKind::Symbol ? "reaches " + loc.symbol
                                                     : "runs F's body untraced";
    addHazard(n, c_.bool_val(true), Hazard::Kind::Exit,
              [what, allowed](const z3::model&) { return what + ", but the allowed behaviours are: " + allowed; },
              loc);
    return;
  }
  Violation none = noneHolds(alts, c_);
  addHazard(n, none.when, Hazard::Kind::Exit,
            [where, e = none.explain](const z3::model& m) { return "at " + where + ": " + e(m); }, loc);
}

bool Explorer::runInline(Node& n, const Location& loc, bool inSlot) {
  // A witness only needs a feasible way to an exit: the trampoline's own
  // run adds nothing to that.
  if (!s_.inlineTrampolines || s_.witnessOnly || inSlot || n.called) return false;
  auto it = s_.site->trampolines().find(loc.symbol);
  if (it == s_.site->trampolines().end()) return false;
  bool named = std::any_of(s_.allowed.alternatives.begin(), s_.allowed.alternatives.end(),
                           [&](const OutcomeSpec& o) { return names(o, loc); });
  if (!named) return false;
  const TrampolineCode& code = it->second;
  z3::expr resume = s_.site->bodyStart();
  CallerView view{&entry_, resume, resume + c_.bv_val(uint64_t(code.ipOffset), 64), opsApart_};
  for (const ApartRanges& e : code.callerFacts(entry_, abi_)) n.assume(e.fact());  // as the modular proof assumes them
  z3::expr before = pathOf(n);
  Decide feasible = [this, before](const std::vector<z3::expr>& path, const z3::expr& cond) {
    z3::expr_vector v(c_);
    v.push_back(before);
    for (const z3::expr& e : path) v.push_back(e);
    v.push_back(cond);
    Answer a = prover_.check(z3::mk_and(v));
    if (a == Answer::Unknown) {
      unknown_ = true;
      out_.unknownReason = prover_.lastUnknownReason();
    }
    return a;
  };
  Called called{loc.symbol, loc.callee, n.cpu.state};
  // The path has pc == the entry; the runner finds its words by offset.
  Cpu atEntry = n.cpu;
  atEntry.pc = code.entry();
  std::vector<TrampolineOutcome> outcomes = runTrampoline(code, atEntry, view, feasible, s_.maxSteps);
  n.events.push_back(Event{.kind = Event::Kind::Call, .versionName = loc.symbol, .pc = n.cpu.pc});
  for (TrampolineOutcome& o : outcomes) {
    if (o.undecided) {
      unknown_ = true;
      out_.unknownReason = *o.undecided;
      continue;
    }
    Node c = n;
    c.path.insert(c.path.end(), o.path.begin(), o.path.end());
    for (const TrampolineEvent& e : o.events)
      c.events.push_back(Event{.kind = Event::Kind::Step, .pc = e.pc, .wordTerm = e.word, .taken = e.taken, .step = e});
    for (const Violation& v : o.violations) addHazard(c, v.when, Hazard::Kind::Trampoline, v.explain);
    if (!o.resumed) {
      finish(c);
      continue;
    }
    c.cpu = *o.resumed;
    c.called = called;
    c.events.push_back(Event{.kind = Event::Kind::Return, .versionName = loc.symbol, .pc = c.cpu.pc});
    later(std::move(c));
  }
  return true;
}

}  // namespace patchcheck::passes
