// The stepper's control-flow rules: delay slots, branch-likely annulment,
// R6 forbidden slots, and an interrupt between a branch and its delay slot
// (EPC = the branch, which is executed again: MIPS32/MIPS64 Vol. III, Cause.BD;
// Linux arch/mips/include/asm/branch.h).
#include <catch2/catch.hpp>

#include "model/mips/Concrete.h"

using patchcheck::Cpu;
using patchcheck::Fault;
using patchcheck::FaultKind;
using patchcheck::Instruction;
using patchcheck::MachineState;
using namespace patchcheck::mips;

namespace {
constexpr unsigned at = 1, v0 = 2, a0 = 4, t1 = 9;
}

TEST_CASE("an interrupt in a delay slot re-executes the branch, which reads rs again", "[model_cpu]") {
  z3::context c;
  Target m32{Isa::Mips32R2, Endian::Big, Abi::O32};
  // 0x1000: jalr t1, at ; 0x1004: addiu v0, v0, 1
  ConcreteStart s;
  s.target = m32;
  s.base = 0x1000;
  s.words = {0x00204809, 0x24420001};
  s.gpr[at] = 0x2000;
  s.interruptBefore = {1};  // between the jalr and its delay slot
  auto r = runConcrete(c, s);
  CHECK(r.stop == "left the program");
  CHECK(r.pc == 0x2000);
  CHECK(r.steps == 3);              // jalr, jalr again, delay slot
  CHECK(*r.reg(t1) == 0x1008);
  CHECK(*r.reg(v0) == 1);           // the delay slot ran once

  // jalr at, at: the first execution overwrote at with the link, so the
  // re-executed jalr jumps to the link (why the manual forbids rd == rs).
  s.words = {0x00200809, 0x24420001};
  r = runConcrete(c, s);
  CHECK(r.stop == "fault");         // reported, and the run stops at it
  REQUIRE(!r.faults.empty());
  CHECK(r.faults[0].kind == FaultKind::Unpredictable);
  Cpu cpu(MachineState(c, m32), c.bv_val(0x1000, 64));
  cpu.state.regs[at] = c.bv_val(0x2000, 32);
  cpu.step(fetchWord(c, 0x00200809));
  REQUIRE(cpu.inDelaySlot());
  cpu.interrupt();
  CHECK(*concreteValue(cpu.pc) == 0x1000);
  CHECK(!cpu.slot);
  cpu.step(fetchWord(c, 0x00200809));
  cpu.step(fetchWord(c, 0x24420001));
  CHECK(*concreteValue(cpu.pc) == 0x1008);
}

TEST_CASE("R6 forbidden slot: a CTI after a not-taken compact branch is reserved", "[model_cpu]") {
  z3::context c;
  Target r6{Isa::Mips64R6, Endian::Little, Abi::N64};
  // 0x1000: beqzc a0, +2 words ; 0x1004: bc +0 (forbidden slot) ; 0x1008: nop
  const uint32_t beqzc = 0xd8800002, bc = 0xc8000000;
  for (uint64_t a0v : {0ull, 1ull}) {
    Cpu cpu(MachineState(c, r6), c.bv_val(0x1000, 64));
    cpu.state.regs[a0] = c.bv_val(a0v, 64);
    cpu.step(fetchWord(c, beqzc));
    if (a0v == 0) {
      CHECK(*concreteValue(cpu.pc) == 0x100c);  // taken: no forbidden slot
      CHECK(!cpu.slot);
    } else {
      CHECK(*concreteValue(cpu.pc) == 0x1004);
      auto faults = cpu.step(fetchWord(c, bc));
      REQUIRE(faults.size() == 1);
      CHECK(faults[0].kind == FaultKind::ReservedInstruction);
      CHECK(faults[0].when.is_true());
    }
  }
  // A symbolic condition: the fault condition is "not taken".
  MachineState st = MachineState::symbolic(c, r6, "in.");
  Cpu cpu(st, c.bv_val(0x1000, 64));
  cpu.step(fetchWord(c, beqzc));
  REQUIRE(cpu.branchUnsettled());
  auto faults = cpu.step(fetchWord(c, bc));
  REQUIRE(faults.size() == 1);
  z3::solver sol(c);
  sol.add(faults[0].when && st.reg(a0) == 0);
  CHECK(sol.check() == z3::unsat);
}

TEST_CASE("symbolic branches settle by forking", "[model_cpu]") {
  z3::context c;
  Target m32{Isa::Mips32R2, Endian::Big, Abi::O32};
  MachineState st = MachineState::symbolic(c, m32, "in.");
  // 0x1000: beql a0, zero, +3 ; delay slot: addiu v0, v0, 1
  for (bool taken : {false, true}) {
    Cpu cpu(st, c.bv_val(0x1000, 64));
    cpu.step(fetchWord(c, 0x50800003));
    REQUIRE(cpu.branchUnsettled());
    CHECK_THROWS(cpu.step(fetchWord(c, 0x24420001)));
    cpu.settleBranch(taken);
    if (!taken) {
      CHECK(*concreteValue(cpu.pc) == 0x1008);
      continue;
    }
    cpu.step(fetchWord(c, 0x24420001));
    CHECK(*concreteValue(cpu.pc) == 0x1010);
  }
  // Without settling, a delayed branch leaves an if-then-else pc.
  Cpu cpu(st, c.bv_val(0x1000, 64));
  cpu.step(fetchWord(c, 0x10800003));  // beq a0, zero, +3
  cpu.step(fetchWord(c, 0));
  z3::solver sol(c);
  sol.add(cpu.pc != z3::ite(st.reg(a0) == 0, c.bv_val(0x1010, 64), c.bv_val(0x1008, 64)));
  CHECK(sol.check() == z3::unsat);
}
