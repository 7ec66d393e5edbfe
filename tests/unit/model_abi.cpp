// ABI facts (docs/semantics.md: Linux regdef.h names, stack alignment) and
// the effect of an external call.
#include <catch2/catch.hpp>

#include <algorithm>

#include "model/mips/AbiModel.h"

using patchcheck::AbiModel;
using patchcheck::MachineState;
using namespace patchcheck::mips;

namespace {
bool contains(const std::vector<unsigned>& v, unsigned r) { return std::find(v.begin(), v.end(), r) != v.end(); }
}

TEST_CASE("argument, callee-saved and dead registers per ABI", "[model_abi]") {
  const AbiModel &o32 = abiModel(Abi::O32), &n64 = abiModel(Abi::N64), &n32 = abiModel(Abi::N32);
  CHECK(o32.arguments == std::vector<unsigned>{4, 5, 6, 7});
  CHECK(n64.arguments == std::vector<unsigned>{4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(n32.arguments == n64.arguments);
  CHECK(o32.stackAlign == 8);
  CHECK(n64.stackAlign == 16);
  CHECK(o32.slotBytes == 4);
  CHECK(n32.slotBytes == 8);
  CHECK(o32.pointerBytes == 4);
  CHECK(n32.pointerBytes == 4);  // C pointers are 32-bit under n32
  CHECK(n64.pointerBytes == 8);
  for (const AbiModel* m : {&o32, &n32, &n64}) {
    for (unsigned r : {16u, 17u, 23u, 30u}) CHECK(contains(m->calleeSaved, r));
    for (unsigned r : {29u, 31u, 28u, 4u}) CHECK(m->isLive(r));
    for (unsigned r : {1u, 2u, 3u, 24u, 25u, 26u, 27u}) CHECK(contains(m->dead, r));
  }
  CHECK(contains(o32.dead, 8));   // t0 under o32
  CHECK(n64.isLive(8));           // a4 under n64
  CHECK(!contains(o32.calleeSaved, 28));
  CHECK(contains(n64.calleeSaved, 28));
}

TEST_CASE("an external call havocs caller-saved state and memory below sp", "[model_abi]") {
  z3::context c;
  Target t{Isa::Mips64R2, Endian::Big, Abi::N64};
  MachineState before = MachineState::symbolic(c, t, "in.");
  MachineState after = before;
  callExternal(after, "tracer", 1);
  z3::expr sp = before.reg(29);
  auto provable = [&](const z3::expr& claim) {
    z3::solver s(c);
    s.add(!claim);
    return s.check() == z3::unsat;
  };
  for (unsigned r : {16u, 23u, 28u, 29u, 30u}) CHECK(provable(after.reg(r) == before.reg(r)));
  for (unsigned r : {1u, 2u, 4u, 12u, 31u}) CHECK(!provable(after.reg(r) == before.reg(r)));
  z3::expr a = c.bv_const("a", 64);
  CHECK(provable(z3::forall(a, z3::implies(z3::uge(a, sp),
                                          z3::select(after.memory, a) == z3::select(before.memory, a)))));
  CHECK(!provable(z3::select(after.memory, sp - c.bv_val(8, 64)) ==
                  z3::select(before.memory, sp - c.bv_val(8, 64))));
}

TEST_CASE("entry assumptions: stack alignment, n32 pointers", "[model_abi]") {
  z3::context c;
  Target n32{Isa::Mips64R2, Endian::Big, Abi::N32};
  MachineState st = MachineState::symbolic(c, n32, "in.");
  z3::solver s(c);
  s.add(entryAssumptions(st));
  s.add(st.reg(29) == c.bv_val(uint64_t(0x7fff0008), 64));  // 8-byte aligned only
  CHECK(s.check() == z3::unsat);
  z3::solver s2(c);
  s2.add(entryAssumptions(st));
  s2.add(st.reg(29) == c.bv_val(uint64_t(0x000000007fff0010ull), 64));
  CHECK(s2.check() == z3::sat);
  z3::solver s3(c);
  s3.add(entryAssumptions(st));
  s3.add(st.reg(29) == c.bv_val(uint64_t(0x0000000080000010ull), 64));  // not sign-extended
  CHECK(s3.check() == z3::unsat);
}
