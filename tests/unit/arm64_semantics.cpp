// A64 semantics against hand-worked cases from the Arm ARM's pseudocode
// (DDI 0487: AddWithCarry, ConditionHolds, DecodeBitMasks, the BTI and SP
// alignment checks) and docs/model-arm64.md. Expected values are
// worked out from the architecture's text, not copied from our output.
#include <catch2/catch.hpp>

#include "encoder/IsaRegistry.h"
#include "encoder/arm64/Assembler.h"
#include "model/Executor.h"
#include "model/IsaModel.h"
#include "model/arm64/AbiModel.h"
#include "model/arm64/Concrete.h"

using namespace patchcheck;
using namespace patchcheck::arm64;

namespace {

Target arm64Target(const char* variant = "arm64") { return *targetNamed(variant); }

std::vector<uint32_t> words(const std::string& src, uint64_t base) {
  arm64::AssemblyOptions o;
  o.base = Value::constant(int64_t(base));
  o.allowUnpredictable = true;
  auto a = assemble(src, "t.s", o);
  if (auto* e = std::get_if<Diagnostics>(&a)) FAIL((*e)[0].str());
  std::vector<uint32_t> out;
  for (const AssembledUnit& u : std::get<Assembly>(a).units) out.push_back(uint32_t(u.bits));
  return out;
}

struct Entry {
  std::vector<std::pair<unsigned, uint64_t>> x;
  uint64_t sp = 0x8000;
  bool n = false, z = false, c = false, v = false;
  std::vector<ConcreteStart::Bytes> memory = {};
};

constexpr uint64_t kBase = 0x10000;

ConcreteRun run(z3::context& c, const std::string& src, const Entry& e, const char* variant = "arm64",
                std::vector<uint32_t> extra = {}) {
  ConcreteStart s;
  s.target = arm64Target(variant);
  s.base = kBase;
  s.words = words(src, kBase);
  s.words.insert(s.words.end(), extra.begin(), extra.end());
  for (auto [r, v] : e.x) s.x[r] = v;
  s.sp = e.sp;
  s.n = e.n, s.z = e.z, s.c = e.c, s.v = e.v;
  s.memory = e.memory;
  s.maxSteps = 64;
  return runConcrete(c, s);
}

bool hasFault(const ConcreteRun& r, FaultKind k) {
  for (const Fault& f : r.faults)
    if (f.kind == k) return true;
  return false;
}

uint64_t flagsOf(const ConcreteRun& r) {
  return (*r.reg(reg::n) << 3) | (*r.reg(reg::z) << 2) | (*r.reg(reg::c) << 1) | *r.reg(reg::v);
}

}  // namespace

TEST_CASE("a W write zeroes the top half of the X register", "[arm64_semantics]") {
  z3::context c;
  auto r = run(c, "add w0, w1, #1", {{{0, 0xdeadbeefcafef00dull}, {1, 0xffffffff7fffffffull}}});
  CHECK(*r.reg(0) == 0x80000000ull);  // (0x7fffffff + 1) mod 2^32, upper bits zero
  r = run(c, "mov w3, w4", {{{3, ~0ull}, {4, 0x1234567812345678ull}}});
  CHECK(*r.reg(3) == 0x12345678ull);
  r = run(c, "ldr w5, [x6]", {{{5, ~0ull}, {6, 0x9000}}, 0x8000, false, false, false, false,
                              {{0x9000, {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88}}}});
  CHECK(*r.reg(5) == 0x44332211ull);  // little-endian data, zero-extended
  r = run(c, "movk w7, #0xabcd, lsl #16", {{{7, 0xffffffff00001111ull}}});
  CHECK(*r.reg(7) == 0xabcd1111ull);
  CHECK(r.faults.empty());
}

TEST_CASE("register 31 is sp or the zero register as the encoding says", "[arm64_semantics]") {
  z3::context c;
  // add (immediate): Rn = 31 is sp.
  auto r = run(c, "add x0, sp, #16", {{}, 0x7ff0});
  CHECK(*r.reg(0) == 0x8000);
  // add (shifted register): Rn = 31 is xzr (this is `mov`-like: 0 + x1).
  r = run(c, ".inst 0x8b0103e0", {{{1, 5}}, 0x7ff0});  // add x0, xzr, x1
  CHECK(*r.reg(0) == 5);
  // adds with Rd = 31 (cmn) writes the zero register, never sp.
  r = run(c, "cmn x1, #1", {{{1, 7}}, 0x7ff0});
  CHECK(*r.reg(reg::sp) == 0x7ff0);
  // orr (immediate) may write sp; orr (register) with Rd = 31 is discarded.
  r = run(c, "orr sp, x1, #0x10", {{{1, 0x9000}}, 0x7ff0});
  CHECK(*r.reg(reg::sp) == 0x9010);
  r = run(c, ".inst 0xaa0103ff", {{{1, 0x9000}}, 0x7ff0});  // orr xzr, xzr, x1
  CHECK(*r.reg(reg::sp) == 0x7ff0);
  // str xzr stores zero; a load into xzr changes nothing.
  r = run(c, "str xzr, [x1]", {{{1, 0x9000}}, 0x8000, false, false, false, false, {{0x9000, {1, 2, 3, 4, 5, 6, 7, 8}}}});
  for (auto b : r.bytes(0x9000, 8)) CHECK(*b == 0);
  // mov to and from sp is add #0.
  r = run(c, "mov x2, sp\nmov sp, x3", {{{3, 0x6000}}, 0x7ff0});
  CHECK(*r.reg(2) == 0x7ff0);
  CHECK(*r.reg(reg::sp) == 0x6000);
}

TEST_CASE("ADDS and SUBS set NZCV as AddWithCarry says", "[arm64_semantics]") {
  z3::context c;
  struct Case {
    const char* src;
    uint64_t x1, x2;
    uint64_t result;
    unsigned nzcv;
  };
  const Case cases[] = {
      // 64-bit: unsigned carry out and signed overflow
      {"adds x0, x1, x2", 0xffffffffffffffffull, 1, 0, 0b0110},                     // Z, C
      {"adds x0, x1, x2", 0x7fffffffffffffffull, 1, 0x8000000000000000ull, 0b1001},  // N, V
      {"adds x0, x1, x2", 0x8000000000000000ull, 0x8000000000000000ull, 0, 0b0111},  // Z, C, V
      {"adds x0, x1, x2", 1, 2, 3, 0b0000},
      // subs: C is "no borrow"
      {"subs x0, x1, x2", 5, 5, 0, 0b0110},                                        // Z, C
      {"subs x0, x1, x2", 3, 5, 0xfffffffffffffffeull, 0b1000},                    // N, borrow
      {"subs x0, x1, x2", 0x8000000000000000ull, 1, 0x7fffffffffffffffull, 0b0011},  // C, V
      // 32-bit flags come from bit 31
      {"adds w0, w1, w2", 0x7fffffff, 1, 0x80000000, 0b1001},
      {"adds w0, w1, w2", 0xffffffff, 1, 0, 0b0110},
      {"subs w0, w1, w2", 0, 1, 0xffffffff, 0b1000},
      {"cmp w1, w2", 0x80000000, 1, 0, 0b0011},  // result to wzr: x0 keeps 0
  };
  for (const Case& k : cases) {
    INFO(k.src << " with " << k.x1 << ", " << k.x2);
    auto r = run(c, k.src, {{{1, k.x1}, {2, k.x2}}});
    CHECK(*r.reg(0) == k.result);
    CHECK(flagsOf(r) == k.nzcv);
  }
  // Immediate forms: subs x0, x1, #1 with x1 = 0 borrows.
  auto r = run(c, "subs x0, x1, #1", {{{1, 0}}});
  CHECK(*r.reg(0) == ~0ull);
  CHECK(flagsOf(r) == 0b1000);
  // ands sets N and Z, clears C and V.
  r = run(c, "ands x0, x1, x2", {{{1, 0xf0}, {2, 0x0f}}, 0x8000, true, false, true, true});
  CHECK(flagsOf(r) == 0b0100);
}

TEST_CASE("logical immediates decode as DecodeBitMasks says", "[arm64_semantics]") {
  z3::context c;
  auto r = run(c, "orr x0, xzr, #0x5555555555555555", {{}});
  CHECK(*r.reg(0) == 0x5555555555555555ull);
  r = run(c, "and x0, x1, #0xff00ff00ff00ff00", {{{1, 0x123456789abcdef0ull}}});
  CHECK(*r.reg(0) == 0x120056009a00de00ull);
  r = run(c, "eor w0, w1, #0x80000001", {{{1, 0xffffffffffffffffull}}});
  CHECK(*r.reg(0) == 0x7ffffffeull);
  r = run(c, "mov x0, #0x0003fffc00000000", {{}});  // a bitmask mov (orr)
  CHECK(*r.reg(0) == 0x0003fffc00000000ull);
  r = run(c, "tst x1, #0x8", {{{1, 0x7}}});
  CHECK(*r.reg(reg::z) == 1);
}

TEST_CASE("B.cond branches on every condition as ConditionHolds says", "[arm64_semantics]") {
  z3::context c;
  const char* names[] = {"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc",
                         "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"};
  for (unsigned flags = 0; flags < 16; ++flags) {
    bool n = flags & 8, z = flags & 4, cf = flags & 2, v = flags & 1;
    bool expected[16] = {z, !z, cf, !cf, n, !n, v, !v, cf && !z, !(cf && !z), n == v, n != v,
                         n == v && !z, !(n == v && !z), true, true};
    for (unsigned cond = 0; cond < 16; ++cond) {
      INFO("b." << names[cond] << " with NZCV " << flags);
      // taken: skips the mov; not taken: x0 = 1
      std::string src = std::string("b.") + names[cond] + " 1f\nmov x0, #1\n1: nop";
      auto r = run(c, src, {{{0, 0}}, 0x8000, n, z, cf, v});
      CHECK(*r.reg(0) == (expected[cond] ? 0u : 1u));
    }
  }
}

TEST_CASE("CSEL selects on every condition as ConditionHolds says", "[arm64_semantics]") {
  z3::context c;
  const char* names[] = {"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc",
                         "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"};
  for (unsigned flags = 0; flags < 16; ++flags) {
    bool n = flags & 8, z = flags & 4, cf = flags & 2, v = flags & 1;
    bool expected[16] = {z, !z, cf, !cf, n, !n, v, !v, cf && !z, !(cf && !z), n == v, n != v,
                         n == v && !z, !(n == v && !z), true, true};
    for (unsigned cond = 0; cond < 16; ++cond) {
      INFO("csel ... " << names[cond] << " with NZCV " << flags);
      auto r = run(c, std::string("csel x0, x1, x2, ") + names[cond], {{{1, 111}, {2, 222}}, 0x8000, n, z, cf, v});
      CHECK(*r.reg(0) == (expected[cond] ? 111u : 222u));
      CHECK(flagsOf(r) == flags);  // no row of the family sets flags
    }
  }
}

TEST_CASE("CSEL, CSINC, CSINV, CSNEG: Rn when the condition holds, else f(Rm)", "[arm64_semantics]") {
  z3::context c;
  struct Case {
    const char* src;
    uint64_t ifTrue, ifFalse;  // x0 with Z = 1 (eq holds) and Z = 0
  };
  const uint64_t x1 = 0x1111222233334444ull, x2 = 0x8000000000000005ull;
  const Case cases[] = {
      {"csel x0, x1, x2, eq", x1, x2},
      {"csinc x0, x1, x2, eq", x1, x2 + 1},
      {"csinv x0, x1, x2, eq", x1, ~x2},
      {"csneg x0, x1, x2, eq", x1, 0 - x2},
      // 32-bit: the low halves, and bits 63..32 of x0 zero either way
      {"csel w0, w1, w2, eq", 0x33334444, 0x00000005},
      {"csinc w0, w1, w2, eq", 0x33334444, 0x00000006},
      {"csinv w0, w1, w2, eq", 0x33334444, 0xfffffffa},
      {"csneg w0, w1, w2, eq", 0x33334444, 0xfffffffb},
      // the zero register as either source
      {"csinc x0, xzr, xzr, eq", 0, 1},
      {"csinv w0, wzr, wzr, eq", 0, 0xffffffff},
  };
  for (const Case& k : cases) {
    INFO(k.src);
    auto t = run(c, k.src, {{{0, ~0ull}, {1, x1}, {2, x2}}, 0x8000, false, true});
    CHECK(*t.reg(0) == k.ifTrue);
    auto f = run(c, k.src, {{{0, ~0ull}, {1, x1}, {2, x2}}, 0x8000, false, false});
    CHECK(*f.reg(0) == k.ifFalse);
    CHECK(t.faults.empty());
  }
  // 32-bit wrap-around: csinc of 0xffffffff is 0, not 0x100000000
  auto r = run(c, "csinc w0, w1, w2, ne", {{{2, 0x00000007ffffffffull}}, 0x8000, false, true});
  CHECK(*r.reg(0) == 0);
  // csneg of the most negative 32-bit value is itself
  r = run(c, "csneg w0, w1, w2, ne", {{{2, 0x80000000ull}}, 0x8000, false, true});
  CHECK(*r.reg(0) == 0x80000000ull);
  // Rd = 31 is the zero register: nothing changes, sp included
  r = run(c, ".inst 0x9a82003f", {{{1, 5}}, 0x7ff0, false, true});  // csel xzr, x1, x2, eq
  CHECK(*r.reg(reg::sp) == 0x7ff0);
}

TEST_CASE("CSET, CSETM, CINC, CINV, CNEG invert the condition they name", "[arm64_semantics]") {
  z3::context c;
  struct Case {
    const char* src;
    uint64_t ifCarry, ifNoCarry;  // x0 with C = 1 (cs holds) and C = 0
  };
  const uint64_t x1 = 0xfffffffffffffffeull;
  const Case cases[] = {
      {"cset x0, cs", 1, 0},
      {"cset w0, cc", 0, 1},
      {"csetm x0, cs", ~0ull, 0},
      {"csetm w0, cs", 0xffffffff, 0},         // bits 63..32 zero
      {"cinc x0, x1, cs", x1 + 1, x1},
      {"cinc w0, w1, cs", 0xffffffff, 0xfffffffe},
      {"cinv x0, x1, cs", 1, x1},
      {"cinv w0, w1, cc", 0xfffffffe, 0x00000001},
      {"cneg x0, x1, cs", 2, x1},
      {"cneg w0, w1, cs", 2, 0xfffffffe},
      {"cneg x0, xzr, cs", 0, 0},
  };
  for (const Case& k : cases) {
    INFO(k.src);
    auto t = run(c, k.src, {{{0, 0x5555}, {1, x1}}, 0x8000, false, false, true});
    CHECK(*t.reg(0) == k.ifCarry);
    auto f = run(c, k.src, {{{0, 0x5555}, {1, x1}}, 0x8000, false, false, false});
    CHECK(*f.reg(0) == k.ifNoCarry);
  }
  // With al (or nv) csinc is no cinc: it always selects Rn.
  auto r = run(c, "csinc x0, x1, x1, al", {{{1, 41}}});
  CHECK(*r.reg(0) == 41);
  r = run(c, "csneg x0, x1, x1, nv", {{{1, 41}}});
  CHECK(*r.reg(0) == 41);
}

TEST_CASE("ERET leaves the pass and synchronizes context", "[arm64_semantics]") {
  z3::context c;
  auto r = run(c, "eret\nmov x0, #1", {{}});
  CHECK(hasFault(r, FaultKind::Eret));
  CHECK(r.stop == "fault");
  CHECK(*r.reg(0) == 0);  // the mov after it never runs
  bool exceptionReturn = false, barrier = false;
  for (const SideEffect& e : r.state.effects) {
    exceptionReturn = exceptionReturn || e.kind == EffectKind::ExceptionReturn;
    barrier = barrier || e.kind == EffectKind::Barrier;
  }
  CHECK(exceptionReturn);
  CHECK(barrier);  // a context synchronization event, as isb
}

TEST_CASE("PC-relative forms: adr, adrp, literal loads, cbz, tbz, bl", "[arm64_semantics]") {
  z3::context c;
  auto r = run(c, "adr x0, .+0x20\nadrp x1, .+0x3000", {{}});
  CHECK(*r.reg(0) == kBase + 0x20);
  CHECK(*r.reg(1) == ((kBase + 4) & ~0xfffull) + 0x3000);
  // ldr (literal) reads little-endian instruction memory the run gives.
  r = run(c, "ldr w2, .+8\nb .+8\n", {{}, 0x8000, false, false, false, false,
                                      {{kBase + 8, {0x78, 0x56, 0x34, 0x12}}}});
  CHECK(*r.reg(2) == 0x12345678);
  r = run(c, "cbz w3, 1f\nmov x0, #1\n1: cbnz x4, 2f\nmov x1, #1\n2: nop", {{{3, 0x100000000ull}, {4, 0}}});
  CHECK(*r.reg(0) == 0);  // w3 is zero though x3 is not
  CHECK(*r.reg(1) == 1);
  r = run(c, "tbnz x5, #40, 1f\nmov x0, #1\n1: tbz w5, #3, 2f\nmov x1, #1\n2: nop", {{{5, 1ull << 40}}});
  CHECK(*r.reg(0) == 0);
  CHECK(*r.reg(1) == 0);
  r = run(c, "bl 1f\nmov x0, #1\n1: nop", {{}});
  CHECK(*r.reg(30) == kBase + 4);
  CHECK(*r.reg(0) == 0);
}

TEST_CASE("BR, BLR and RET take any register; misaligned targets fault", "[arm64_semantics]") {
  z3::context c;
  auto r = run(c, "blr x7\nmov x0, #1\nmov x1, #2", {{{7, kBase + 8}}});
  CHECK(*r.reg(30) == kBase + 4);
  CHECK(*r.reg(0) == 0);
  CHECK(*r.reg(1) == 2);
  r = run(c, "ret x9\nmov x0, #1", {{{9, kBase + 8}, {0, 0}}});
  CHECK(*r.reg(0) == 0);
  CHECK(r.pc == kBase + 8);
  r = run(c, "blr x30", {{{30, kBase + 0x102}}});
  CHECK(hasFault(r, FaultKind::AddressError));
}

TEST_CASE("with BTI an indirect branch must land on a compatible landing pad", "[arm64_semantics]") {
  z3::context c;
  // br x16 to a bti c: fine; br x9 to bti c: Branch Target exception.
  std::string pad = "br x9\nnop\nbti c\nmov x0, #1";
  auto r = run(c, pad, {{{9, kBase + 8}}}, "arm64-bti");
  CHECK(hasFault(r, FaultKind::BranchTarget));
  r = run(c, "br x16\nnop\nbti c\nmov x0, #1", {{{16, kBase + 8}}}, "arm64-bti");
  CHECK(r.faults.empty());
  CHECK(*r.reg(0) == 1);
  // blr to bti j faults, to bti jc does not; to paciasp is fine (BTI c-like).
  r = run(c, "blr x9\nnop\nbti j", {{{9, kBase + 8}}}, "arm64-bti");
  CHECK(hasFault(r, FaultKind::BranchTarget));
  r = run(c, "blr x9\nnop\nbti jc", {{{9, kBase + 8}}}, "arm64-bti");
  CHECK(r.faults.empty());
  r = run(c, "blr x9\nnop\npaciasp", {{{9, kBase + 8}}}, "arm64-bti");
  CHECK(r.faults.empty());
  // br x9 (BTYPE 11) onto paciasp faults: Linux sets SCTLR_EL1.BT1.
  r = run(c, "br x9\nnop\npaciasp", {{{9, kBase + 8}}}, "arm64-bti");
  CHECK(hasFault(r, FaultKind::BranchTarget));
  // br onto a plain instruction faults; a direct branch there does not.
  r = run(c, "br x16\nnop\nmov x0, #1", {{{16, kBase + 8}}}, "arm64-bti");
  CHECK(hasFault(r, FaultKind::BranchTarget));
  r = run(c, "b .+8\nnop\nmov x0, #1", {{}}, "arm64-bti");
  CHECK(r.faults.empty());
  // Without BTI enforced (variant arm64) nothing is checked.
  r = run(c, pad, {{{9, kBase + 8}}});
  CHECK(r.faults.empty());
  CHECK(*r.reg(0) == 1);
}

TEST_CASE("a load or store through a misaligned sp faults", "[arm64_semantics]") {
  z3::context c;
  auto r = run(c, "ldr x0, [sp, #16]", {{}, 0x7ff8});
  CHECK(hasFault(r, FaultKind::AddressError));
  r = run(c, "stp x29, x30, [sp, #-16]!", {{}, 0x7ff4});
  CHECK(hasFault(r, FaultKind::AddressError));
  // aligned sp: fine, even for an access that is itself not 16-aligned
  r = run(c, "ldr w0, [sp, #4]", {{}, 0x7ff0});
  CHECK(r.faults.empty());
  // a misaligned address through another base register is allowed (SCTLR_EL1.A = 0)
  r = run(c, "ldr x0, [x1]", {{{1, 0x9003}}, 0x7ff8});
  CHECK(r.faults.empty());
}

TEST_CASE("BRK, UDF, SVC and words without a row fault", "[arm64_semantics]") {
  z3::context c;
  CHECK(hasFault(run(c, "brk #0", {{}}), FaultKind::Break));
  CHECK(hasFault(run(c, "udf #1", {{}}), FaultKind::ReservedInstruction));
  CHECK(hasFault(run(c, "svc #0", {{}}), FaultKind::Syscall));
  CHECK(hasFault(run(c, ".inst 0xffffffff", {{}}), FaultKind::ReservedInstruction));
  // The run stops at the fault: the mov after brk never runs.
  auto r = run(c, "brk #0x800\nmov x0, #1", {{}});
  CHECK(*r.reg(0) == 0);
  CHECK(r.stop == "fault");
}

TEST_CASE("loads and stores: sizes, writeback, register offsets, pairs", "[arm64_semantics]") {
  z3::context c;
  std::vector<uint8_t> bytes = {0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
                                0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f};
  Entry e{{{1, 0x9000}, {2, 2}}, 0x8000, false, false, false, false, {{0x9000, bytes}}};
  auto r = run(c, "ldrsw x0, [x1, #4]", e);
  CHECK(*r.reg(0) == 0xffffffff87868584ull);
  r = run(c, "ldrh w0, [x1, x2, lsl #1]", e);
  CHECK(*r.reg(0) == 0x8584);
  r = run(c, "ldrb w0, [x1, #15]!", e);
  CHECK(*r.reg(0) == 0x8f);
  CHECK(*r.reg(1) == 0x900f);
  r = run(c, "ldr x0, [x1], #8", e);
  CHECK(*r.reg(0) == 0x8786858483828180ull);
  CHECK(*r.reg(1) == 0x9008);
  r = run(c, "ldp w3, w4, [x1, #8]", e);
  CHECK(*r.reg(3) == 0x8b8a8988);
  CHECK(*r.reg(4) == 0x8f8e8d8c);
  r = run(c, "strh w2, [x1, #-2]", e);
  auto b = r.bytes(0x8ffe, 2);
  CHECK(*b[0] == 2);
  CHECK(*b[1] == 0);
  // writeback to the register the access transfers is CONSTRAINED UNPREDICTABLE
  CHECK(hasFault(run(c, "ldr x1, [x1, #8]!", e), FaultKind::Unpredictable));
  CHECK(hasFault(run(c, "ldp x3, x3, [x1]", e), FaultKind::Unpredictable));
}

TEST_CASE("PACIASP then AUTIASP with the same sp is the identity, nothing else is known",
          "[arm64_semantics]") {
  z3::context c;
  Target t = arm64Target();
  MachineState s = MachineState::symbolic(c, t, "in.");
  Cpu cpu(s, c.bv_val(kBase, 64));
  for (uint32_t w : words("paciasp\nautiasp", kBase)) cpu.step(fetchWord(c, w));
  z3::solver sv(c);
  sv.add(cpu.state.reg(reg::lr) != s.reg(reg::lr));
  CHECK(sv.check() == z3::unsat);
  // autiasp alone (or after paciasp at another sp) is not the identity
  Cpu alone(s, c.bv_val(kBase, 64));
  alone.step(fetchWord(c, words("autiasp", kBase)[0]));
  z3::solver s2(c);
  s2.add(alone.state.reg(reg::lr) != s.reg(reg::lr));
  CHECK(s2.check() == z3::sat);
  Cpu moved(s, c.bv_val(kBase, 64));
  for (uint32_t w : words("paciasp\nsub sp, sp, #16\nautiasp", kBase)) moved.step(fetchWord(c, w));
  z3::solver s3(c);
  s3.add(moved.state.reg(reg::lr) != s.reg(reg::lr));
  CHECK(s3.check() == z3::sat);
}

TEST_CASE("a conditional branch on an unknown value is left to the executor", "[arm64_semantics]") {
  z3::context c;
  Target t = arm64Target();
  MachineState s = MachineState::symbolic(c, t, "in.");
  Cpu cpu(s, c.bv_val(kBase, 64));
  cpu.step(fetchWord(c, words("cbz x0, .+16", kBase)[0]));
  REQUIRE(cpu.undecided());
  CHECK(!cpu.inDelaySlot());
  Cpu other = cpu;
  cpu.settleBranch(true);
  other.settleBranch(false);
  CHECK(*concreteValue(cpu.pc) == kBase + 16);
  CHECK(*concreteValue(other.pc) == kBase + 4);
  CHECK(!cpu.undecided());
}

TEST_CASE("AAPCS64 and the kernel's conventions", "[arm64_semantics]") {
  const AbiModel& abi = modelOf(arm64Target()).abi(arm64Target());
  for (unsigned r = 0; r <= 7; ++r) CHECK(abi.isLive(r));
  CHECK(abi.isLive(8));    // indirect result
  CHECK(abi.isLive(18));   // platform register / shadow call stack
  CHECK(abi.isLive(30));   // link
  CHECK(abi.isLive(reg::sp));
  for (unsigned r = 9; r <= 17; ++r) CHECK_FALSE(abi.isLive(r));  // temporaries, IP0/IP1
  for (unsigned r = 19; r <= 29; ++r) CHECK(abi.preservedByCall(r));
  CHECK(abi.preservedByCall(18));
  CHECK_FALSE(abi.preservedByCall(16));
  CHECK_FALSE(abi.preservedByCall(30));
  CHECK(abi.stackAlign == 16);
  // An external call keeps x19 and sp, and may change x0, x16 and memory below sp.
  z3::context c;
  Target t = arm64Target();
  MachineState s = MachineState::symbolic(c, t, "in.");
  MachineState after = s;
  modelOf(t).callExternal(after, "f", 1);
  z3::solver sv(c);
  sv.add(modelOf(t).entryAssumptions(s));
  sv.add(after.reg(19) != s.reg(19) || after.reg(reg::sp) != s.reg(reg::sp) ||
         after.load(s.reg(reg::sp), 8) != s.load(s.reg(reg::sp), 8));
  CHECK(sv.check() == z3::unsat);
  for (unsigned r : {0u, 16u, 30u}) {
    z3::solver d(c);
    d.add(after.reg(r) != s.reg(r));
    CHECK(d.check() == z3::sat);
  }
  // Entry assumptions: sp 16-byte aligned.
  z3::solver e(c);
  e.add(modelOf(t).entryAssumptions(s));
  e.add((s.reg(reg::sp) & c.bv_val(15, 64)) != c.bv_val(0, 64));
  CHECK(e.check() == z3::unsat);
}

TEST_CASE("an exception may overwrite the frame below sp, never a register", "[arm64_semantics]") {
  z3::context c;
  Target t = arm64Target();
  MachineState s = MachineState::symbolic(c, t, "in.");
  Cpu cpu(s, c.bv_val(kBase, 64));
  for (uint32_t w : words("stp x0, x1, [sp, #-16]\nstr x2, [sp]", kBase)) cpu.step(fetchWord(c, w));
  MachineState before = cpu.state;
  modelOf(t).exceptionBoundary(cpu.state);
  for (unsigned r = 0; r < reg::count; ++r) CHECK(z3::eq(cpu.state.reg(r), before.reg(r)));
  z3::expr sp = s.reg(reg::sp);
  z3::solver below(c);
  below.add(cpu.state.load(sp - c.bv_val(16, 64), 8) != s.reg(0));
  CHECK(below.check() == z3::sat);  // the stored x0 below sp may be gone
  CHECK(modelOf(t).dependsOnException(cpu.state.load(sp - c.bv_val(16, 64), 8)));
  z3::solver at(c);
  at.add(modelOf(t).entryAssumptions(s));
  at.add(cpu.state.load(sp, 8) != s.reg(2));
  CHECK(at.check() == z3::unsat);  // at and above sp it stays
}
