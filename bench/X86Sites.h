#pragma once
// Byte-site specs for the x86 exploration benchmark, written as the TOML
// a user would write (docs/spec-format.md) and parsed by the same loader:
// a site of instructions back to back from F, each changed to another of
// the same length, and the writer's steps for it.
#include <string>
#include <vector>

namespace patchcheck::bench {

// One instruction of the site and what the transition turns it into.
struct X86Change {
  std::string from, to;  // assembly or `.byte`, each `bytes` long
  unsigned bytes;
};

struct X86Site {
  std::vector<X86Change> instructions;  // from F on, back to back
  std::vector<std::string> symbols;     // targets besides F, in kernel-text like F
  std::string fromBehaviour = "untraced", toBehaviour = "untraced";
  std::string int3Handler;  // [model] int3_handler; empty: the default (emulate)
  // [site] body: F's instructions after the site, which a torn instruction
  // may run on into (none: such a pass is UNKNOWN).
  std::vector<std::string> body;
  unsigned bytes() const;
};

using Steps = std::vector<std::string>;

// Linux's text_poke_bp_batch (arch/x86/kernel/alternative.c) over every
// instruction of the site: int3 over each first byte, sync_core; each
// instruction's other bytes, sync_core; each first byte, sync_core. A
// sync_core after a step that wrote nothing is left out, as Linux does.
Steps textPokeBp(const X86Site&);
// One memcpy over the whole site and a sync_core: no protocol.
Steps plainWrite(const X86Site&);

// The spec: states `old` and `new`, one transition old -> new per steps.
std::string specText(const X86Site&, const std::vector<Steps>& transitions);

// The L-byte NOP as `.byte`: Linux's x86_nops[L] for 1..8 (asm/nops.h,
// 64-bit); GNU as's single NOPs for 9..11 (`.nops`); for 12..15 the 11-byte
// one with more 0x66 prefixes, which still decodes as one NOP.
std::string x86Nop(unsigned length);

}  // namespace patchcheck::bench
