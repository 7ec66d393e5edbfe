// MIPS kprobes (encoder/mips/Kprobes): the break Linux plants, do_bp's
// reading of break codes, and what arch_prepare_kprobe and the handler do
// with a probed word (arch/mips/kernel/kprobes.c, traps.c, probes-common.h).
// Encodings checked with GNU as 2.40 (mips-linux-gnu-as -mips32r2 and
// -mips64r6, -EB and -EL: `break 0, 515` is 000080cd, `break 515` 0203000d).
#include <catch2/catch.hpp>

#include "encoder/mips/Assembler.h"
#include "encoder/mips/Kprobes.h"

using namespace patchcheck;
using namespace patchcheck::mips;

namespace {

AssembledWord word(const std::string& src, Isa isa = Isa::Mips64R2) {
  mips::AssemblyOptions o;
  o.target = mips::Target{isa, Endian::Big, isa == Isa::Mips32R2 || isa == Isa::Mips32R6 ? Abi::O32 : Abi::N64};
  o.symbols = {{"G", 0x100}};
  auto a = assemble(src, "t.s", o);
  if (auto* e = std::get_if<Diagnostics>(&a)) FAIL((*e)[0].str());
  return std::get<Assembly>(a).words.at(0);
}

IsaPatching::KprobeRun run(const std::string& src, Isa isa = Isa::Mips64R2,
                           std::optional<std::string> before = std::nullopt) {
  AssembledWord w = word(src, isa);
  std::optional<uint32_t> prev;
  if (before) prev = word(*before, isa).bits;
  return kprobeRun(w.desc, w.bits, prev);
}

}  // namespace

TEST_CASE("MIPS kprobes: the break Linux plants and do_bp's codes", "[mips_kprobes]") {
  for (Isa isa : {Isa::Mips32R2, Isa::Mips64R2, Isa::Mips32R6, Isa::Mips64R6}) {
    CHECK(word("break 0, 515", isa).bits == 0x000080cdu);
    CHECK(word("break 0, 515", isa).bits == kKprobeBreak);
    CHECK(word("break 515", isa).bits == 0x0203000du);
  }
  CHECK(doBpCode(0x000080cd) == kKprobeBreakCode);
  CHECK(doBpCode(0x0203000d) == kKprobeBreakCode);  // halves swapped
  CHECK(doBpCode(word("break 0, 516").bits) == kKprobeStepBreakCode);
  CHECK(doBpCode(word("jal G").bits) != kKprobeBreakCode);
}

TEST_CASE("MIPS kprobes: arch_prepare_kprobe's refusals", "[mips_kprobes]") {
  using K = IsaPatching::KprobeRun;
  for (const char* s : {"ll t0, 0(a0)", "sc t0, 0(a0)", "lld t0, 0(a0)", "scd t0, 0(a0)"}) {
    INFO(s);
    CHECK(run(s).kind == K::Refused);
    CHECK(run(s).byKernel);
  }
  // In a delay slot, as __insn_has_delay_slot reads the word before.
  for (const char* b : {"jal G", "jr ra", "jalr t9", "beq a0, a1, G", "bltzal a0, G", "j G"}) {
    INFO(b);
    CHECK(run("addiu a0, a0, 1", Isa::Mips64R2, std::string(b)).kind == K::Refused);
  }
  CHECK(run("addiu a0, a0, 1", Isa::Mips64R2, std::string("addiu a0, a0, 1")).kind == K::OutOfLine);
  // R6 compact branches, and the word after a compact branch whose opcode
  // __insn_has_delay_slot counts (blezalc: blez's opcode, rt != 0).
  for (const char* s : {"bc G", "balc G", "beqzc a0, G", "bnezc a0, G", "beqc a0, a1, G", "blezc a0, G", "jic t9, 0"}) {
    INFO(s);
    CHECK(run(s, Isa::Mips64R6).kind == K::Refused);
    CHECK(run(s, Isa::Mips64R6).byKernel);
  }
  CHECK(run("addiu a0, a0, 1", Isa::Mips64R6, std::string("blezalc a0, G")).kind == K::Refused);
  CHECK(run("addiu a0, a0, 1", Isa::Mips64R6, std::string("beqzc a0, G")).kind == K::OutOfLine);
}

TEST_CASE("MIPS kprobes: what the handler does with a probed word", "[mips_kprobes]") {
  using K = IsaPatching::KprobeRun;
  for (const char* s : {"jal G", "j G", "jr ra", "jalr t9", "beq a0, a1, G", "bne a0, a1, G", "blez a0, G",
                        "bgtz a0, G", "bltz a0, G", "bgez a0, G", "bltzal a0, G", "bgezal a0, G"}) {
    INFO(s);
    CHECK(run(s).kind == K::DelaySlotOutOfLine);
  }
  for (const char* s : {"jal G", "jr ra", "jalr t9", "beq a0, a1, G", "bal G", "nal"}) {
    INFO(s);
    CHECK(run(s, Isa::Mips64R6).kind == K::DelaySlotOutOfLine);
  }
  for (const char* s : {"addiu a0, a0, 1", "move at, ra", "sd ra, 8(sp)", "lui at, 0x8000", "nop"}) {
    INFO(s);
    CHECK(run(s).kind == K::OutOfLine);
  }
  CHECK(run("addiupc a0, 16", Isa::Mips64R6).kind == K::OutOfLine);  // stepped at the slot: its result is checked
  // The kernel probes these; patchcheck does not model what it then does.
  for (const char* s : {"beql a0, a1, G", "bnel a0, a1, G", "blezl a0, G", "bgtzl a0, G", "bltzl a0, G",
                        "bgezl a0, G", "bltzall a0, G", "bgezall a0, G"}) {
    INFO(s);
    CHECK(run(s).kind == K::Refused);
    CHECK_FALSE(run(s).byKernel);
  }
  for (const char* s : {"ll t0, 0(a0)", "sc t0, 0(a0)"}) {
    INFO(s);
    CHECK(run(s, Isa::Mips64R6).kind == K::Refused);
    CHECK_FALSE(run(s, Isa::Mips64R6).byKernel);
  }
  CHECK(run("break 0, 516").kind == K::Refused);
}
