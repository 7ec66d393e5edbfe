#pragma once
// A batch: a site made of K instances of one segment (the same
// instructions in every state, the same writes to each, the same steps
// between them), as text_poke_bp_batch or a key's jump-label sites laid
// back to back. A transition of such a site is proven once, for one
// instance at a symbolic offset d in {0, L, ..., (K-1)L} from F; the
// argument (docs/model.md, "Batches") needs every pass that leaves an
// instance at its end to be untraced, so the next instance starts as F
// did, and every other exit to leave the region. When that one proof is
// not SAFE, the checker explores the whole site instead.
#include <optional>
#include <string>

#include "checker/spec/Spec.h"
#include "encoder/Target.h"

namespace patchcheck {

// Where one instance lies: F (the batch's function, `base`) plus d, with
// d a multiple of `stride` bytes below count * stride; `regionEnd` bytes
// from F bound the batch's site, its body and the unit after them, where
// no other symbol lies.
struct BatchInstance {
  std::string base;
  uint64_t stride = 0;
  unsigned count = 0;
  int64_t regionEnd = 0;
};

struct Batch {
  // One instance as a spec of its own: its function is "F@instance" (a
  // name no text can use, so `jmp F` still means the batch's F), its site
  // one segment with no body, its states the segment's lines, and one
  // transition whose steps are the writes to the first instance and every
  // step that writes no unit.
  Spec segment;
  BatchInstance instance;
};

// The transition's site as a batch, when it is one of at least two
// instances and nothing the argument does not cover is in it (data before
// F, trampolines, kprobes, a `call` or `enter F` in the allowed
// behaviours, a write to the body). `regionEnd` as BatchInstance's, from
// the whole site.
std::optional<Batch> batchOf(const Spec&, const TransitionSpec&, const Target&, int64_t regionEnd);

}  // namespace patchcheck
