#include "checker/explore/BatchCheck.h"

#include "checker/explore/Batch.h"

namespace patchcheck {
namespace {

std::string shapeOf(const BatchInstance& b) {
  return std::to_string(b.count) + " instances of one " + std::to_string(b.stride) + "-byte segment";
}

std::string provenNote(const Spec& spec, const BatchInstance& b) {
  std::string offsets = "0";
  for (unsigned j = 1; j < b.count; ++j) {
    if (b.count > 3 && j == 2) offsets += ", ...", j = b.count - 1;
    offsets += ", " + std::to_string(b.stride * j);
  }
  return "batch: " + shapeOf(b) + ", proven once for the instance at " + spec.function + " + d, d = " + offsets +
         " (docs/model.md, Batches)";
}

// Why the whole site is explored after all: the copy could not be made,
// or it is not SAFE alone.
std::string notASite(const BatchInstance& b, const Diagnostics& e) {
  return "batch of " + shapeOf(b) + ": one instance alone is not a site (" + e.front().message +
         "); the whole site explored";
}

std::string notSafeAlone(const BatchInstance& b, Verdict v, const std::string& unknownReason) {
  return "batch of " + shapeOf(b) + ": one instance is " +
         (v == Verdict::Unsafe ? std::string("UNSAFE alone") : "UNKNOWN alone: " + unknownReason) +
         "; the whole site explored";
}

}  // namespace

BatchStateAttempt proveBatchState(const SiteInstance& site, const StateSpec& st, const CheckOptions& opt) {
  BatchStateAttempt out;
  const Spec& spec = site.spec();
  TransitionSpec alone;
  alone.from = alone.to = st.name;
  auto batch = batchOf(spec, alone, site.target(), site.regionEnd());
  if (!batch) return out;
  const BatchInstance& b = batch->instance;
  auto one = SiteInstance::make(batch->segment, site.target(), site.ctx(), opt.limits.timeoutMs, nullptr, &b);
  if (auto* e = std::get_if<Diagnostics>(&one)) {
    out.note = notASite(b, *e);
    return out;
  }
  StateResult r = SiteChecker(std::get<SiteInstance>(one), opt).state(*batch->segment.state(st.name));
  if (r.verdict != Verdict::Safe) {
    out.note = notSafeAlone(b, r.verdict, r.unknownReason);
    return out;
  }
  r.expect = spec.stateExpect.count(st.name) ? std::optional(spec.stateExpect.at(st.name)) : std::nullopt;
  r.notes.push_back(provenNote(spec, b));
  out.proven = std::move(r);
  return out;
}

BatchAttempt proveBatch(const SiteInstance& site, const TransitionSpec& t, const CheckOptions& opt) {
  BatchAttempt out;
  const Spec& spec = site.spec();
  auto batch = batchOf(spec, t, site.target(), site.regionEnd());
  if (!batch) return out;
  const BatchInstance& b = batch->instance;
  auto one = SiteInstance::make(batch->segment, site.target(), site.ctx(), opt.limits.timeoutMs, nullptr, &b);
  if (auto* e = std::get_if<Diagnostics>(&one)) {
    out.note = notASite(b, *e);
    return out;
  }
  auto r = SiteChecker(std::get<SiteInstance>(one), opt).transition(batch->segment.transitions.front());
  auto* result = std::get_if<TransitionResult>(&r);
  if (!result) {
    out.note = "batch of " + shapeOf(b) + ": one instance is an input error; the whole site explored";
    return out;
  }
  if (result->verdict != Verdict::Safe) {
    out.note = notSafeAlone(b, result->verdict, result->unknownReason);
    return out;
  }
  TransitionResult proven = *result;
  proven.transition = t.name();
  proven.from = t.from;
  proven.to = t.to;
  proven.where = t.where;
  proven.expect = t.expect;
  proven.notes.push_back(provenNote(spec, b));
  out.proven = std::move(proven);
  return out;
}

}  // namespace patchcheck
