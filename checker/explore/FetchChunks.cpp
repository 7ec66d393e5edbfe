#include "checker/explore/FetchChunks.h"

#include <algorithm>
#include <bit>
#include <map>
#include <utility>

namespace patchcheck {
namespace {

// The stores Linux's copy makes for n bytes at a destination aligned to
// `align` (copy_to_kernel_nofault, mm/maccess.c: 8, then 4, 2 and 1 bytes
// at a time, as far as the alignment allows, the source taken to be as
// aligned): the store number of each byte.
std::vector<unsigned> storesOf(unsigned n, uint64_t align) {
  std::vector<unsigned> out;
  unsigned store = 0;
  for (unsigned size : {8u, 4u, 2u, 1u}) {
    if (align % size) continue;
    while (n - out.size() >= size) {
      for (unsigned k = 0; k < size; ++k) out.push_back(store);
      ++store;
    }
  }
  return out;
}

// The store each byte of each `write I..J` is part of, F lying at
// `residue` modulo the chunk: (range step, unit) -> store number. Each
// `write I..J` is one step of the spec's (Timeline's Write::range).
std::map<std::pair<unsigned, unsigned>, unsigned> storesOfRanges(const Spec& spec, const Timeline& tl, unsigned chunk,
                                                                 uint64_t residue) {
  auto alignmentAt = [&](uint64_t offset) {
    uint64_t at = (residue + offset) % chunk;
    return at ? uint64_t(1) << std::countr_zero(at) : uint64_t(chunk);
  };
  std::map<unsigned, std::pair<unsigned, unsigned>> ranges;  // range step -> first, last unit
  for (const Write& w : tl.writes) {
    auto [it, fresh] = ranges.try_emplace(w.range, w.unit, w.unit);
    if (!fresh) it->second.first = std::min(it->second.first, w.unit), it->second.second = std::max(it->second.second, w.unit);
  }
  std::map<std::pair<unsigned, unsigned>, unsigned> storeOf;
  for (const auto& [step, span] : ranges) {
    if (span.first < spec.entryUnit()) continue;
    uint64_t dst = alignmentAt(span.first - spec.entryUnit());
    std::vector<unsigned> stores = storesOf(span.second - span.first + 1, dst);
    for (unsigned k = 0; k < stores.size(); ++k) storeOf[{step, span.first + k}] = stores[k];
  }
  return storeOf;
}

// Per region unit: fetched with the unit before it when both are in one
// instruction, F lying at `residue` modulo the chunk.
std::vector<bool> fetchedWithPrevious(const Spec& spec, const Timeline& tl, unsigned chunk, uint64_t residue) {
  std::map<std::pair<unsigned, unsigned>, unsigned> storeOf = storesOfRanges(spec, tl, chunk, residue);
  auto ranged = [&](unsigned u) {
    std::vector<unsigned> out;
    if (u < tl.byUnit.size())
      for (unsigned w : tl.byUnit[u]) out.push_back(tl.writes[w].range);
    return out;
  };
  std::vector<bool> out(spec.regionUnits(), false);
  for (unsigned u = spec.entryUnit() + 1; u < spec.regionUnits(); ++u) {
    unsigned offset = u - spec.entryUnit();
    if ((residue + offset) % chunk == 0 || ranged(u) != ranged(u - 1)) continue;
    // Every step that writes one writes the other in the same store: the
    // k-th version of each is then one store's.
    bool together = true;
    for (unsigned step : ranged(u)) {
      auto a = storeOf.find({step, u}), b = storeOf.find({step, u - 1});
      together = together && a != storeOf.end() && b != storeOf.end() && a->second == b->second;
    }
    out[u] = together;
  }
  return out;
}

}  // namespace

std::vector<ChunkSplit> chunkSplits(const Spec& spec, const Timeline& tl) {
  unsigned chunk = spec.model.fetch ? spec.model.fetch->atomicFetchBytes() : 1;
  if (!spec.byteUnits || chunk <= 1) return {ChunkSplit{}};
  // F's alignment, as every placement has it: a concrete address's lowest
  // set bit, else its `align`. A symbol the spec does not declare (a batch
  // instance, F + d) is taken as unaligned: every byte its own fetch.
  const SymbolSpec* f = spec.symbol(spec.function);
  if (!f) return {ChunkSplit{}};
  if (f->value) return {ChunkSplit{fetchedWithPrevious(spec, tl, chunk, *f->value % chunk), std::nullopt}};
  if (f->align % chunk == 0) return {ChunkSplit{fetchedWithPrevious(spec, tl, chunk, 0), std::nullopt}};
  // Each place F may have in a chunk, explored as its own placement.
  std::vector<ChunkSplit> out;
  for (uint64_t r = 0; r < chunk; r += f->align) out.push_back({fetchedWithPrevious(spec, tl, chunk, r), r});
  return out;
}

std::vector<unsigned> storeOfWrites(const Spec& spec, const Timeline& tl) {
  std::vector<unsigned> out(tl.writes.size());
  for (unsigned i = 0; i < out.size(); ++i) out[i] = i;
  std::vector<ChunkSplit> splits = chunkSplits(spec, tl);
  if (splits.size() != 1 || splits[0].withPrevious.empty()) return out;
  const SymbolSpec* f = spec.symbol(spec.function);
  unsigned chunk = spec.model.fetch->atomicFetchBytes();
  uint64_t residue = f && f->value ? *f->value % chunk : 0;
  std::map<std::pair<unsigned, unsigned>, unsigned> storeOf = storesOfRanges(spec, tl, chunk, residue);
  // The first write of each (range, store) names the group.
  std::map<std::pair<unsigned, unsigned>, unsigned> first;
  for (unsigned i = 0; i < out.size(); ++i) {
    auto s = storeOf.find({tl.writes[i].range, tl.writes[i].unit});
    if (s == storeOf.end()) continue;
    out[i] = first.try_emplace({tl.writes[i].range, s->second}, i).first->second;
  }
  return out;
}

}  // namespace patchcheck
