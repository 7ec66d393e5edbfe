#pragma once
// What a pass records as it runs (PassExplorerImpl.h's Node::events), one
// type per kind of event, so that the counterexample and its replay read
// typed fields (PassReplay.cpp) rather than a record whose fields mean
// something else for each kind.
#include <z3++.h>

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checker/explore/SiteInstance.h"
#include "checker/explore/TrampolineRun.h"
#include "model/MemoryOverlay.h"

namespace patchcheck::passes::event {

// The pass fetched the instruction at `pc`: on a unit site, version
// `image` of site unit `unit`; on a byte site, the instruction decoded
// from the Byte events before it (`image` null, `length` bytes from
// `unit` on, `term` their value).
struct Fetch {
  unsigned unit = 0;
  std::string versions;  // "new"; a byte-site instruction: "old new new" or "all old"
  z3::expr pc, term;
  const UnitImage* image = nullptr;
  unsigned landed = 0;  // the writes every observer of the pass has seen landed
  std::shared_ptr<const MemoryOverlay> overlay = {};  // what the site's data units may read as
  unsigned length = 0;                               // byte site: the instruction's bytes
  // A merged fetch (symbolic fetch choices): the fetch of each image that
  // was merged, the one under guards[k] in alternatives[k]; a model picks one.
  std::vector<Fetch> alternatives = {};
  std::vector<z3::expr> guards = {};
};

// On a byte site, the version of one byte the next Fetch decodes.
struct Byte {
  unsigned unit = 0;
  std::string version;
  const UnitImage* image = nullptr;
  unsigned landed = 0;
};

// An interrupt (or preemption) at this boundary; the pass resumes at
// `resumesAt` (in a delay slot: the branch, which runs again).
struct Interrupt {
  z3::expr resumesAt;
  bool inDelaySlot = false;
};

// The pass forked on a branch its values leave open and took `taken`.
struct Settle {
  bool taken = false;
};

// The pass entered a trampoline inline at `pc` (its entry key, "ftrace_caller");
// the trampoline's own steps follow as Step events, up to Return.
struct Call {
  std::string entry;
  z3::expr pc;
};
struct Step {
  TrampolineEvent step;
};
struct Return {
  std::string entry;
  z3::expr pc;
};

// A breakpoint handler ran: it emulated `emulated` (`length` bytes) at
// `pc`, or, with none, resumed at `pc`. `by` says which handler and how
// ("run in place by the kprobe handler"); empty: text_poke_bp's int3
// handler.
struct Handler {
  z3::expr pc;
  std::optional<z3::expr> emulated = {};
  unsigned length = 0;
  std::string by = {};
};

}  // namespace patchcheck::passes::event

namespace patchcheck::passes {

using Event = std::variant<event::Fetch, event::Byte, event::Interrupt, event::Settle, event::Call, event::Step,
                           event::Return, event::Handler>;

// The event as kind T, or null.
template <class T>
const T* as(const Event& e) {
  return std::get_if<T>(&e);
}

}  // namespace patchcheck::passes
