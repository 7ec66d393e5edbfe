#include "encoder/arm64/Kprobes.h"

namespace patchcheck::arm64 {
namespace {

// One encoding class as Linux's __AARCH64_INSN_FUNCS names it (mask, value).
struct Pattern {
  uint32_t mask, value;
  const char* name;
};
bool is(uint32_t insn, const Pattern& p) { return (insn & p.mask) == p.value; }

// Simulated in the handler at the probed address (simulate-insn.c): every
// instruction whose result depends on the pc, since a copy stepped in the
// slot would compute it from the slot's address.
constexpr Pattern kSimulated[] = {
    {0xff000010, 0x54000000, "b.cond"}, {0x7e000000, 0x34000000, "cbz/cbnz"},
    {0x7e000000, 0x36000000, "tbz/tbnz"}, {0x1f000000, 0x10000000, "adr/adrp"},
    {0x7c000000, 0x14000000, "b/bl"},    {0xfffffc1f, 0xd61f0000, "br"},
    {0xfffffc1f, 0xd63f0000, "blr"},     {0xfffffc1f, 0xd65f0000, "ret"},
    {0xbf000000, 0x18000000, "ldr (literal)"}, {0xff000000, 0x98000000, "ldrsw (literal)"},
    {0xffffffff, 0xd503201f, "nop"},
};

// Refused by aarch64_insn_is_steppable (and not simulated above).
constexpr Pattern kRefused[] = {
    {0xff000000, 0xd4000000, "an exception-generating instruction (svc, hvc, smc, brk, hlt)"},
    {0xfe000000, 0xd6000000, "a branch to a register other than br, blr and ret (eret, the pointer-"
                             "authenticating branches)"},
    {0xfff8f01f, 0xd500401f, "msr (immediate)"},
    {0xfff00000, 0xd5100000, "msr (register)"},
    {0xffffffe0, 0xd53b4220, "mrs of DAIF"},
    {0xff000000, 0xd8000000, "prfm (literal), which uses the pc"},
    {0x3f000000, 0x1c000000, "a SIMD&FP ldr (literal), which uses the pc"},
    {0x3f400000, 0x08000000, "a store exclusive or store-release: stepping it alone clears the exclusive monitor"},
    {0x3f400000, 0x08400000, "a load exclusive or load-acquire: stepping it alone clears the exclusive monitor"},
};

// aarch64_insn_is_steppable_hint (arch/arm64/kernel/insn.c): NOP, the PAC
// hints that cannot fault and BTI (Linux commits 47d67e4d1918 and
// "arm64: kprobe: disable probe of fault prone ptrauth instruction").
bool steppableHint(uint32_t insn) {
  switch (insn & 0xfe0) {
    case 0x000: case 0x0e0: case 0x100: case 0x140: case 0x300: case 0x320:
    case 0x340: case 0x360: case 0x400: case 0x440: case 0x480: case 0x4c0:
      return true;
    default:
      return false;
  }
}

}  // namespace

IsaPatching::KprobeRun kprobeRun(uint32_t insn) {
  using K = IsaPatching::KprobeRun;
  for (const Pattern& p : kSimulated)
    if (is(insn, p)) return {K::InPlace, ""};
  for (const Pattern& p : kRefused)
    if (is(insn, p)) return {K::Refused, std::string("arm_probe_decode_insn rejects ") + p.name};
  if (is(insn, {0xfffff01f, 0xd503201f, "hint"}) && !steppableHint(insn))
    return {K::Refused, "arm_probe_decode_insn rejects a hint other than NOP, BTI and the PAC hints that cannot "
                        "fault"};
  return {K::OutOfLine, ""};
}

}  // namespace patchcheck::arm64
