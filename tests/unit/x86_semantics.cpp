// x86-64 semantics against hand-worked cases from the Intel SDM (Vol. 1,
// 3.4.1.1 and 3.4.3; Vol. 2, each instruction's Operation and Flags
// Affected) and docs/semantics-x86.md. The bytes are GNU as's (`as --64`,
// the AT&T text beside them); the expected values are worked out from the
// SDM's text, not copied from our output.
#include <catch2/catch.hpp>

#include <sstream>

#include "encoder/IsaRegistry.h"
#include "model/Executor.h"
#include "model/IsaModel.h"
#include "model/x86_64/AbiModel.h"
#include "model/x86_64/Concrete.h"
#include "model/x86_64/Decoded.h"
#include "model/x86_64/ExceptionEntry.h"

using namespace patchcheck;
using namespace patchcheck::x86_64;

namespace {

Target x86Target() { return *targetNamed("x86_64"); }

std::vector<uint8_t> hexBytes(const std::string& text) {
  std::istringstream in(text);
  std::vector<uint8_t> out;
  std::string b;
  while (in >> b) out.push_back(uint8_t(std::stoul(b, nullptr, 16)));
  return out;
}

constexpr uint64_t kBase = 0x401000, kStack = 0x7000, kData = 0x9000;

struct Entry {
  std::vector<std::pair<unsigned, uint64_t>> r;
  bool cf = false, pf = false, af = false, zf = false, sf = false, of = false;
  std::vector<ConcreteStart::Bytes> memory = {};
};

ConcreteRun run(z3::context& c, const std::string& code, const Entry& e = {}) {
  ConcreteStart s;
  s.target = x86Target();
  s.base = kBase;
  s.code = hexBytes(code);
  s.r[reg::rsp] = kStack;
  for (auto [r, v] : e.r) s.r[r] = v;
  s.cf = e.cf, s.pf = e.pf, s.af = e.af, s.zf = e.zf, s.sf = e.sf, s.of = e.of;
  s.memory = e.memory;
  s.maxSteps = 64;
  return runConcrete(c, s);
}

bool hasFault(const ConcreteRun& r, FaultKind k) {
  for (const Fault& f : r.faults)
    if (f.kind == k) return true;
  return false;
}

// The flags as a string of the set ones, "?" for an unknown one: "C.Z..O".
std::string flags(const ConcreteRun& r) {
  std::string out;
  const char* names = "CPAZSO";
  for (unsigned i = 0; i < 6; ++i) {
    auto v = r.reg(reg::cf + i);
    out += !v ? '?' : *v ? names[i] : '.';
  }
  return out;
}

uint64_t read64(const ConcreteRun& r, uint64_t address) {
  uint64_t v = 0;
  auto bytes = r.bytes(address, 8);
  for (unsigned i = 0; i < 8; ++i) v |= uint64_t(bytes[i].value_or(0xee)) << (8 * i);
  return v;
}

}  // namespace

TEST_CASE("add sets CF, PF, AF, ZF, SF and OF as the SDM defines them", "[x86_semantics]") {
  z3::context c;
  // 0x7fffffff + 1: signed overflow, a carry out of bit 3, low byte 0x00 (even parity).
  auto r = run(c, "01 d8", {{{reg::rax, 0xdeadbeef7fffffffull}, {reg::rbx, 1}}});  // add %ebx,%eax
  CHECK(*r.reg(reg::rax) == 0x80000000ull);  // a 32-bit result zero-extends
  CHECK(flags(r) == ".PA.SO");
  // 0xff + 1 in al: carry and zero; the upper bits of rax stay.
  r = run(c, "00 d8", {{{reg::rax, 0x12345678abcdefffull}, {reg::rbx, 1}}});  // add %bl,%al
  CHECK(*r.reg(reg::rax) == 0x12345678abcdef00ull);
  CHECK(flags(r) == "CPAZ..");
  // 2^63 + 2^63: carry, overflow, zero.
  r = run(c, "48 01 d8", {{{reg::rax, 1ull << 63}, {reg::rbx, 1ull << 63}}});  // add %rbx,%rax
  CHECK(*r.reg(reg::rax) == 0);
  CHECK(flags(r) == "CP.Z.O");
  // 1 + 2 = 3: two ones in the low byte, odd number? no: 0b11 has two, so PF.
  r = run(c, "01 d8", {{{reg::rax, 1}, {reg::rbx, 2}}});
  CHECK(flags(r) == ".P....");
  r = run(c, "01 d8", {{{reg::rax, 1}, {reg::rbx, 6}}});  // 7: three ones, PF clear
  CHECK(flags(r) == "......");
  CHECK(r.faults.empty());
}

TEST_CASE("sub and cmp borrow; adc and sbb take CF in", "[x86_semantics]") {
  z3::context c;
  // 0 - 1: borrow, negative, 0xff in the low byte (eight ones: PF), borrow from bit 4.
  auto r = run(c, "39 d8", {{{reg::rax, 0}, {reg::rbx, 1}}});  // cmp %ebx,%eax
  CHECK(*r.reg(reg::rax) == 0);                                 // cmp writes nothing
  CHECK(flags(r) == "CPA.S.");
  r = run(c, "83 e8 01", {{{reg::rax, 0xffffffff80000000ull}}});  // sub $1,%eax
  CHECK(*r.reg(reg::rax) == 0x7fffffffull);
  CHECK(flags(r) == ".PA..O");  // 0x80000000 - 1: signed overflow, no borrow out, 0xff low byte
  // adc: 0xffffffff + 0 + CF = 0 with a carry.
  Entry e{{{reg::rax, 0xffffffff}, {reg::rbx, 0}}};
  e.cf = true;
  r = run(c, "11 d8", e);  // adc %ebx,%eax
  CHECK(*r.reg(reg::rax) == 0);
  CHECK(flags(r) == "CPAZ..");
  // sbb: 0 - 0 - CF = 0xffffffff with a borrow.
  e = Entry{{{reg::rax, 0}, {reg::rbx, 0}}};
  e.cf = true;
  r = run(c, "19 d8", e);  // sbb %ebx,%eax
  CHECK(*r.reg(reg::rax) == 0xffffffffull);
  CHECK(flags(r) == "CPA.S.");
  // neg: CF = (operand != 0); neg of the most negative value overflows.
  r = run(c, "f7 d8", {{{reg::rax, 0x80000000}}});  // neg %eax
  CHECK(*r.reg(reg::rax) == 0x80000000ull);
  CHECK(flags(r) == "CP..SO");
  r = run(c, "f7 d8", {{{reg::rax, 0}}});
  CHECK(flags(r) == ".P.Z..");
}

TEST_CASE("logic clears CF and OF and leaves AF undefined; inc and dec keep CF", "[x86_semantics]") {
  z3::context c;
  Entry e{{{reg::rax, 0}}};
  e.cf = e.of = true;
  auto r = run(c, "85 c0", e);  // test %eax,%eax
  CHECK(flags(r) == ".P?Z..");
  r = run(c, "21 d8", {{{reg::rax, 0xf0f0f0f0ff}, {reg::rbx, 0x80000001}}});  // and %ebx,%eax
  CHECK(*r.reg(reg::rax) == 0x80000001ull);
  CHECK(flags(r) == "..?.S.");
  e = Entry{{{reg::rax, 0x7fffffff}}};
  e.cf = true;
  r = run(c, "ff c0", e);  // inc %eax
  CHECK(*r.reg(reg::rax) == 0x80000000ull);
  CHECK(flags(r) == "CPA.SO");  // CF as it was
  e = Entry{{{reg::rax, 0}}};
  r = run(c, "ff c8", e);  // dec %eax: 0 - 1, CF (clear) unchanged
  CHECK(*r.reg(reg::rax) == 0xffffffffull);
  CHECK(flags(r) == ".PA.S.");
}

TEST_CASE("shifts mask the count, keep the flags for a count of 0 and leave some flags undefined", "[x86_semantics]") {
  z3::context c;
  // shl $1: CF = the bit shifted out, OF = MSB(result) XOR CF.
  auto r = run(c, "d1 e0", {{{reg::rax, 0x80000000}}});  // shl %eax
  CHECK(*r.reg(reg::rax) == 0);
  CHECK(flags(r) == "CP?Z.O");
  // A count of 0 changes no flag, but a 32-bit destination is still written.
  Entry e{{{reg::rax, 0xffffffff00000001ull}, {reg::rcx, 0}}};
  e.cf = e.of = e.af = true;
  r = run(c, "d3 e0", e);  // shl %cl,%eax
  CHECK(*r.reg(reg::rax) == 1);
  CHECK(flags(r) == "C.A..O");
  // shl $4, %al of 0x1f: CF = bit 4; OF undefined for counts other than 1.
  r = run(c, "c0 e0 04", {{{reg::rax, 0x1f}}});
  CHECK(*r.reg(reg::rax) == 0xf0);
  CHECK(flags(r) == "CP?.S?");
  // An 8-bit shl by 9 (the mask lets counts up to 31 through): result 0, CF undefined.
  r = run(c, "d2 e0", {{{reg::rax, 0xff}, {reg::rcx, 9}}});  // shl %cl,%al
  CHECK(*r.reg(reg::rax) == 0);
  CHECK(flags(r) == "?P?Z.?");
  // sar past the width: copies of the sign, CF the sign too.
  r = run(c, "d2 f8", {{{reg::rax, 0x80}, {reg::rcx, 20}}});  // sar %cl,%al
  CHECK(*r.reg(reg::rax) == 0xff);
  CHECK(flags(r) == "CP?.S?");
  // 64-bit counts are masked to 6 bits: 65 is 1.
  r = run(c, "48 d3 e0", {{{reg::rax, 3}, {reg::rcx, 65}}});  // shl %cl,%rax
  CHECK(*r.reg(reg::rax) == 6);
  CHECK(flags(r) == ".P?...");
  // shr $1: OF = the operand's MSB.
  r = run(c, "d1 e8", {{{reg::rax, 0x80000001}}});  // shr %eax
  CHECK(*r.reg(reg::rax) == 0x40000000ull);
  CHECK(flags(r) == "CP?..O");
}

TEST_CASE("32-bit writes zero-extend, 8- and 16-bit writes keep the rest", "[x86_semantics]") {
  z3::context c;
  const uint64_t junk = 0xdeadbeefcafef00dull;
  auto r = run(c, "89 d8", {{{reg::rax, junk}, {reg::rbx, 0x1234567887654321ull}}});  // mov %ebx,%eax
  CHECK(*r.reg(reg::rax) == 0x87654321ull);
  r = run(c, "66 b8 ff ff", {{{reg::rax, junk}}});  // mov $0xffff,%ax
  CHECK(*r.reg(reg::rax) == 0xdeadbeefcafeffffull);
  r = run(c, "0f b6 c3", {{{reg::rax, junk}, {reg::rbx, 0x80}}});  // movzbl %bl,%eax
  CHECK(*r.reg(reg::rax) == 0x80);
  r = run(c, "48 0f be c3", {{{reg::rbx, 0x80}}});  // movsbq %bl,%rax
  CHECK(*r.reg(reg::rax) == 0xffffffffffffff80ull);
  r = run(c, "48 63 c3", {{{reg::rbx, 0x80000000}}});  // movslq %ebx,%rax
  CHECK(*r.reg(reg::rax) == 0xffffffff80000000ull);
  r = run(c, "87 c0", {{{reg::rax, junk}}});  // xchg %eax,%eax is not a nop
  CHECK(*r.reg(reg::rax) == 0xcafef00dull);
  // cmovcc with a 32-bit operand writes its destination even when the
  // condition fails; the 64-bit form then keeps it whole.
  r = run(c, "0f 44 c3", {{{reg::rax, junk}, {reg::rbx, 7}}});  // cmove %ebx,%eax, ZF clear
  CHECK(*r.reg(reg::rax) == 0xcafef00dull);
  r = run(c, "48 0f 44 c3", {{{reg::rax, junk}, {reg::rbx, 7}}});  // cmove %rbx,%rax
  CHECK(*r.reg(reg::rax) == junk);
  Entry e{{{reg::rax, junk}, {reg::rbx, 7}}};
  e.zf = true;
  r = run(c, "48 0f 44 c3", e);
  CHECK(*r.reg(reg::rax) == 7);
  e = Entry{{{reg::rax, junk}}};
  e.cf = true;
  r = run(c, "0f 92 c0", e);  // setb %al
  CHECK(*r.reg(reg::rax) == 0xdeadbeefcafef001ull);
}

TEST_CASE("ah, bh, ch and dh are bits 15..8 of their registers", "[x86_semantics]") {
  z3::context c;
  auto r = run(c, "88 e3", {{{reg::rax, 0x1122}, {reg::rbx, 0xffffffffffffffffull}}});  // mov %ah,%bl
  CHECK(*r.reg(reg::rbx) == 0xffffffffffffff11ull);
  r = run(c, "88 dc", {{{reg::rax, 0xaaaaaaaaaaaaaaaaull}, {reg::rbx, 0x55}}});  // mov %bl,%ah
  CHECK(*r.reg(reg::rax) == 0xaaaaaaaaaaaa55aaull);
  r = run(c, "00 ee", {{{reg::rcx, 0x0100}, {reg::rdx, 0x12ff34}}});  // add %ch,%dh
  CHECK(*r.reg(reg::rdx) == 0x120034);
  CHECK(flags(r) == "CPAZ..");
  r = run(c, "0f b6 cf", {{{reg::rbx, 0xab00}, {reg::rcx, ~0ull}}});  // movzbl %bh,%ecx
  CHECK(*r.reg(reg::rcx) == 0xab);
}

TEST_CASE("push, pop, call and ret move rsp by eight and keep the return address on the stack", "[x86_semantics]") {
  z3::context c;
  auto r = run(c, "53 59", {{{reg::rbx, 0x1234}}});  // push %rbx; pop %rcx
  CHECK(*r.reg(reg::rcx) == 0x1234);
  CHECK(*r.reg(reg::rsp) == kStack);
  CHECK(read64(r, kStack - 8) == 0x1234);
  r = run(c, "6a 80");  // push $-128: sign-extended to 64 bits
  CHECK(*r.reg(reg::rsp) == kStack - 8);
  CHECK(read64(r, kStack - 8) == 0xffffffffffffff80ull);
  r = run(c, "54");  // push %rsp pushes the value before the push
  CHECK(read64(r, kStack - 8) == kStack);
  r = run(c, "5c", {{}, false, false, false, false, false, false, {{kStack, {0x00, 0x50, 0, 0, 0, 0, 0, 0}}}});  // pop %rsp
  CHECK(*r.reg(reg::rsp) == 0x5000);  // the loaded value, not the incremented one
  // call rel32 over a ud2 to a ret: the call pushes kBase + 5, the ret
  // comes back to it, and ud2 then traps there.
  r = run(c, "e8 02 00 00 00 0f 0b c3");  // call 1f; ud2; 1: ret
  CHECK(hasFault(r, FaultKind::ReservedInstruction));
  CHECK(r.pc == kBase + 5);
  CHECK(*r.reg(reg::rsp) == kStack);
  CHECK(read64(r, kStack - 8) == kBase + 5);
  // ret $16 drops 16 bytes more.
  r = run(c, "c2 10 00", {{}, false, false, false, false, false, false, {{kStack, {0x34, 0x12, 0, 0, 0, 0, 0, 0}}}});
  CHECK(r.stop == "left the program");
  CHECK(r.pc == 0x1234);
  CHECK(*r.reg(reg::rsp) == kStack + 24);
  // leave: rsp = rbp, then pop rbp.
  r = run(c, "c9", {{{reg::rbp, kData}}, false, false, false, false, false, false, {{kData, {0x78, 0x56, 0, 0, 0, 0, 0, 0}}}});
  CHECK(*r.reg(reg::rbp) == 0x5678);
  CHECK(*r.reg(reg::rsp) == kData + 8);
}

TEST_CASE("pushfq shows the flags in RFLAGS's layout; popfq restores them", "[x86_semantics]") {
  z3::context c;
  Entry e;
  e.cf = e.zf = e.of = true;
  auto r = run(c, "9c", e);  // pushfq
  CHECK(read64(r, kStack - 8) == (0x1 | 0x2 | 0x40 | 0x200 | 0x800));  // CF, bit 1, ZF, IF, OF
  // popfq of 0xc95: CF PF AF SF, DF, OF; IF clear.
  r = run(c, "9d", {{}, false, false, false, false, false, false, {{kStack, {0x95, 0x0c, 0, 0, 0, 0, 0, 0}}}});
  CHECK(flags(r) == "CPA.SO");
  CHECK(*r.reg(reg::df) == 1);
  CHECK(*r.reg(reg::sysflags) == 0);  // IF cleared by the image: popf at CPL 0 may do it
}

TEST_CASE("rip-relative operands count from the next instruction", "[x86_semantics]") {
  z3::context c;
  // mov 0x10(%rip),%rax at kBase (7 bytes): loads from kBase + 7 + 0x10.
  auto r = run(c, "48 8b 05 10 00 00 00",
               {{}, false, false, false, false, false, false, {{kBase + 0x17, {1, 2, 3, 4, 5, 6, 7, 8}}}});
  CHECK(*r.reg(reg::rax) == 0x0807060504030201ull);
  r = run(c, "48 8d 05 10 00 00 00");  // lea 0x10(%rip),%rax
  CHECK(*r.reg(reg::rax) == kBase + 0x17);
  // call *0x10(%rip): the target is the quadword at kBase + 6 + 0x10.
  r = run(c, "ff 15 10 00 00 00",
          {{}, false, false, false, false, false, false, {{kBase + 0x16, {0x00, 0x20, 0, 0, 0, 0, 0, 0}}}});
  CHECK(r.pc == 0x2000);
  CHECK(read64(r, kStack - 8) == kBase + 6);
}

TEST_CASE("a call whose displacement depends on the placement goes to its term", "[x86_semantics]") {
  z3::context c;
  Target t = x86Target();
  z3::expr F = c.bv_const("F", 64), T = c.bv_const("T", 64);
  z3::expr rel = (T - (F + c.bv_val(5, 64))).extract(31, 0);
  Instruction call{z3::concat(rel, c.bv_val(0xe8, 8)), 0xe8, 5};
  Cpu cpu(MachineState::symbolic(c, t, "in."), F);
  std::vector<Fault> faults = cpu.step(call);
  CHECK(faults.empty());
  CHECK_FALSE(cpu.undecided());
  z3::solver s(c);
  // In reach (|T - (F + 5)| < 2^31) the call goes to T and pushes F + 5.
  z3::expr d = T - (F + c.bv_val(5, 64));
  s.add(z3::sge(d, c.bv_val(int64_t(-0x80000000ll), 64)) && z3::slt(d, c.bv_val(int64_t(0x80000000ll), 64)));
  z3::expr sp = cpu.state.reg(reg::rsp);
  s.add(cpu.pc != T || cpu.state.peek(sp, 8) != F + c.bv_val(5, 64) ||
        sp != MachineState::symbolic(c, t, "in.").reg(reg::rsp) - c.bv_val(8, 64));
  CHECK(s.check() == z3::unsat);

  // Bytes the placement decides outside the displacement: the opcode
  // itself would depend on it.
  Instruction odd{z3::concat(c.bv_val(0, 32), rel.extract(7, 0)), 0, 5};
  Cpu other(MachineState::symbolic(c, t, "in."), F);
  faults = other.step(odd);
  REQUIRE(faults.size() == 1);
  CHECK(faults[0].kind == FaultKind::Unpredictable);
}

TEST_CASE("a jcc on an open condition forks; a decided one does not", "[x86_semantics]") {
  z3::context c;
  Target t = x86Target();
  uint8_t jz[] = {0x74, 0x05};  // jz .+7
  Cpu cpu(MachineState::symbolic(c, t, "in."), c.bv_val(kBase, 64));
  cpu.step(fetchBytes(c, jz, 2));
  auto open = cpu.undecided();
  REQUIRE(open);
  CHECK(z3::eq(open->simplify(), c.bool_const("in.zf")));
  Cpu taken = cpu, fallThrough = cpu;
  taken.settleBranch(true);
  fallThrough.settleBranch(false);
  CHECK(*concreteValue(taken.pc) == kBase + 7);
  CHECK(*concreteValue(fallThrough.pc) == kBase + 2);
  CHECK_FALSE(taken.undecided());

  // Through the executor: two paths, one per way.
  struct Paths : Executor<Execution>::Client {
    std::vector<uint64_t> ends;
    std::optional<Instruction> fetch(Execution& e) override {
      uint64_t pc = *concreteValue(e.cpu.pc);
      if (pc == kBase) return fetchBytes(e.cpu.state.ctx, jz, 2);
      ends.push_back(pc);
      return std::nullopt;
    }
    bool stepped(Execution&, const std::vector<Fault>&, size_t) override { return true; }
    void runaway(Execution&) override {}
    uint8_t jz[2] = {0x74, 0x05};
  } paths;
  auto decide = [&](const std::vector<z3::expr>& path, const z3::expr& cond) {
    z3::solver s(c);
    for (const z3::expr& p : path) s.add(p);
    s.add(cond);
    return s.check() == z3::sat ? Answer::Sat : Answer::Unsat;
  };
  Executor<Execution> ex(paths, decide, {});
  ex.later(Execution(Cpu(MachineState::symbolic(c, t, "in."), c.bv_val(kBase, 64))));
  ex.run();
  std::sort(paths.ends.begin(), paths.ends.end());
  CHECK(paths.ends == std::vector<uint64_t>{kBase + 2, kBase + 7});

  // Concrete flags decide it at once.
  Entry e;
  e.zf = true;
  auto r = run(c, "74 05", e);
  CHECK(r.pc == kBase + 7);
  r = run(c, "74 05");
  CHECK(r.pc == kBase + 2);
}

TEST_CASE("bytes that are no instruction, ud2 and instructions outside the subset are #UD", "[x86_semantics]") {
  z3::context c;
  auto r = run(c, "06");  // push %es: invalid in 64-bit mode
  REQUIRE(r.faults.size() == 1);
  CHECK(r.faults[0].kind == FaultKind::ReservedInstruction);
  CHECK(r.faults[0].detail.find("(bad) 06") != std::string::npos);
  CHECK(r.pc == kBase);
  r = run(c, "90 0f 0b");  // nop; ud2
  CHECK(hasFault(r, FaultKind::ReservedInstruction));
  CHECK(r.pc == kBase + 1);
  r = run(c, "0f a2");  // cpuid: a real instruction, not in the subset
  REQUIRE(r.faults.size() == 1);
  CHECK(r.faults[0].detail.find("not in patchcheck's x86-64 model") != std::string::npos);
  r = run(c, "65 48 8b 04 25 28 00 00 00");  // mov %gs:0x28,%rax: no segment bases here
  CHECK(hasFault(r, FaultKind::ReservedInstruction));
  CHECK(*r.reg(reg::rax) == 0);  // nothing happened
}

TEST_CASE("int3 traps with pc at the int3", "[x86_semantics]") {
  z3::context c;
  auto r = run(c, "90 cc 90");
  REQUIRE(r.faults.size() == 1);
  CHECK(r.faults[0].kind == FaultKind::Break);
  CHECK(r.pc == kBase + 1);
  CHECK(*r.reg(reg::rsp) == kStack);  // the model pushes no frame: the checker handles the trap

  Cpu cpu(MachineState(c, x86Target()), c.bv_val(kBase, 64));
  uint8_t int3[] = {0xcc};
  auto faults = cpu.step(fetchBytes(c, int3, 1));
  CHECK(*concreteValue(cpu.pc) == kBase);
}

TEST_CASE("every nop form is a nop: a memory operand is not read", "[x86_semantics]") {
  z3::context c;
  for (const char* nop : {"90", "66 90", "0f 1f 00", "0f 1f 40 00", "0f 1f 44 00 00", "66 0f 1f 44 00 00",
                          "0f 1f 80 00 00 00 00", "0f 1f 84 00 00 00 00 00", "66 0f 1f 84 00 00 00 00 00",
                          "66 2e 0f 1f 84 00 00 00 00 00", "f3 0f 1e fa", "f3 90"}) {
    auto r = run(c, nop, {{{reg::rax, 0x123}}});
    INFO(nop);
    CHECK(r.faults.empty());
    CHECK(r.stop == "left the program");
    CHECK(r.pc == kBase + hexBytes(nop).size());
    CHECK(r.state.loaded.empty());
    CHECK(*r.reg(reg::rax) == 0x123);
  }
}

TEST_CASE("stores are little-endian and as wide as the operand", "[x86_semantics]") {
  z3::context c;
  auto r = run(c, "89 03 c6 43 04 80", {{{reg::rax, 0x11223344aabbccddull}, {reg::rbx, kData}}});  // mov %eax,(%rbx); movb $0x80,4(%rbx)
  auto bytes = r.bytes(kData, 6);
  CHECK(bytes[0] == 0xdd);
  CHECK(bytes[3] == 0xaa);
  CHECK(bytes[4] == 0x80);
  CHECK(bytes[5] == 0);
}

TEST_CASE("x86-64 registers, the ABI and the exception frame", "[x86_semantics]") {
  z3::context c;
  Target t = x86Target();
  const IsaModel& m = modelOf(t);
  CHECK(m.parseRegister("rax", t) == reg::rax);
  CHECK(m.parseRegister("%r15", t) == reg::r15);
  CHECK(m.parseRegister("rsp", t) == reg::rsp);
  CHECK_FALSE(m.parseRegister("eax", t));
  CHECK(registerNumber(m, "df", t) == reg::df);

  const AbiModel& abi = m.abi(t);
  CHECK(abi.sp == reg::rsp);
  CHECK(abi.link == reg::rsp);  // no link register: the return address is on the stack
  CHECK(abi.arguments == std::vector<unsigned>{reg::rdi, reg::rsi, reg::rdx, reg::rcx, reg::r8, reg::r9});
  CHECK(abi.isLive(reg::rax));
  CHECK(abi.isLive(reg::df));
  CHECK_FALSE(abi.isLive(reg::r10));
  CHECK(abi.dead == std::vector<unsigned>{reg::r10, reg::r11});

  MachineState s = MachineState::symbolic(c, t, "in.");
  CHECK(z3::eq(s.reg(reg::df), c.bool_val(false)));  // DF clear at entry
  // rsp is 8-byte aligned at entry, in either 16-byte phase: the kernel
  // builds with -mpreferred-stack-boundary=3.
  CHECK(abi.stackAlign == 8);
  for (uint64_t phase : {0, 8}) {
    z3::solver solver(c);
    solver.add(m.entryAssumptions(s));
    solver.add((s.reg(reg::rsp) & c.bv_val(15, 64)) == c.bv_val(phase, 64));
    CHECK(solver.check() == z3::sat);
  }
  z3::solver solver(c);
  solver.add(m.entryAssumptions(s));
  solver.add((s.reg(reg::rsp) & c.bv_val(7, 64)) != c.bv_val(0, 64));
  CHECK(solver.check() == z3::unsat);

  // A C call: caller-saved registers and flags become fresh, rbx and rsp stay, DF clear.
  MachineState after = s;
  after.setReg(reg::df, c.bool_val(true));
  m.callExternal(after, "f", 1);
  CHECK(z3::eq(after.reg(reg::rbx), s.reg(reg::rbx)));
  CHECK(z3::eq(after.reg(reg::rsp), s.reg(reg::rsp)));
  CHECK_FALSE(z3::eq(after.reg(reg::rax), s.reg(reg::rax)));
  CHECK_FALSE(z3::eq(after.reg(reg::r11), s.reg(reg::r11)));
  CHECK(z3::eq(after.reg(reg::df), c.bool_val(false)));

  // An exception may overwrite what was stored below rsp, not at or above it.
  MachineState st(c, t);
  st.setReg(reg::rsp, c.bv_val(0x8000, 64));
  st.store(c.bv_val(0x7ff8, 64), c.bv_val(uint64_t(0x1122334455667788ull), 64), 8);
  st.store(c.bv_val(0x8000, 64), c.bv_val(0x99, 8), 1);
  m.exceptionBoundary(st);
  CHECK_FALSE(concreteValue(st.loadByte(c.bv_val(0x7ff8, 64))));
  CHECK(m.dependsOnException(st.loadByte(c.bv_val(0x7fff, 64))));
  CHECK(concreteValue(st.loadByte(c.bv_val(0x8000, 64))) == 0x99u);
}

TEST_CASE("cli, sti, hlt and the fences are side effects the checker judges", "[x86_semantics]") {
  z3::context c;
  auto r = run(c, "fa");  // cli
  CHECK(r.faults.empty());
  CHECK(*r.reg(reg::sysflags) == 0);  // IF clear
  REQUIRE(r.state.effects.size() == 1);
  CHECK(r.state.effects[0].kind == EffectKind::InterruptEnable);
  r = run(c, "fb");  // sti
  CHECK(*r.reg(reg::sysflags) == rflags::IF);
  r = run(c, "f4");  // hlt
  CHECK(hasFault(r, FaultKind::Wait));
  r = run(c, "0f ae f0 0f ae e8 0f ae f8");  // mfence; lfence; sfence
  REQUIRE(r.state.effects.size() == 3);
  CHECK(r.state.effects[0].ordering == Ordering::Full);
  CHECK(r.state.effects[1].ordering == Ordering::Loads);
  CHECK(r.state.effects[2].ordering == Ordering::Stores);
  r = run(c, "f0 01 03", {{{reg::rbx, kData}}});  // lock add %eax,(%rbx): a full barrier
  REQUIRE(r.state.effects.size() == 1);
  CHECK(r.state.effects[0].ordering == Ordering::Full);
}

TEST_CASE("pop to an rsp-based address computes it after rsp moved", "[x86_semantics]") {
  z3::context c;
  // popq 8(%rsp): the value at kStack goes to kStack + 8 + 8.
  auto r = run(c, "8f 44 24 08", {{}, false, false, false, false, false, false, {{kStack, {0x42, 0, 0, 0, 0, 0, 0, 0}}}});
  CHECK(*r.reg(reg::rsp) == kStack + 8);
  CHECK(read64(r, kStack + 16) == 0x42);
  // A 16-bit near branch (0x66 call) is where vendors differ.
  r = run(c, "66 e8 00 00 00 00");
  CHECK(hasFault(r, FaultKind::Unpredictable));
}

TEST_CASE("pushfq; popfq and push; pop leave a symbolic state as it was", "[x86_semantics]") {
  z3::context c;
  Target t = x86Target();
  MachineState entry = MachineState::symbolic(c, t, "in.");
  Cpu cpu(entry, c.bv_val(kBase, 64));
  uint8_t code[] = {0x9c, 0x53, 0x31, 0xdb, 0x5b, 0x9d};  // pushfq; push %rbx; xor %ebx,%ebx; pop %rbx; popfq
  unsigned at = 0;
  for (unsigned n : {1u, 1u, 2u, 1u, 1u}) {
    cpu.state.concrete = false;
    modelOf(t).exceptionBoundary(cpu.state);  // an interrupt may come anywhere: the saved words are above rsp
    CHECK(cpu.step(fetchBytes(c, code + at, n)).empty());
    at += n;
  }
  z3::solver s(c);
  s.add(modelOf(t).entryAssumptions(entry));
  z3::expr_vector changed(c);
  for (unsigned r = 0; r < reg::count; ++r) changed.push_back(cpu.state.reg(r) != entry.reg(r));
  s.add(z3::mk_or(changed));
  CHECK(s.check() == z3::unsat);
  CHECK(*concreteValue(cpu.pc) == kBase + sizeof code);
}
