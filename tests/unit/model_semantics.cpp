// Instruction semantics against hand-worked cases from the MIPS32/MIPS64
// Release 2 and Release 6 manuals (Volume II pseudocode) and
// docs/semantics.md. Values are worked out from the manuals' text, not
// copied from our output.
#include <catch2/catch.hpp>

#include "encoder/mips/Assembler.h"
#include "encoder/mips/Decoder.h"
#include "model/mips/Concrete.h"

using namespace patchcheck;
using namespace patchcheck::mips;

namespace {

mips::Target target(Isa isa, Endian e = Endian::Big) { return mips::Target{isa, e, defaultAbi(isa)}; }

std::vector<uint32_t> assembleWords(const std::string& src, const mips::Target& t, uint64_t base = 0x1000) {
  AssemblyOptions o;
  o.target = t;
  o.base = Value::constant(int64_t(base));
  o.allowUnpredictable = true;
  auto a = assemble(src, "t.s", o);
  if (auto* e = std::get_if<Diagnostics>(&a)) FAIL((*e)[0].str());
  auto w = concreteWords(std::get<Assembly>(a));
  if (auto* e = std::get_if<Diagnostics>(&w)) FAIL((*e)[0].str());
  return std::get<std::vector<uint32_t>>(w);
}

ConcreteRun run(z3::context& c, const mips::Target& t, const std::string& src,
                std::initializer_list<std::pair<unsigned, uint64_t>> regs, uint64_t base = 0x1000) {
  ConcreteStart s;
  s.target = t;
  s.base = base;
  s.words = assembleWords(src, t, base);
  for (auto [r, v] : regs) s.gpr[r] = v;
  return runConcrete(c, s);
}

bool hasFault(const ConcreteRun& r, FaultKind k) {
  for (const Fault& f : r.faults)
    if (f.kind == k) return true;
  return false;
}

constexpr unsigned v0 = 2, a0 = 4, a1 = 5, t1 = 9;

}  // namespace

TEST_CASE("MIPS64 addiu, lui and sll sign-extend their 32-bit result", "[model_semantics]") {
  z3::context c;
  mips::Target m64 = target(Isa::Mips64R2);
  // ADDIU: temp <- GPR[rs] + sign_extend(imm); GPR[rt] <- sign_extend(temp31..0)
  auto r = run(c, m64, "addiu $2, $4, 1", {{a0, 0x7fffffff}});
  CHECK(*r.reg(v0) == 0xffffffff80000000ull);
  CHECK(r.faults.empty());
  // LUI: GPR[rt] <- sign_extend(immediate || 0^16)
  r = run(c, m64, "lui $2, 0x8000", {});
  CHECK(*r.reg(v0) == 0xffffffff80000000ull);
  r = run(c, target(Isa::Mips32R2), "lui $2, 0x8000", {});
  CHECK(*r.reg(v0) == 0x80000000ull);
  // SLL reads only GPR[rt]31..0 (no NotWordValue check) and sign-extends.
  r = run(c, m64, "sll $2, $4, 4", {{a0, 0x1234567808000000ull}});
  CHECK(*r.reg(v0) == 0xffffffff80000000ull);
  CHECK(r.faults.empty());
  // DADDIU is a 64-bit add: no sign extension from bit 31.
  r = run(c, m64, "daddiu $2, $4, 1", {{a0, 0x7fffffff}});
  CHECK(*r.reg(v0) == 0x80000000ull);
}

TEST_CASE("MIPS64 32-bit ops on inputs that are not word values are UNPREDICTABLE", "[model_semantics]") {
  z3::context c;
  mips::Target m64 = target(Isa::Mips64R2);
  auto r = run(c, m64, "addu $2, $4, $5", {{a0, 0x100000000ull}, {a1, 1}});
  REQUIRE(hasFault(r, FaultKind::Unpredictable));
  CHECK(r.faults[0].detail.find("a0") != std::string::npos);
  r = run(c, m64, "addu $2, $4, $5", {{a0, 0xffffffff80000000ull}, {a1, 1}});
  CHECK(r.faults.empty());
  r = run(c, m64, "srl $2, $4, 1", {{a0, 0x80000000ull}});  // 0x80000000 is not sign-extended
  CHECK(hasFault(r, FaultKind::Unpredictable));
  r = run(c, m64, "sll $2, $4, 1", {{a0, 0x80000000ull}});
  CHECK(r.faults.empty());
  r = run(c, target(Isa::Mips32R2), "addu $2, $4, $5", {{a0, 0x80000000ull}, {a1, 1}});
  CHECK(r.faults.empty());
  CHECK(*r.reg(v0) == 0x80000001ull);
}

TEST_CASE("jalr rd == rs is UNPREDICTABLE; the target is read before the link", "[model_semantics]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2);
  ConcreteStart s;
  s.target = m32;
  s.base = 0x1000;
  s.words = {0x01204809, 0};  // jalr t1, t1 ; nop
  s.gpr[t1] = 0x2000;
  auto r = runConcrete(c, s);
  REQUIRE(hasFault(r, FaultKind::Unpredictable));
  CHECK(r.faults[0].detail.find("t1") != std::string::npos);
  // The register effects are those of the non-faulting reading: jump to the
  // old t1, t1 = the return address.
  MachineState st(c, m32);
  st.regs[t1] = c.bv_val(0x2000, 32);
  Cpu cpu(st, c.bv_val(0x1000, 64));
  cpu.step(fetchWord(c, 0x01204809));
  cpu.step(fetchWord(c, 0));
  CHECK(*concreteValue(cpu.pc) == 0x2000);
  CHECK(*concreteValue(cpu.state.reg(t1)) == 0x1008);
}

TEST_CASE("jal and j reach only the 256 MB region of the delay slot", "[model_semantics]") {
  z3::context c;
  // jal at 0x0ffffffc: the delay slot 0x10000000 is in the next region, so
  // index 0x10 means 0x10000040, not 0x00000040.
  mips::Target m32 = target(Isa::Mips32R2);
  Cpu cpu(MachineState(c, m32), c.bv_val(0x0ffffffc, 64));
  cpu.step(fetchWord(c, 0x0c000010));
  CHECK(*concreteValue(cpu.state.reg(31)) == 0x10000004ull);
  cpu.step(fetchWord(c, 0));
  CHECK(*concreteValue(cpu.pc) == 0x10000040ull);
  // 64-bit kernel addresses: CKSEG0 region of the delay slot.
  mips::Target m64 = target(Isa::Mips64R2);
  Cpu cpu64(MachineState(c, m64), c.bv_val(uint64_t(0xffffffff80001000ull), 64));
  cpu64.step(fetchWord(c, 0x08000010));  // j index 0x10
  cpu64.step(fetchWord(c, 0));
  CHECK(*concreteValue(cpu64.pc) == 0xffffffff80000040ull);
}

TEST_CASE("branch targets are relative to the delay slot; links are pc + 8", "[model_semantics]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2);
  // 0x1000: bal 1f ; 0x1004: addiu v0,v0,1 (delay slot) ; 0x1008: addiu v0,v0,16 ; 0x100c: 1:
  auto r = run(c, m32,
               "bal 1f\n addiu $2, $2, 1\n addiu $2, $2, 16\n1: addiu $2, $2, 256\n", {});
  CHECK(*r.reg(31) == 0x1008);
  CHECK(*r.reg(v0) == 0x101);
  // beql not taken annuls its delay slot.
  r = run(c, m32, "beql $4, $5, 1f\n addiu $2, $2, 1\n addiu $2, $2, 16\n1: nop\n", {{a0, 1}});
  CHECK(*r.reg(v0) == 16);
  // beql taken executes it.
  r = run(c, m32, "beql $4, $5, 1f\n addiu $2, $2, 1\n addiu $2, $2, 16\n1: nop\n", {});
  CHECK(*r.reg(v0) == 1);
  // bne not taken executes the delay slot and falls through.
  r = run(c, m32, "bne $4, $5, 1f\n addiu $2, $2, 1\n addiu $2, $2, 16\n1: nop\n", {});
  CHECK(*r.reg(v0) == 17);
}

TEST_CASE("shifts: amounts, fill bits and the 32-bit forms", "[model_semantics]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2), m64 = target(Isa::Mips64R2);
  // SRA fills with bit 31, SRL with zeros.
  CHECK(*run(c, m32, "sra $2, $4, 4", {{a0, 0x80000000}}).reg(v0) == 0xf8000000ull);
  CHECK(*run(c, m32, "srl $2, $4, 4", {{a0, 0x80000000}}).reg(v0) == 0x08000000ull);
  CHECK(*run(c, m64, "sra $2, $4, 4", {{a0, 0xffffffff80000000ull}}).reg(v0) == 0xfffffffff8000000ull);
  // ROTR (R2): the bits shifted out come back at the top.
  CHECK(*run(c, m32, "rotr $2, $4, 4", {{a0, 0x12345678}}).reg(v0) == 0x81234567ull);
  // Variable shifts: rd <- rt shifted by GPR[rs]4..0 (36 & 31 = 4).
  CHECK(*run(c, m32, "sllv $2, $4, $5", {{a0, 3}, {a1, 4}}).reg(v0) == 0x30);
  CHECK(*run(c, m32, "srav $2, $4, $5", {{a0, 0x80000000}, {a1, 36}}).reg(v0) == 0xf8000000ull);
  // Doubleword shifts: the *32 forms shift by sa + 32; DSRA fills with bit 63.
  CHECK(*run(c, m64, "dsll32 $2, $4, 4", {{a0, 1}}).reg(v0) == 0x1000000000ull);
  CHECK(*run(c, m64, "dsrl32 $2, $4, 0", {{a0, 0x8000000000000000ull}}).reg(v0) == 0x80000000ull);
  CHECK(*run(c, m64, "dsra32 $2, $4, 4", {{a0, 0x8000000000000000ull}}).reg(v0) == 0xfffffffff8000000ull);
  CHECK(*run(c, m64, "dsra $2, $4, 4", {{a0, 0x8000000000000000ull}}).reg(v0) == 0xf800000000000000ull);
}

TEST_CASE("comparisons: signed and unsigned, immediates zero- or sign-extended", "[model_semantics]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2), m64 = target(Isa::Mips64R2);
  // SLT compares signed (-1 < 1), SLTU unsigned (0xffffffff > 1).
  CHECK(*run(c, m32, "slt $2, $4, $5", {{a0, 0xffffffff}, {a1, 1}}).reg(v0) == 1);
  CHECK(*run(c, m32, "sltu $2, $4, $5", {{a0, 0xffffffff}, {a1, 1}}).reg(v0) == 0);
  // SLTIU sign-extends its immediate, then compares unsigned: 5 < 0xffff...ffff.
  CHECK(*run(c, m64, "sltiu $2, $4, -1", {{a0, 5}}).reg(v0) == 1);
  // ORI, ANDI, XORI zero-extend theirs.
  CHECK(*run(c, m64, "ori $2, $0, 0x8000", {}).reg(v0) == 0x8000);
  CHECK(*run(c, m64, "xori $2, $4, 0x8000", {{a0, 0}}).reg(v0) == 0x8000);
  // ADDIU sign-extends: 0x10 + (-1).
  CHECK(*run(c, m64, "addiu $2, $4, -1", {{a0, 0x10}}).reg(v0) == 0xf);
  CHECK(*run(c, m64, "daddiu $2, $4, -1", {{a0, 0x10}}).reg(v0) == 0xf);
  // BLTZ / BGEZ test the sign: taken for -1 (skips addiu v0,v0,16).
  const char* skip = "bltz $4, 1f\n nop\n addiu $2, $2, 16\n1: nop\n";
  CHECK(*run(c, m32, skip, {{a0, 0xffffffff}}).reg(v0) == 0);
  CHECK(*run(c, m32, skip, {{a0, 1}}).reg(v0) == 16);
  // BEQ is taken on equal registers only.
  const char* eq = "beq $4, $5, 1f\n nop\n addiu $2, $2, 16\n1: nop\n";
  CHECK(*run(c, m32, eq, {{a0, 7}, {a1, 7}}).reg(v0) == 0);
  CHECK(*run(c, m32, eq, {{a0, 7}, {a1, 8}}).reg(v0) == 16);
}

TEST_CASE("R6 compact branches: link pc + 4, no delay slot", "[model_semantics]") {
  z3::context c;
  mips::Target r6 = target(Isa::Mips32R6);
  // 0x1000 balc 1f ; 0x1004 addiu v0,v0,1 ; 0x1008 1: addiu v0,v0,16
  ConcreteStart s;
  s.target = r6;
  s.base = 0x1000;
  s.words = {0xe8000001, 0x24420001, 0x24420010};  // balc +1 word ; addiu ; addiu
  auto r = runConcrete(c, s);
  CHECK(*r.reg(31) == 0x1004);
  CHECK(*r.reg(v0) == 16);
}

TEST_CASE("loads and stores follow the byte order", "[model_semantics]") {
  z3::context c;
  for (Endian e : {Endian::Big, Endian::Little}) {
    mips::Target t = target(Isa::Mips32R2, e);
    auto r = run(c, t, "sw $4, 0($5)\n lbu $2, 0($5)\n lh $3, 2($5)\n", {{a0, 0x8899aabb}, {a1, 0x100}});
    bool big = e == Endian::Big;
    CHECK(*r.byte(0x100) == (big ? 0x88 : 0xbb));
    CHECK(*r.reg(v0) == (big ? 0x88 : 0xbb));
    CHECK(*r.reg(3) == (big ? 0xffffaabbull : 0xffff8899ull));
  }
}

TEST_CASE("lwl/lwr and swl/swr merge unaligned words", "[model_semantics]") {
  z3::context c;
  // Memory 0x100.. holds 00 11 22 33 44 55 66 77. Loading the unaligned
  // word at 0x101 with the idiom gives 0x11223344 in big endian (lwl 0x101,
  // lwr 0x104) and 0x44332211 in little endian (lwl 0x104, lwr 0x101).
  for (Endian e : {Endian::Big, Endian::Little}) {
    mips::Target t = target(Isa::Mips32R2, e);
    ConcreteStart s;
    s.target = t;
    s.base = 0x1000;
    s.words = e == Endian::Big ? assembleWords("lwl $2, 1($5)\n lwr $2, 4($5)\n", t)
                               : assembleWords("lwl $2, 4($5)\n lwr $2, 1($5)\n", t);
    s.gpr[a1] = 0x100;
    s.memory = {{0x100, {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77}}};
    auto r = runConcrete(c, s);
    CHECK(*r.reg(v0) == (e == Endian::Big ? 0x11223344ull : 0x44332211ull));
    // And the store idiom writes 0xa1b2c3d4 to 0x102..0x105.
    s.words = e == Endian::Big ? assembleWords("swl $4, 2($5)\n swr $4, 5($5)\n", t)
                               : assembleWords("swl $4, 5($5)\n swr $4, 2($5)\n", t);
    s.gpr[a0] = 0xa1b2c3d4;
    r = runConcrete(c, s);
    std::vector<uint64_t> bytes;
    for (uint64_t a = 0x100; a < 0x108; ++a) bytes.push_back(*r.byte(a));
    if (e == Endian::Big)
      CHECK(bytes == std::vector<uint64_t>{0x00, 0x11, 0xa1, 0xb2, 0xc3, 0xd4, 0x66, 0x77});
    else
      CHECK(bytes == std::vector<uint64_t>{0x00, 0x11, 0xd4, 0xc3, 0xb2, 0xa1, 0x66, 0x77});
  }
}

TEST_CASE("each fault class", "[model_semantics]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2), m64 = target(Isa::Mips64R2), r6 = target(Isa::Mips32R6);
  // Reserved: 64-bit daddu on a 32-bit ISA; lwl removed in R6.
  REQUIRE(decode(0x0085102d, Isa::Mips32R2) == nullptr);
  ConcreteStart s;
  s.target = m32;
  s.base = 0x1000;
  s.words = {0x0085102d};
  CHECK(hasFault(runConcrete(c, s), FaultKind::ReservedInstruction));
  s.target = r6;
  s.words = {0x88a20001};  // lwl v0, 1(a1) before R6
  CHECK(hasFault(runConcrete(c, s), FaultKind::ReservedInstruction));
  // Address error: misaligned lw, sd; jr to a misaligned target.
  CHECK(hasFault(run(c, m32, "lw $2, 2($5)", {{a1, 0x100}}), FaultKind::AddressError));
  CHECK(run(c, m32, "lw $2, 4($5)", {{a1, 0x100}}).faults.empty());
  CHECK(hasFault(run(c, m64, "sd $2, 4($5)", {{a1, 0x100}}), FaultKind::AddressError));
  CHECK(hasFault(run(c, m32, "jr $5\n nop", {{a1, 0x2002}}), FaultKind::AddressError));
  // Integer overflow: add 0x7fffffff + 1; addu does not trap.
  CHECK(hasFault(run(c, m32, "add $2, $4, $5", {{a0, 0x7fffffff}, {a1, 1}}), FaultKind::IntegerOverflow));
  CHECK(run(c, m32, "addu $2, $4, $5", {{a0, 0x7fffffff}, {a1, 1}}).faults.empty());
  CHECK(hasFault(run(c, m64, "dadd $2, $4, $5", {{a0, 0x7fffffffffffffffull}, {a1, 1}}),
                 FaultKind::IntegerOverflow));
  CHECK(hasFault(run(c, m32, "addi $2, $4, -1", {{a0, 0x80000000}}), FaultKind::IntegerOverflow));
  // Traps fire only when their condition holds.
  CHECK(hasFault(run(c, m32, "teq $4, $5", {{a0, 3}, {a1, 3}}), FaultKind::Trap));
  CHECK(run(c, m32, "teq $4, $5", {{a0, 3}, {a1, 4}}).faults.empty());
  CHECK(hasFault(run(c, m32, "tltu $4, $5", {{a0, 3}, {a1, 0xffffffff}}), FaultKind::Trap));
  CHECK(run(c, m32, "tlt $4, $5", {{a0, 3}, {a1, 0xffffffff}}).faults.empty());
  CHECK(hasFault(run(c, m32, "break", {}), FaultKind::Break));
  CHECK(hasFault(run(c, m32, "syscall", {}), FaultKind::Syscall));
  CHECK(hasFault(run(c, m32, "sdbbp", {}), FaultKind::DebugBreak));
  CHECK(hasFault(run(c, m32, "eret", {}), FaultKind::Eret));
  CHECK(hasFault(run(c, m32, "wait", {}), FaultKind::Wait));
  // CTI in a delay slot: UNPREDICTABLE before R6, Reserved Instruction in R6.
  CHECK(hasFault(run(c, m32, "j 0x2000\n j 0x3000\n", {}), FaultKind::Unpredictable));
  s.target = r6;
  s.words = {0x08000800, 0x08000c00};  // j 0x2000 ; j 0x3000
  CHECK(hasFault(runConcrete(c, s), FaultKind::ReservedInstruction));
  // Division by zero leaves an UNPREDICTABLE result.
  CHECK(hasFault(run(c, m32, "divu $0, $4, $5", {{a0, 3}}), FaultKind::Unpredictable));
}

TEST_CASE("privileged instructions are reported as side effects", "[model_semantics]") {
  z3::context c;
  mips::Target m64 = target(Isa::Mips64R2);
  MachineState st(c, m64);
  st.regs[a0] = c.bv_val(uint64_t(0xffffffff80001000ull), 64);
  auto words = assembleWords("cache 0x15, 8($4)\n sync\n synci 0($4)\n mtc0 $4, $12\n", m64);
  z3::expr pc = c.bv_val(0x1000, 64);
  for (uint32_t w : words) execute(st, decodedWord(c, w, m64.isa), pc);
  REQUIRE(st.effects.size() == 4);
  CHECK(st.effects[0].what == "cache 0x15");
  CHECK(*concreteValue(st.effects[0].address) == 0xffffffff80001008ull);
  CHECK(st.effects[1].what == "sync 0");
  CHECK(st.effects[2].what == "synci");
  REQUIRE(st.effects[3].value);
  CHECK(*concreteValue(*st.effects[3].value) == 0xffffffff80001000ull);
}

TEST_CASE("32-bit ISAs form sign-extended addresses", "[model_semantics]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2);
  MachineState st(c, m32);
  st.regs[a1] = c.bv_val(0x80001000u, 32);
  st.memory = z3::store(st.memory, c.bv_val(uint64_t(0xffffffff80001004ull), 64), c.bv_val(0x5a, 8));
  execute(st, decodedWord(c, 0x90a20004, m32.isa), c.bv_val(uint64_t(0), 64));  // lbu v0, 4(a1)
  CHECK(*concreteValue(st.reg(v0)) == 0x5a);
  // 0x7ffffffc + 8 wraps to 0x80000004, i.e. 0xffffffff80000004.
  CHECK(*concreteValue(st.normalize(c.bv_val(uint64_t(0x7ffffffc), 64) + c.bv_val(uint64_t(8), 64))) ==
        0xffffffff80000004ull);
}

TEST_CASE("sc succeeds only after ll, and not after an interrupt", "[model_semantics]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2);
  // ll v0, 0(a1) ; addiu v0, v0, 1 ; sc v0, 0(a1)
  ConcreteStart s;
  s.target = m32;
  s.base = 0x1000;
  s.words = {0xc0a20000, 0x24420001, 0xe0a20000};
  s.gpr[a1] = 0x100;
  s.memory = {{0x100, {0, 0, 0, 41}}};
  auto r = runConcrete(c, s);
  CHECK(*r.reg(v0) == 1);     // success flag
  CHECK(*r.byte(0x103) == 42);
  s.interruptBefore = {2};    // ERET clears LLbit
  r = runConcrete(c, s);
  CHECK(*r.reg(v0) == 0);
  CHECK(*r.byte(0x103) == 41);
  // Symbolically, an implementation may fail sc even with LLbit set.
  MachineState st = MachineState::symbolic(c, m32, "in.");
  st.regs[reg::llbit] = c.bool_val(true);
  execute(st, decodedWord(c, 0xe0a20000, m32.isa), c.bv_val(uint64_t(0x1000), 64));
  CHECK(!concreteValue(st.reg(v0)));
}

TEST_CASE("the symbolic entry state names every value", "[model_semantics]") {
  z3::context c;
  MachineState st = MachineState::symbolic(c, target(Isa::Mips64R2), "in.");
  CHECK(st.reg(0).is_numeral());
  CHECK(st.reg(a0).to_string() == "in.a0");
  CHECK(st.reg(29).to_string() == "in.sp");
  CHECK(st.reg(reg::hi).to_string() == "in.hi");
  MachineState o32 = MachineState::symbolic(c, target(Isa::Mips32R2), "in.");
  CHECK(o32.reg(8).to_string() == "in.t0");
  CHECK(o32.reg(8).get_sort().bv_size() == 32);
}

TEST_CASE("R6 bovc branches on signed 32-bit overflow", "[model_semantics]") {
  z3::context c;
  mips::Target r6 = target(Isa::Mips32R6);
  // bovc a1, a0, +1 (rs = 5 >= rt = 4) ; addiu v0, v0, 1 ; addiu v0, v0, 16
  ConcreteStart s;
  s.target = r6;
  s.base = 0x1000;
  s.words = {0x20a40001, 0x24420001, 0x24420010};
  s.gpr[a0] = 0x7fffffff;
  s.gpr[a1] = 1;
  CHECK(*runConcrete(c, s).reg(v0) == 16);  // overflow: taken, forbidden slot skipped
  s.gpr[a1] = 0;
  CHECK(*runConcrete(c, s).reg(v0) == 17);
}
