#include "encoder/x86_64/Patching.h"

#include "encoder/x86_64/Kprobes.h"

namespace patchcheck::x86_64 {
namespace {

class Int3Patching final : public IsaPatching {
 public:
  std::optional<std::string_view> patchBreakpoint() const override { return "int3"; }
  // The one byte 0xcc. `int $3` (cd 03) also raises #BP, but the saved ip
  // is past its two bytes: poke_int3_handler looks up ip - 1 (INT3_INSN_SIZE),
  // the patched address + 1, which is in no vector, so the trap falls
  // through to do_int3 and is not text_poke_bp's (arch/x86/kernel/alternative.c).
  bool isPatchBreakpoint(const Unit& u) const override {
    return u.bytes == 1 && u.isConcrete() && (u.bits & 0xff) == 0xcc;
  }
  // text_poke_loc_init (arch/x86/kernel/alternative.c) says what the int3
  // handler emulates; any other instruction BUG()s when it is queued. In
  // 5.10: call and jmp rel32, jmp rel8, ret, int3, and the nops 66 90 and
  // 0f 1f 44 00 00 (as jmp +0). Linux 6.3 added Jcc rel8 and rel32
  // ("x86/alternative: Teach text_poke_bp() to patch Jcc.d32 instructions":
  // Jcc.d32 is mapped onto Jcc.d8, case 0x70 ... 0x7f, int3_emulate_jcc).
  // Before 5.10 the list is not modelled (breakpointKernelProblem).
  static constexpr KernelVersion kFirstModelled{5, 10}, kJcc{6, 3};
  std::optional<std::string> breakpointKernelProblem(KernelVersion k) const override {
    if (k.newest() || k >= kFirstModelled) return std::nullopt;
    return "the int3 handler's emulation list is modelled from Linux 5.10 on (text_poke_loc_init); before 5.2 "
           "the handler skipped the site: int3_handler = \"skip\"";
  }
  std::optional<std::string> breakpointRefuses(const Unit& insn, KernelVersion kernel) const override {
    auto byte = [&](unsigned k) { return unsigned(insn.bits >> (8 * k)) & 0xff; };
    uint64_t low40 = insn.bits & 0xffffffffffull;
    bool jcc = (insn.bytes == 6 && byte(0) == 0x0f && (byte(1) & 0xf0) == 0x80) ||
               (insn.bytes == 2 && (byte(0) & 0xf0) == 0x70);
    bool emulated = (insn.bytes == 5 && (byte(0) == 0xe8 || byte(0) == 0xe9)) || (insn.bytes == 2 && byte(0) == 0xeb) ||
                    (insn.bytes == 1 && (byte(0) == 0xc3 || byte(0) == 0xcc)) ||
                    (insn.bytes == 2 && (insn.bits & 0xffff) == 0x9066) ||            // x86_nops[2]: 66 90
                    (insn.bytes == 5 && insn.isConcrete() && low40 == 0x00441f0full);  // x86_nops[5]: 0f 1f 44 00 00
    bool jccEmulated = kernel.newest() || kernel >= kJcc;
    if (emulated || (jcc && jccEmulated)) return std::nullopt;
    std::string k = kernel.newest() ? "" : " of Linux " + kernel.str();
    if (jcc)
      return "the int3 handler" + k + " does not emulate a conditional jump (Linux 6.3 added Jcc rel8 and rel32); "
             "the kernel BUG()s on '" + insn.source + "'";
    return "text_poke_bp's int3 handler" + k + " emulates only call and jmp with a 32-bit displacement, jmp rel8, " +
           std::string(jccEmulated ? "jcc rel8 and rel32, " : "") +
           "ret, int3 and the nops 66 90 and 0f 1f 44 00 00; the kernel BUG()s on '" + insn.source + "'";
  }

  // kprobes plant the same int3 over the probed instruction's first byte
  // (arch_arm_kprobe) and run the instruction as if in place
  // (encoder/x86_64/Kprobes.cpp).
  std::optional<std::string_view> probeBreakpoint() const override { return "int3"; }
  bool isProbeBreakpoint(const Unit& u) const override { return isPatchBreakpoint(u); }
  KprobeRun kprobeRun(const Unit& insn) const override { return x86_64::kprobeRun(insn); }
};

}  // namespace

const IsaPatching& int3Patching() {
  static const Int3Patching p;
  return p;
}

}  // namespace patchcheck::x86_64
