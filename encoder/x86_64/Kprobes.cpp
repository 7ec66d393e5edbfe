#include "encoder/x86_64/Kprobes.h"

namespace patchcheck::x86_64 {

// arch_prepare_kprobe copies the instruction into a slot
// (__copy_instruction) and either emulates it (prepare_emulation: jumps,
// calls, ret, the IF modifiers) or single-steps the copy there, with a
// %rip-relative displacement rewritten for the slot's address and the ip
// (and a pushed return address) moved back after it (resume_singlestep).
// Either way the instruction acts as at the probed address. It refuses:
// int3 (another subsystem's breakpoint), far call and jmp, iret, and the
// instructions that mask exceptions for one instruction (mov to %ss, pop
// of a segment register: insn_masking_exception). A copied displacement
// that no longer fits 32 bits (the slot too far away) is refused too, which
// depends on where the slot lies: not modelled, a probe is taken to be
// registered.
IsaPatching::KprobeRun kprobeRun(const Unit& insn) {
  using K = IsaPatching::KprobeRun;
  unsigned n = insn.bytes < 8 ? insn.bytes : 8;
  auto byte = [&](unsigned k) { return unsigned(insn.bits >> (8 * k)) & 0xff; };
  unsigned k = 0;
  auto legacyPrefix = [](unsigned b) {
    return b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 || b == 0x65 || b == 0x66 || b == 0x67 ||
           b == 0xf0 || b == 0xf2 || b == 0xf3;
  };
  while (k < n && legacyPrefix(byte(k))) ++k;
  if (k < n && (byte(k) & 0xf0) == 0x40) ++k;  // REX
  if (k >= n) return {K::InPlace, ""};
  if (insn.symbolicMask >> (8 * k) & 0xff) return {K::InPlace, ""};  // an opcode byte the placement decides: none here
  unsigned op = byte(k);
  unsigned reg = k + 1 < n ? (byte(k + 1) >> 3) & 7 : 0;
  switch (op) {
    case 0xcc: return {K::Refused, "arch_prepare_kprobe refuses int3 (another subsystem's breakpoint)"};
    case 0x9a: case 0xea: return {K::Refused, "prepare_emulation refuses a far call or jmp"};
    case 0xcf: return {K::Refused, "prepare_emulation refuses iret"};
    case 0x07: case 0x17: case 0x1f:
      return {K::Refused, "__copy_instruction refuses a pop of a segment register, which masks exceptions"};
    case 0x8e:
      if (reg == 2) return {K::Refused, "__copy_instruction refuses mov to %ss, which masks exceptions"};
      break;
    case 0xff:
      if (reg == 3 || reg == 5) return {K::Refused, "prepare_emulation refuses a far indirect call or jmp"};
      break;
    default: break;
  }
  return {K::InPlace, ""};
}

}  // namespace patchcheck::x86_64
