#pragma once
// Which bytes of a byte site one instruction fetch reads together
// (PassSetup::fetchedWithPrevious): RISC-V Ziccif fetches naturally aligned
// 4-byte chunks atomically, so the bytes of one instruction inside one
// chunk come from one fetch, and when every step writes them together,
// from one store.
#include <cstdint>
#include <optional>
#include <vector>

#include "checker/explore/Timeline.h"
#include "checker/spec/Spec.h"

namespace patchcheck {

// One way F may lie relative to the chunks, explored on its own:
// `withPrevious` per region unit, true when a fetch takes it together with
// the unit before it if both are in one instruction (empty on a word site,
// under a model whose fetch has no atomic chunk, or when F's alignment is
// not known at all: every byte its own choice, which allows more);
// `residue`, F modulo the chunk this split assumes (none: every placement).
struct ChunkSplit {
  std::vector<bool> withPrevious;
  std::optional<uint64_t> residue;
};
std::vector<ChunkSplit> chunkSplits(const Spec&, const Timeline&);

// Per write of the timeline: the first write of the one store it is part
// of (itself when it is a store alone, or when F's place in the chunk is
// not one known place). A picture of memory contents (graph) moves a
// store's writes together.
std::vector<unsigned> storeOfWrites(const Spec&, const Timeline&);

}  // namespace patchcheck
