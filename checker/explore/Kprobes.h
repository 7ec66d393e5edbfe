#pragma once
// kprobes on a site ([model] kprobe): where a state plants the ISA's probe
// breakpoint (x86 int3, arm64 `brk #0x4`) over the first unit of an
// instruction of the probed state, and how the kprobe handler runs that
// instruction (IsaPatching::kprobeRun). docs/model.md "kprobes".
#include <map>
#include <memory>
#include <set>
#include <string>
#include <variant>

#include "checker/explore/SiteInstance.h"

namespace patchcheck {

struct Kprobe {
  std::shared_ptr<const UnitImage> insn;  // the probed instruction, at the probe's unit
  IsaPatching::KprobeRun::Kind run = IsaPatching::KprobeRun::InPlace;
  std::set<std::string> armedIn;  // the states that hold the breakpoint there
  // DelaySlotOutOfLine: the probed state's word after the branch, which
  // register_kprobe copied into the slot (MIPS arch_prepare_kprobe).
  std::shared_ptr<const UnitImage> delaySlot;
};

// By unit. Empty without [model] kprobe. An error for a breakpoint over
// no instruction start of the probed state, or over an instruction the
// kernel refuses to probe (register_kprobe fails, nothing is armed).
using Kprobes = std::map<unsigned, Kprobe>;
std::variant<Kprobes, Diagnostics> siteKprobes(const SiteInstance&);

// The units whose probe is registered while a transition's steps run (it
// is armed in `from` or in `to`: register_kprobe registers before it
// arms, unregister_kprobe unregisters after it disarms) and once they are
// done (armed in `to`).
struct KprobeLife {
  std::set<unsigned> during, after;
};
KprobeLife kprobeLife(const Kprobes&, const std::string& from, const std::string& to);

}  // namespace patchcheck
