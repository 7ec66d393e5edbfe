#pragma once
// The patching half of an ISA plug-in: what the architecture (and its
// kernel) says about code that changes while other CPUs run it, apart from
// how instructions are encoded (encoder/Isa.h) and what they do
// (model/IsaModel.h). The fetch models an ISA takes stay with the plug-in
// (IsaPlugin::fetchModels): they are the axis checker/fetch/ names.
#include <optional>
#include <string>
#include <string_view>

#include "encoder/Assembly.h"
#include "encoder/KernelVersion.h"

namespace patchcheck {

class IsaPatching {
 public:
  virtual ~IsaPatching() = default;

  // ---- concurrent modification (arm64: the Arm ARM's CMODX list)
  // May this instruction be replaced while another CPU executes it (and
  // replace one)? Only an ISA with such a list says no.
  virtual bool concurrentlyModifiable(const Unit&) const { return true; }
  // That list as text, with the manual and revision it follows, for reports.
  virtual std::string concurrentModificationList() const { return ""; }
  // Is `u` a conditional branch whose fields the architecture lets a racing
  // fetch mix with another version's (arm64: B.cond, CBZ/CBNZ, TBZ/TBNZ)?
  virtual bool mixesUnderModification(const Unit& u) const {
    (void)u;
    return false;
  }
  // When `a` and `b` are such branches of one kind: the bits of the target
  // field. A fetch racing the write from one to the other may run the
  // condition fields of either with the target of either (arm64: Arm ARM
  // B2.2.5). nullopt when the two are not such a pair.
  virtual std::optional<uint64_t> mixableTargetField(const Unit& a, const Unit& b) const {
    (void)a, (void)b;
    return std::nullopt;
  }

  // ---- the patch breakpoint (x86 text_poke_bp)
  // The instruction a patcher writes over a site's first byte so that a
  // CPU fetching it traps while the rest changes (x86: int3), if the ISA
  // has such a protocol. The model reports its execution as a
  // FaultKind::Break at its address.
  virtual std::optional<std::string_view> patchBreakpoint() const { return std::nullopt; }
  // Is this assembled unit that breakpoint, by its bytes (however it was
  // spelt: x86 `int3`, `INT3`, `.byte 0xcc`)?
  virtual bool isPatchBreakpoint(const Unit& u) const {
    (void)u;
    return false;
  }
  // Why the breakpoint handler of `kernel` cannot emulate `insn` as the
  // new instruction of a breakpointed address (the kernel refuses to patch
  // it), if so.
  virtual std::optional<std::string> breakpointRefuses(const Unit& insn, KernelVersion kernel) const {
    (void)insn, (void)kernel;
    return std::nullopt;
  }
  // Why the plug-in cannot say what that kernel's handler emulates, if so.
  virtual std::optional<std::string> breakpointKernelProblem(KernelVersion kernel) const {
    (void)kernel;
    return std::nullopt;
  }

  // ---- kprobes
  // The breakpoint register_kprobe plants over the first unit of a probed
  // instruction (x86 int3, arm64 `brk #0x4`), if the plug-in models kprobes.
  virtual std::optional<std::string_view> probeBreakpoint() const { return std::nullopt; }
  // Is this assembled unit that breakpoint, by its bits?
  virtual bool isProbeBreakpoint(const Unit& u) const {
    (void)u;
    return false;
  }
  // How the kprobe handler runs the probed instruction `insn` after the
  // pre-handler: InPlace (simulated or emulated as at its own address),
  // OutOfLine (a copy single-stepped in an instruction slot elsewhere, then
  // the CPU resumes after the original), DelaySlotOutOfLine (a branch with
  // a delay slot, MIPS: the branch is evaluated at its own address, the
  // instruction after it, copied when the probe was registered, is
  // stepped in the slot, and the CPU goes on at the branch's target or
  // past the delay slot), or Refused (register_kprobe fails; `why` says
  // what the kernel checks, or what the model cannot follow).
  struct KprobeRun {
    enum Kind { InPlace, OutOfLine, DelaySlotOutOfLine, Refused } kind = Refused;
    std::string why;
    // Refused: by the kernel (register_kprobe fails), or by patchcheck,
    // which cannot follow what the kernel would do.
    bool byKernel = true;
  };
  virtual KprobeRun kprobeRun(const Unit& insn) const {
    (void)insn;
    return {KprobeRun::Refused, "kprobes are not modelled for this ISA"};
  }
  // The same, knowing the unit before the probed one where the spec says
  // what it holds (MIPS refuses a probe in a branch's delay slot).
  virtual KprobeRun kprobeRunAfter(const Unit& insn, const Unit* previous) const {
    (void)previous;
    return kprobeRun(insn);
  }
  // Does the trap handler read the trapping word back from memory to tell
  // whose trap it is? MIPS do_bp decodes the break code from the word at
  // EPC, after the exception: a word rewritten in between is not taken
  // for the probe's trap, and the kernel dies on it. Then
  // probeTrapWord says which words it takes for the probe's.
  // Why the kprobe handler may skip an instruction it would step out of
  // line altogether, if it may (MIPS: a flag an earlier branch probe on
  // the same CPU left set).
  virtual std::optional<std::string> kprobeMaySkip() const { return std::nullopt; }
  virtual bool probeTrapRereads() const { return false; }
  virtual bool probeTrapWord(const Unit& word) const { return isProbeBreakpoint(word); }
};

}  // namespace patchcheck
