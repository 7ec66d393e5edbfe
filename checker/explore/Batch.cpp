#include "checker/explore/Batch.h"

#include <numeric>

#include "checker/spec/SpecTarget.h"
#include "encoder/Isa.h"

namespace patchcheck {
namespace {

// Each line's length in units: one on a word site, its bytes on a byte
// site (as the state assembles).
std::optional<std::vector<unsigned>> lineUnits(const Spec& spec, const StateSpec& st, const Target& t) {
  if (!spec.byteUnits) return std::vector<unsigned>(st.words.size(), 1);
  auto a = assembleState(spec, st, t);
  if (std::holds_alternative<Diagnostics>(a)) return std::nullopt;
  const auto& units = std::get<Program>(a).units;
  if (units.size() < st.words.size()) return std::nullopt;
  std::vector<unsigned> out;
  for (size_t i = 0; i < st.words.size(); ++i) out.push_back(units[i].bytes);
  return out;
}

// The most instances the state's lines split into: the largest K whose
// K segments have the same lines, of the same lengths.
unsigned instancesOf(const StateSpec& st, const std::vector<unsigned>& units) {
  size_t n = st.words.size();
  for (size_t k = n; k >= 2; --k) {
    if (n % k) continue;
    size_t p = n / k;
    bool same = true;
    for (size_t i = p; i < n && same; ++i)
      same = st.words[i].text == st.words[i % p].text && units[i] == units[i % p];
    if (same) return unsigned(k);
  }
  return 1;
}

bool writesUnit(const StepSpec& s) {
  return s.kind == StepKind::Write || s.kind == StepKind::DcCvau || s.kind == StepKind::IcIvau;
}

// The same step on two instances, `stride` units apart.
bool sameStep(const StepSpec& a, const StepSpec& b, unsigned stride) {
  if (a.kind != b.kind || a.part != b.part || b.index != a.index + stride) return false;
  if (a.interim.has_value() != b.interim.has_value() || (a.interim && a.interim->text != b.interim->text))
    return false;
  if (a.range.has_value() != b.range.has_value() || a.source != b.source) return false;
  return !a.range || (b.range->first == a.range->first + stride && b.range->second == a.range->second + stride);
}

// A `call` returns into the next copy; `enter F` jumps back to the first
// copy: neither is what one copy alone sees.
bool leavesForTheBatch(const BehaviourSpec& b, const std::string& function) {
  for (const OutcomeSpec& o : b.alternatives)
    if (o.kind == OutcomeSpec::Kind::Call || o.target == function) return true;
  return false;
}

}  // namespace

std::optional<Batch> batchOf(const Spec& spec, const TransitionSpec& t, const Target& target, int64_t regionEnd) {
  // What the argument does not cover: a pass that reads data before F,
  // calls that return into the next instance, a trampoline or a probe
  // handler that could tell the instances apart.
  if (!spec.before.empty() || !spec.trampolines.empty() || !spec.trampolineObjects.empty() ||
      !spec.model.kprobe.empty() || t.when == When::Boot || t.when == When::Early)
    return std::nullopt;
  const StateSpec* from = spec.state(t.from);
  const StateSpec* to = spec.state(t.to);
  if (!from || !to || !spec.behaviour.count(t.from) || !spec.behaviour.count(t.to)) return std::nullopt;
  const std::string& f = spec.function;
  if (leavesForTheBatch(spec.behaviour.at(t.from), f) || leavesForTheBatch(spec.behaviour.at(t.to), f) ||
      (t.allow && leavesForTheBatch(*t.allow, f)))
    return std::nullopt;
  auto fromUnits = lineUnits(spec, *from, target), toUnits = lineUnits(spec, *to, target);
  if (!fromUnits || !toUnits) return std::nullopt;
  unsigned k = std::gcd(instancesOf(*from, *fromUnits), instancesOf(*to, *toUnits));
  if (k < 2 || spec.words % k) return std::nullopt;
  unsigned stride = spec.words / k;

  // The steps as each instance sees them: the writes to it and every step
  // that writes no unit, in the writer's order; the same on every one.
  std::vector<std::vector<size_t>> seen(k);
  for (size_t i = 0; i < t.steps.size(); ++i) {
    const StepSpec& s = t.steps[i];
    if (!writesUnit(s)) {
      for (auto& steps : seen) steps.push_back(i);
      continue;
    }
    if (s.index >= spec.siteUnits()) return std::nullopt;
    unsigned j = s.index / stride;
    if (s.range && (s.range->first / stride != j || s.range->second / stride != j)) return std::nullopt;
    seen[j].push_back(i);
  }
  for (unsigned j = 1; j < k; ++j) {
    if (seen[j].size() != seen[0].size()) return std::nullopt;
    for (size_t n = 0; n < seen[0].size(); ++n) {
      const StepSpec& a = t.steps[seen[0][n]];
      const StepSpec& b = t.steps[seen[j][n]];
      if (writesUnit(a) != writesUnit(b)) return std::nullopt;
      if (!writesUnit(a) ? seen[0][n] != seen[j][n] : !sameStep(a, b, j * stride)) return std::nullopt;
    }
  }

  Batch out{spec, {spec.function, 0, k, regionEnd}};
  Spec& seg = out.segment;
  seg.function = spec.function + "@instance";
  seg.words = stride;
  seg.body.clear();
  seg.bodyBytes = 0;
  seg.stateExpect.clear();
  if (!spec.symbol(spec.function)) {
    SymbolSpec f;
    f.name = spec.function;
    f.region = "kernel-text";
    f.align = target.isa->codeAlignment();
    f.where = spec.functionWhere;
    seg.symbols.push_back(f);
  }
  // A symbol near F is near every instance, by the batch's length more:
  // the assembler then picks the short form the whole site has (rel8 for
  // a 2-byte jump label), and the copy assumes no more than the batch.
  uint64_t span = uint64_t(stride) * (k - 1) * spec.unitBytes(target);
  for (SymbolSpec& sym : seg.symbols)
    if (sym.near == spec.function) sym.near = seg.function, sym.within += span;
  seg.states.clear();
  for (const StateSpec* st : {from, to}) {
    if (seg.state(st->name)) continue;
    StateSpec one = *st;
    one.words.resize(st->words.size() / k);
    seg.states.push_back(one);
  }
  TransitionSpec one = t;
  one.expect.reset();
  one.steps.clear();
  for (size_t i : seen[0]) one.steps.push_back(t.steps[i]);
  seg.transitions = {one};
  out.instance.stride = uint64_t(stride) * spec.unitBytes(target);
  return out;
}

}  // namespace patchcheck
