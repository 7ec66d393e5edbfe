#include "encoder/mips/Kprobes.h"

#include <string>

namespace patchcheck::mips {
namespace {

uint32_t opcode(uint32_t w) { return w >> 26; }
uint32_t rt(uint32_t w) { return (w >> 16) & 31; }
uint32_t func(uint32_t w) { return w & 63; }

// insn_has_ll_or_sc: the pre-R6 opcodes ll, lld, sc, scd.
bool kernelLlSc(uint32_t w) {
  switch (opcode(w)) {
    case 0x30: case 0x34: case 0x38: case 0x3c: return true;
    default: return false;
  }
}

}  // namespace

uint32_t doBpCode(uint32_t word) {
  uint32_t code = (word >> 6) & 0xfffff;
  if (code >= (1u << 10)) code = ((code & 0x3ff) << 10) | (code >> 10);
  return code;
}

bool kernelHasDelaySlot(uint32_t w) {
  switch (opcode(w)) {
    case 0x00:  // SPECIAL: jr, jalr
      return func(w) == 0x08 || func(w) == 0x09;
    case 0x01:  // REGIMM: bltz(l), bgez(l), bltzal(l), bgezal(l), bposge32
      switch (rt(w)) {
        case 0x00: case 0x01: case 0x02: case 0x03: case 0x10: case 0x11: case 0x12: case 0x13: case 0x1c:
          return true;
        default:
          return false;
      }
    // j, jal, beq, bne, blez, bgtz, beql, bnel, blezl, bgtzl: whatever rt
    // holds (on R6 blez..bgtzl with rt != 0 are compact branches).
    case 0x02: case 0x03: case 0x04: case 0x05: case 0x06: case 0x07:
    case 0x14: case 0x15: case 0x16: case 0x17:
      return true;
    case 0x11:  // COP1: every word, not only the FPU branches
      return true;
    default:
      return false;
  }
}

IsaPatching::KprobeRun kprobeRun(const InstrDesc* desc, uint32_t bits, std::optional<uint32_t> previous) {
  using K = IsaPatching::KprobeRun;
  if (!desc) return {K::Refused, "it is data (.word), not an instruction patchcheck can decode"};
  // arch_prepare_kprobe, in its order.
  if (kernelLlSc(bits)) return {K::Refused, "arch_prepare_kprobe refuses ll, lld, sc and scd (insn_has_ll_or_sc)"};
  if (previous && kernelHasDelaySlot(*previous))
    return {K::Refused, "it lies in the delay slot of the word before it, and arch_prepare_kprobe refuses a probe "
                        "in a delay slot (the word before it is a branch to __insn_has_delay_slot)"};
  if (desc->flags & kCompact)
    return {K::Refused, "arch_prepare_kprobe refuses an R6 compact branch (__insn_is_compact_branch)"};
  // What the kernel accepts but patchcheck does not follow.
  if (desc->op == Op::Ll || desc->op == Op::Sc || desc->op == Op::Lld || desc->op == Op::Scd)
    return {K::Refused, "Linux checks only the pre-R6 opcodes of ll and sc (insn_has_ll_or_sc), so it probes an R6 "
                        "'" + std::string(desc->mnemonic) + "' and steps it out of line, where the exception "
                        "return after the step clears LLbit; patchcheck does not model that", false};
  if (opcode(bits) == 0x11)
    return {K::Refused, "__insn_has_delay_slot takes every COP1 word for a branch; patchcheck does not model that",
            false};
  if (desc->flags & kLikely)
    return {K::Refused, "the kprobe handler runs a branch-likely's delay slot when the branch is not taken and "
                        "skips it when it is taken (evaluate_branch_instruction sets SKIP_DELAYSLOT on "
                        "BRANCH_LIKELY_TAKEN), the opposite of the CPU; patchcheck does not model that handler",
            false};
  if (desc->op == Op::Break && (doBpCode(bits) == kKprobeBreakCode || doBpCode(bits) == kKprobeStepBreakCode))
    return {K::Refused, "it is a kprobe break itself (code 515 or 516)"};
  bool kernelBranch = kernelHasDelaySlot(bits), branch = desc->flags & kDelaySlot;
  if (kernelBranch != branch)
    return {K::Refused, "__insn_has_delay_slot and the instruction's own delay slot disagree; patchcheck does not "
                        "model that", false};
  // prepare_singlestep: a branch is evaluated where it lies
  // (evaluate_branch_instruction), its delay slot stepped in the slot;
  // any other word is stepped in the slot.
  if (branch) return {K::DelaySlotOutOfLine, ""};
  return {K::OutOfLine, ""};
}

}  // namespace patchcheck::mips
