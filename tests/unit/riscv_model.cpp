// RISC-V semantics against cases worked out from the Unprivileged ISA's
// text (20240411): x0, the *W instructions' sign extension, 6- and 5-bit
// shift amounts, M's division special cases, jalr's cleared bit 0, the
// misaligned-target rule with and without C, the exception-generating
// rows and the psABI facts. Instructions are encoded here by hand from the
// manual's formats (not by our encoder), so the expected values do not
// come from the code under test.
#include <catch2/catch.hpp>

#include <initializer_list>

#include "encoder/IsaRegistry.h"
#include "model/IsaModel.h"
#include "model/riscv/AbiModel.h"
#include "model/riscv/Concrete.h"
#include "model/riscv/ControlFlow.h"
#include "model/riscv/ExceptionEntry.h"
#include "model/riscv/RegisterFile.h"

using namespace patchcheck;
using namespace patchcheck::riscv;

namespace {

// The first riscv variant of that width with (or without) the C extension.
Target riscvTarget(unsigned bits, bool rvc) {
  for (const IsaPlugin* p : isas()) {
    if (p->family() != "riscv") continue;
    for (std::string_view v : p->variants()) {
      auto t = targetNamed(v);
      if (t && t->registerBits() == bits && featuresOf(*t).compressed == rvc) return *t;
    }
  }
  FAIL("no riscv variant with " << bits << "-bit registers" << (rvc ? " and C" : " without C"));
  return Target{};
}

// The manual's formats (Unprivileged ISA, "Base Instruction Formats").
constexpr uint32_t R(uint32_t op, unsigned f3, unsigned f7, unsigned rd, unsigned rs1, unsigned rs2) {
  return op | rd << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | f7 << 25;
}
constexpr uint32_t I(uint32_t op, unsigned f3, unsigned rd, unsigned rs1, int32_t imm) {
  return op | rd << 7 | f3 << 12 | rs1 << 15 | (uint32_t(imm) & 0xfff) << 20;
}
constexpr uint32_t B(unsigned f3, unsigned rs1, unsigned rs2, int32_t off) {
  uint32_t o = uint32_t(off);
  return 0x63 | ((o >> 11) & 1) << 7 | ((o >> 1) & 15) << 8 | f3 << 12 | rs1 << 15 | rs2 << 20 |
         ((o >> 5) & 63) << 25 | ((o >> 12) & 1) << 31;
}
constexpr uint32_t addi(unsigned rd, unsigned rs1, int32_t imm) { return I(0x13, 0, rd, rs1, imm); }
constexpr uint32_t jalr(unsigned rd, unsigned rs1, int32_t imm) { return I(0x67, 0, rd, rs1, imm); }

constexpr unsigned zero = 0, ra = 1, sp = 2, a0 = 10, a1 = 11, a2 = 12;
constexpr uint64_t kBase = 0x10000;

std::vector<uint8_t> bytesOf(std::initializer_list<uint32_t> insns) {
  std::vector<uint8_t> out;
  for (uint32_t w : insns) {
    unsigned n = (w & 3) == 3 ? 4 : 2;
    for (unsigned i = 0; i < n; ++i) out.push_back(uint8_t(w >> (8 * i)));
  }
  return out;
}

ConcreteRun runOn(z3::context& c, const Target& t, std::initializer_list<uint32_t> insns,
                  std::initializer_list<std::pair<unsigned, uint64_t>> x) {
  ConcreteStart s;
  s.target = t;
  s.base = kBase;
  s.code = bytesOf(insns);
  s.memory = {{kBase, s.code}};
  for (auto [r, v] : x) s.x[r] = v;
  s.x[sp] = 0x80000;
  return runConcrete(c, s);
}

uint64_t regAfter(const Target& t, std::initializer_list<uint32_t> insns,
                  std::initializer_list<std::pair<unsigned, uint64_t>> x, unsigned r) {
  z3::context c;
  ConcreteRun run = runOn(c, t, insns, x);
  INFO(run.stop);
  REQUIRE(run.stop == "left the program");
  REQUIRE(run.reg(r));
  return *run.reg(r);
}

const Target kRv64 = riscvTarget(64, true);

}  // namespace

TEST_CASE("writes to x0 are dropped and x0 reads as zero", "[riscv_model]") {
  z3::context c;
  ConcreteRun run = runOn(c, kRv64, {addi(zero, zero, 5), R(0x33, 0, 0, zero, a0, a1), addi(a2, zero, 7)},
                          {{a0, 3}, {a1, 4}});
  REQUIRE(run.stop == "left the program");
  CHECK(*run.reg(zero) == 0);
  CHECK(*run.reg(a2) == 7);  // addi a2, x0, 7 read x0 as 0 after both writes
}

TEST_CASE("the *W instructions sign-extend their 32-bit results", "[riscv_model]") {
  // addiw a0, a0, 0 (sext.w) of 0x80000000
  CHECK(regAfter(kRv64, {I(0x1b, 0, a0, a0, 0)}, {{a0, 0x80000000}}, a0) == 0xffffffff80000000ull);
  // addw: 0x7fffffff + 1 overflows into bit 31
  CHECK(regAfter(kRv64, {R(0x3b, 0, 0, a0, a0, a1)}, {{a0, 0x7fffffff}, {a1, 1}}, a0) == 0xffffffff80000000ull);
  // subw ignores the upper halves: 0x1_00000000 - 1 = -1 on 32 bits
  CHECK(regAfter(kRv64, {R(0x3b, 0, 0x20, a0, a0, a1)}, {{a0, 0x100000000ull}, {a1, 1}}, a0) == ~0ull);
  // srliw by 0 of 0x00000000_80000000 gives bit 31 set, sign-extended
  CHECK(regAfter(kRv64, {R(0x1b, 5, 0, a0, a0, 0)}, {{a0, 0x80000000}}, a0) == 0xffffffff80000000ull);
  // srliw by 1 shifts a zero into bit 31: positive
  CHECK(regAfter(kRv64, {R(0x1b, 5, 0, a0, a0, 1)}, {{a0, 0xffffffff80000000ull}}, a0) == 0x40000000);
  // sraiw by 4 of 0x80000000: the sign fills
  CHECK(regAfter(kRv64, {R(0x1b, 5, 0x20, a0, a0, 4)}, {{a0, 0x80000000}}, a0) == 0xfffffffff8000000ull);
  // lw sign-extends, lwu does not
  z3::context c;
  ConcreteStart s;
  s.target = kRv64;
  s.base = kBase;
  s.code = bytesOf({I(0x03, 2, a0, a2, 0), I(0x03, 6, a1, a2, 0)});
  s.memory = {{kBase, s.code}, {0x20000, {0x00, 0x00, 0x00, 0x80}}};
  s.x[a2] = 0x20000;
  ConcreteRun run = runConcrete(c, s);
  REQUIRE(run.stop == "left the program");
  CHECK(*run.reg(a0) == 0xffffffff80000000ull);
  CHECK(*run.reg(a1) == 0x80000000ull);
}

TEST_CASE("shift amounts are the low 6 bits on RV64, 5 bits for *W and on RV32", "[riscv_model]") {
  // sll a0, a0, a1 with a1 = 0x41: shifts by 1 (RV64: rs2[5:0])
  CHECK(regAfter(kRv64, {R(0x33, 1, 0, a0, a0, a1)}, {{a0, 1}, {a1, 0x41}}, a0) == 2);
  // ... and by 33 with a1 = 0x21
  CHECK(regAfter(kRv64, {R(0x33, 1, 0, a0, a0, a1)}, {{a0, 1}, {a1, 0x21}}, a0) == 0x200000000ull);
  // sllw with a1 = 0x21: rs2[4:0] = 1
  CHECK(regAfter(kRv64, {R(0x3b, 1, 0, a0, a0, a1)}, {{a0, 1}, {a1, 0x21}}, a0) == 2);
  // slli by 63 (shamt[5] = 1 in bit 25)
  CHECK(regAfter(kRv64, {I(0x13, 1, a0, a0, 63)}, {{a0, 1}}, a0) == 0x8000000000000000ull);
  // srai by 63 keeps the sign (imm[11:5] = 0100000 plus shamt[5])
  CHECK(regAfter(kRv64, {I(0x13, 5, a0, a0, 0x400 | 63)}, {{a0, 0x8000000000000000ull}}, a0) == ~0ull);
  Target rv32 = riscvTarget(32, true);
  // RV32 sll with a1 = 33: rs2[4:0] = 1
  CHECK(regAfter(rv32, {R(0x33, 1, 0, a0, a0, a1)}, {{a0, 1}, {a1, 33}}, a0) == 2);
  // RV32: slli with shamt[5] set is no instruction (reserved): illegal
  z3::context c;
  ConcreteRun run = runOn(c, rv32, {I(0x13, 1, a0, a0, 32)}, {});
  CHECK(run.stop == "fault");
  REQUIRE(run.faults.size() == 1);
  CHECK(run.faults[0].kind == FaultKind::ReservedInstruction);
}

TEST_CASE("division by zero and the signed overflow give the manual's results", "[riscv_model]") {
  const uint64_t min = 0x8000000000000000ull;
  auto div = [](unsigned f3) { return R(0x33, f3, 1, a0, a0, a1); };
  auto divw = [](unsigned f3) { return R(0x3b, f3, 1, a0, a0, a1); };
  // x / 0: all ones; x % 0: x (M, "Division Operations")
  CHECK(regAfter(kRv64, {div(4)}, {{a0, 7}, {a1, 0}}, a0) == ~0ull);        // div
  CHECK(regAfter(kRv64, {div(4)}, {{a0, uint64_t(-7)}, {a1, 0}}, a0) == ~0ull);  // div of a negative: still -1
  CHECK(regAfter(kRv64, {div(5)}, {{a0, 7}, {a1, 0}}, a0) == ~0ull);        // divu
  CHECK(regAfter(kRv64, {div(6)}, {{a0, uint64_t(-7)}, {a1, 0}}, a0) == uint64_t(-7));  // rem
  CHECK(regAfter(kRv64, {div(7)}, {{a0, 7}, {a1, 0}}, a0) == 7);            // remu
  // MIN / -1 = MIN, MIN % -1 = 0
  CHECK(regAfter(kRv64, {div(4)}, {{a0, min}, {a1, ~0ull}}, a0) == min);
  CHECK(regAfter(kRv64, {div(6)}, {{a0, min}, {a1, ~0ull}}, a0) == 0);
  // rem takes the dividend's sign: -7 % 2 = -1
  CHECK(regAfter(kRv64, {div(6)}, {{a0, uint64_t(-7)}, {a1, 2}}, a0) == uint64_t(-1));
  // the W forms on 32 bits, sign-extended
  CHECK(regAfter(kRv64, {divw(4)}, {{a0, 0x80000000}, {a1, 0xffffffff}}, a0) == 0xffffffff80000000ull);
  CHECK(regAfter(kRv64, {divw(6)}, {{a0, 0x80000000}, {a1, 0xffffffff}}, a0) == 0);
  CHECK(regAfter(kRv64, {divw(5)}, {{a0, 5}, {a1, 0x100000000ull}}, a0) == ~0ull);  // divuw by a zero low word
  CHECK(regAfter(kRv64, {divw(7)}, {{a0, 0x80000005}, {a1, 0}}, a0) == 0xffffffff80000005ull);  // remuw: sext
  // mulh, mulhsu, mulhu of -1 and 2
  CHECK(regAfter(kRv64, {R(0x33, 1, 1, a0, a0, a1)}, {{a0, ~0ull}, {a1, 2}}, a0) == ~0ull);
  CHECK(regAfter(kRv64, {R(0x33, 2, 1, a0, a0, a1)}, {{a0, ~0ull}, {a1, 2}}, a0) == ~0ull);
  CHECK(regAfter(kRv64, {R(0x33, 3, 1, a0, a0, a1)}, {{a0, ~0ull}, {a1, 2}}, a0) == 1);
}

TEST_CASE("jalr clears bit 0 of its target and reads rs1 before writing rd", "[riscv_model]") {
  z3::context c;
  // jalr a0, 1(a0) with a0 = base + 8: the sum base + 9 loses bit 0
  ConcreteRun run = runOn(c, kRv64, {jalr(a0, a0, 1), addi(a1, a1, 1), addi(a2, a2, 1)}, {{a0, kBase + 8}});
  REQUIRE(run.stop == "left the program");
  CHECK(*run.reg(a0) == kBase + 4);  // the link
  CHECK(*run.reg(a1) == 0);          // skipped
  CHECK(*run.reg(a2) == 1);          // landed on base + 8: (base + 9) & ~1
}

TEST_CASE("a jump to a 2-byte-aligned target faults without C only", "[riscv_model]") {
  // jalr zero, 0(a0) to base + 6: with C the c.li a2, 1 there; without C an
  // instruction-address-misaligned exception on the jalr itself
  for (bool rvc : {false, true}) {
    z3::context c;
    Target t = riscvTarget(64, rvc);
    ConcreteRun run = runOn(c, t, {jalr(zero, a0, 0), 0x4585, 0x4605}, {{a0, kBase + 6}});
    INFO(t.str());
    if (rvc) {
      REQUIRE(run.stop == "left the program");
      CHECK(*run.reg(a1) == 0);
      CHECK(*run.reg(a2) == 1);
    } else {
      CHECK(run.stop == "fault");
      REQUIRE(run.faults.size() == 1);
      CHECK(run.faults[0].kind == FaultKind::AddressError);
      CHECK(run.pc == kBase);
    }
  }
  // A conditional branch to a misaligned target faults only when taken
  z3::context c;
  Target g = riscvTarget(64, false);
  ConcreteRun notTaken = runOn(c, g, {B(0, a0, a1, 6), addi(a2, a2, 1)}, {{a0, 1}, {a1, 2}});
  CHECK(notTaken.stop == "left the program");
  ConcreteRun taken = runOn(c, g, {B(0, a0, a1, 6), addi(a2, a2, 1)}, {{a0, 1}, {a1, 1}});
  CHECK(taken.stop == "fault");
}

TEST_CASE("ebreak, ecall, illegal words and compressed words without C fault", "[riscv_model]") {
  struct Case {
    uint32_t insn;
    bool rvc;
    FaultKind kind;
  };
  for (Case k : {Case{0x00100073, true, FaultKind::Break}, Case{0x9002, true, FaultKind::Break},  // ebreak, c.ebreak
                 Case{0x00000073, true, FaultKind::Syscall},                                      // ecall
                 Case{0x0000, true, FaultKind::ReservedInstruction},                              // c.unimp
                 Case{0xc0001073, true, FaultKind::ReservedInstruction},  // unimp: csrw cycle (read-only)
                 Case{0x4505, false, FaultKind::ReservedInstruction},     // c.li a0, 1 without C
                 Case{0x30200073, true, FaultKind::ReservedInstruction}}) {  // mret in S-mode
    z3::context c;
    ConcreteRun run = runOn(c, riscvTarget(64, k.rvc), {k.insn}, {});
    INFO(std::hex << k.insn);
    CHECK(run.stop == "fault");
    REQUIRE(run.faults.size() == 1);
    CHECK(run.faults[0].kind == k.kind);
  }
}

TEST_CASE("F and D instructions and the fcsr CSRs fault: kernel code runs with sstatus.FS Off", "[riscv_model]") {
  // arch/riscv/kernel/entry.S clears SR_FS on every trap entry; with FS Off
  // an F/D instruction or an fflags/frm/fcsr access is an illegal
  // instruction (Privileged ISA, "Extension Context Status").
  constexpr uint32_t faddD = R(0x53, 7, 0x01, a0, a1, a2);  // fadd.d fa0, fa1, fa2
  constexpr uint32_t fld = I(0x07, 3, a0, sp, 8);            // fld fa0, 8(sp)
  constexpr uint32_t cFldsp = 0x2522;                         // c.fldsp fa0, 8(sp)
  constexpr uint32_t frflags = I(0x73, 2, a0, zero, 1);       // csrrs a0, fflags, zero
  constexpr uint32_t fsrm = I(0x73, 1, zero, a1, 2);          // csrrw zero, frm, a1
  for (const char* variant : {"rv64imafdc", "rv64gc", "rv32imafd"})
    for (uint32_t insn : {faddD, fld, cFldsp, frflags, fsrm}) {
      Target t = *targetNamed(variant);
      if (insn == cFldsp && !featuresOf(t).compressed) continue;
      z3::context c;
      ConcreteRun run = runOn(c, t, {insn, addi(a0, zero, 1)}, {});
      INFO(variant << " " << std::hex << insn);
      CHECK(run.stop == "fault");
      REQUIRE(run.faults.size() == 1);
      CHECK(run.faults[0].kind == FaultKind::ReservedInstruction);
      CHECK(run.faults[0].detail.find("sstatus.FS Off") != std::string::npos);
    }
  // Without F and D the encodings are no instruction at all; the CSRs fault as above.
  z3::context c;
  ConcreteRun run = runOn(c, kRv64, {faddD}, {});
  REQUIRE(run.faults.size() == 1);
  CHECK(run.faults[0].detail.find("no instruction of this target") != std::string::npos);
  ConcreteRun csr = runOn(c, kRv64, {frflags}, {});
  REQUIRE(csr.faults.size() == 1);
  CHECK(csr.faults[0].detail.find("sstatus.FS Off") != std::string::npos);
}

TEST_CASE("with sstatus.FS set by the code, F and D run: moves, NaN boxing, fclass, compares, min/max", "[riscv_model]") {
  // lui t0, 0x2; csrs sstatus, t0 (SR_FS_INITIAL, bit 13), then the case.
  constexpr unsigned t0 = 5, fa0 = 10, fa1 = 11, fa2 = 12;
  const uint32_t fsOn[] = {0x000022b7, I(0x73, 2, zero, t0, 0x100)};
  const Target t = *targetNamed("rv64gc");
  auto run = [&](std::initializer_list<uint32_t> body, std::initializer_list<std::pair<unsigned, uint64_t>> x,
                 unsigned r) {
    std::vector<uint32_t> all(std::begin(fsOn), std::end(fsOn));
    all.insert(all.end(), body.begin(), body.end());
    ConcreteStart s;
    s.target = t;
    s.base = kBase;
    for (uint32_t w : all)
      for (unsigned i = 0; i < 4; ++i) s.code.push_back(uint8_t(w >> (8 * i)));
    s.memory = {{kBase, s.code}};
    for (auto [k, v] : x) s.x[k] = v;
    s.x[sp] = 0x80000;
    z3::context c;
    ConcreteRun out = runConcrete(c, s);
    INFO(out.stop);
    REQUIRE(out.stop == "left the program");
    REQUIRE(out.reg(r));
    return *out.reg(r);
  };
  // The manual's formats: OP-FP is 0x53, funct7 = funct5 << 2 | fmt (S 0, D 1).
  auto fp = [](unsigned f5, unsigned fmt, unsigned f3, unsigned rd, unsigned rs1, unsigned rs2) {
    return R(0x53, f3, f5 << 2 | fmt, rd, rs1, rs2);
  };
  const uint32_t fmvDX = fp(0x1e, 1, 0, fa0, a1, 0), fmvXD = fp(0x1c, 1, 0, a0, fa0, 0);
  CHECK(run({fmvDX, fmvXD}, {{a1, 0x123456789abcdef0}}, a0) == 0x123456789abcdef0);
  // fmv.w.x boxes: the upper 32 bits become ones (D, "NaN Boxing of Narrower Values").
  CHECK(run({fp(0x1e, 0, 0, fa0, a1, 0), fmvXD}, {{a1, 0x1111111180000001}}, a0) == 0xffffffff80000001);
  // fmv.s (fsgnj.s) of an unboxed register reads the canonical NaN 0x7fc00000.
  CHECK(run({fp(0x1e, 1, 0, fa1, a1, 0), fp(0x04, 0, 0, fa0, fa1, fa1), fmvXD}, {{a1, 0x12345678}}, a0) ==
        0xffffffff7fc00000);
  // fsgnjn.d: -x; fsgnjx.d of -1.0 and -2.0: +1.0.
  CHECK(run({fp(0x1e, 1, 0, fa1, a1, 0), fp(0x04, 1, 1, fa0, fa1, fa1), fmvXD}, {{a1, 0x3ff0000000000000}}, a0) ==
        0xbff0000000000000);
  CHECK(run({fp(0x1e, 1, 0, fa1, a1, 0), fp(0x1e, 1, 0, fa2, a2, 0), fp(0x04, 1, 2, fa0, fa1, fa2), fmvXD},
            {{a1, 0xbff0000000000000}, {a2, 0xc000000000000000}}, a0) == 0x3ff0000000000000);
  // fclass.d: -0 is bit 3, +inf bit 7, a signaling NaN bit 8, a subnormal bit 5;
  // fclass.s of an unboxed register: the canonical (quiet) NaN, bit 9.
  const uint32_t fclassD = fp(0x1c, 1, 1, a0, fa1, 0), toFa1 = fp(0x1e, 1, 0, fa1, a1, 0);
  CHECK(run({toFa1, fclassD}, {{a1, 0x8000000000000000}}, a0) == 1u << 3);
  CHECK(run({toFa1, fclassD}, {{a1, 0x7ff0000000000000}}, a0) == 1u << 7);
  CHECK(run({toFa1, fclassD}, {{a1, 0x7ff0000000000001}}, a0) == 1u << 8);
  CHECK(run({toFa1, fclassD}, {{a1, 0x0000000000000001}}, a0) == 1u << 5);
  CHECK(run({toFa1, fp(0x1c, 0, 1, a0, fa1, 0)}, {{a1, 1}}, a0) == 1u << 9);
  // flt.d with a quiet NaN: 0, and NV (fflags bit 4) set; frflags a2.
  const uint32_t toFa2 = fp(0x1e, 1, 0, fa2, a2, 0), frflags = I(0x73, 2, a2, zero, 1);
  CHECK(run({toFa1, toFa2, fp(0x14, 1, 1, a0, fa1, fa2), frflags}, {{a1, 0x7ff8000000000000}, {a2, 0}}, a2) == 0x10);
  // feq.d of a quiet NaN is quiet: no flag; of -0 and +0: equal.
  CHECK(run({toFa1, toFa2, fp(0x14, 1, 2, a0, fa1, fa2), frflags}, {{a1, 0x7ff8000000000000}, {a2, 0}}, a2) == 0);
  CHECK(run({toFa1, toFa2, fp(0x14, 1, 2, a0, fa1, fa2)}, {{a1, 0x8000000000000000}, {a2, 0}}, a0) == 1);
  // fmin.d(-0, +0) = -0; fmax.d(qNaN, 1.0) = 1.0; fmin.d(NaN, NaN) = the canonical NaN.
  CHECK(run({toFa1, toFa2, fp(0x05, 1, 0, fa0, fa1, fa2), fmvXD}, {{a1, 0}, {a2, 0x8000000000000000}}, a0) ==
        0x8000000000000000);
  CHECK(run({toFa1, toFa2, fp(0x05, 1, 1, fa0, fa1, fa2), fmvXD}, {{a1, 0x7ff8000000000000}, {a2, 0x3ff0000000000000}},
            a0) == 0x3ff0000000000000);
  CHECK(run({toFa1, toFa2, fp(0x05, 1, 0, fa0, fa1, fa2), fmvXD}, {{a1, 0x7ff0000000000001}, {a2, 0xfff0000000000002}},
            a0) == 0x7ff8000000000000);
  // fsd then ld: the 8 bytes stored; flw then fmv.x.d: boxed.
  CHECK(run({toFa1, I(0x27, 3, 0, sp, 0) | (fa1 << 20), I(0x03, 3, a0, sp, 0)}, {{a1, 0x0102030405060708}}, a0) ==
        0x0102030405060708);
  CHECK(run({I(0x23, 2, 0, sp, 0) | (a1 << 20), I(0x07, 2, fa0, sp, 0), fmvXD}, {{a1, 0x89abcdef}}, a0) ==
        0xffffffff89abcdef);
  // Arithmetic and conversions (F, "Single-Precision Floating-Point
  // Computational Instructions", "Domains of float-to-integer conversions"):
  // 1.0 / 0.0 is +inf with DZ (fflags 0x08); sqrt(-1.0) the canonical NaN
  // with NV; fcvt.w.d (rtz) of a NaN the largest int32 with NV, fcvt.wu.d
  // of -1.0 zero with NV; fcvt.w.d of 2.5 under rne 2 with NX (0x01).
  const uint32_t fdivD = fp(0x03, 1, 7, fa0, fa1, fa2), fsqrtD = fp(0x0b, 1, 7, fa0, fa1, 0);
  CHECK(run({toFa1, toFa2, fdivD, fmvXD}, {{a1, 0x3ff0000000000000}, {a2, 0}}, a0) == 0x7ff0000000000000);
  CHECK(run({toFa1, toFa2, fdivD, frflags}, {{a1, 0x3ff0000000000000}, {a2, 0}}, a2) == 0x08);
  CHECK(run({toFa1, fsqrtD, fmvXD}, {{a1, 0xbff0000000000000}}, a0) == 0x7ff8000000000000);
  CHECK(run({toFa1, fsqrtD, frflags}, {{a1, 0xbff0000000000000}}, a2) == 0x10);
  CHECK(run({toFa1, fp(0x18, 1, 1, a0, fa1, 0)}, {{a1, 0x7ff8000000000000}}, a0) == 0x7fffffff);
  CHECK(run({toFa1, fp(0x18, 1, 1, a0, fa1, 1), frflags}, {{a1, 0xbff0000000000000}}, a2) == 0x10);
  CHECK(run({toFa1, fp(0x18, 1, 0, a0, fa1, 0)}, {{a1, 0x4004000000000000}}, a0) == 2);
  CHECK(run({toFa1, fp(0x18, 1, 0, a0, fa1, 0), frflags}, {{a1, 0x4004000000000000}}, a2) == 0x01);
  // Clearing FS again (csrc sstatus with both bits) makes the next one fault.
  z3::context c;
  ConcreteRun off = runOn(c, t, {0x000062b7, I(0x73, 2, zero, t0, 0x100), I(0x73, 3, zero, t0, 0x100), fmvDX}, {});
  CHECK(off.stop == "fault");
}

TEST_CASE("a compressed instruction runs as the instruction it expands to", "[riscv_model]") {
  // c.addi a0, -1; c.slli a0, 4; c.mv a1, a0; c.add a1, a0: (3 - 1) << 4 twice
  CHECK(regAfter(kRv64, {0x157d, 0x0512, 0x85aa, 0x95aa}, {{a0, 3}}, a1) == 64);
  CHECK(regAfter(kRv64, {0x157d, 0x0512}, {{a0, 3}}, a0) == 32);
  // c.lui a0, 0xfffff (nzimm = -1): -4096
  CHECK(regAfter(kRv64, {0x757d}, {}, a0) == uint64_t(-4096));
  // c.addiw a0, 0 of 0x80000000 (sext.w)
  CHECK(regAfter(kRv64, {0x2501}, {{a0, 0x80000000}}, a0) == 0xffffffff80000000ull);
  // c.jal is RV32 only; c.jalr a0 links ra = pc + 2
  z3::context c;
  ConcreteRun run = runOn(c, kRv64, {0x9502, 0x0001, 0x0001}, {{a0, kBase + 4}});
  REQUIRE(run.stop == "left the program");
  CHECK(*run.reg(ra) == kBase + 2);
}

TEST_CASE("SC succeeds only with a reservation, and LR makes one (concrete)", "[riscv_model]") {
  z3::context c;
  ConcreteStart s;
  s.target = kRv64;
  s.base = kBase;
  // sc.w a1, a2, (a0) without a reservation; lr.w a3, (a0); sc.w a4, a2, (a0)
  uint32_t sc = R(0x2f, 2, 0x0c, a1, a0, a2), lr = R(0x2f, 2, 0x08, 13, a0, 0), sc2 = R(0x2f, 2, 0x0c, 14, a0, a2);
  s.code = bytesOf({sc, lr, sc2});
  s.memory = {{kBase, s.code}, {0x20000, {1, 0, 0, 0}}};
  s.x[a0] = 0x20000;
  s.x[a2] = 0x55;
  ConcreteRun run = runConcrete(c, s);
  REQUIRE(run.stop == "left the program");
  CHECK(*run.reg(a1) != 0);  // failed: nonzero
  CHECK(*run.reg(13) == 1);  // lr read the old word
  CHECK(*run.reg(14) == 0);  // succeeded
  CHECK(*run.bytes(0x20000, 1)[0] == 0x55);
  CHECK(*run.reg(regfile::reservation) == 0);  // every SC ends the reservation
}

TEST_CASE("symbolically, an SC after an LR may fail, and an interrupt ends the reservation", "[riscv_model]") {
  z3::context c;
  MachineState s = MachineState::symbolic(c, kRv64, "in.");
  s.regs[regfile::reservation] = c.bool_val(true);
  s.regs[regfile::reservationAddress] = s.reg(a0);
  Cpu cpu(s, c.bv_val(kBase, 64));
  cpu.step(fetchInstruction(c, R(0x2f, 2, 0x0c, a1, a0, a2)));
  z3::solver solver(c);
  solver.add(cpu.state.reg(a1) != c.bv_val(0, 64));
  CHECK(solver.check() == z3::sat);  // failure is always allowed

  Cpu other(s, c.bv_val(kBase, 64));
  other.interrupt();
  CHECK(other.state.reg(regfile::reservation).simplify().is_false());
}

TEST_CASE("an exception boundary clobbers the stack below sp and no register", "[riscv_model]") {
  z3::context c;
  MachineState s = MachineState::symbolic(c, kRv64, "in.");
  z3::expr spv = s.reg(sp);
  s.store(spv - c.bv_val(8, 64), c.bv_val(0x1234, 64), 8);
  s.store(spv, c.bv_val(0x5678, 64), 8);
  std::vector<z3::expr> before(s.regs.begin(), s.regs.begin() + 32);
  modelOf(kRv64).exceptionBoundary(s);
  for (unsigned r = 0; r < 32; ++r) CHECK(z3::eq(s.reg(r), before[r]));
  z3::solver solver(c);
  solver.add(modelOf(kRv64).entryAssumptions(s));
  solver.add(s.peek(spv - c.bv_val(8, 64), 8) != c.bv_val(0x1234, 64));
  CHECK(solver.check() == z3::sat);  // below sp: may be lost
  z3::solver above(c);
  above.add(modelOf(kRv64).entryAssumptions(s));
  above.add(s.peek(spv, 8) != c.bv_val(0x5678, 64));
  CHECK(above.check() == z3::unsat);  // at sp: kept
}

TEST_CASE("the psABI as the core sees it: lp64 and ilp32", "[riscv_model]") {
  const AbiModel& lp64 = abiModel(64);
  CHECK(lp64.name == "lp64");
  CHECK(lp64.arguments == std::vector<unsigned>{10, 11, 12, 13, 14, 15, 16, 17});
  CHECK(lp64.link == ra);
  CHECK(lp64.sp == sp);
  CHECK(lp64.stackAlign == 16);
  for (unsigned r : {5u, 6u, 7u, 28u, 29u, 30u, 31u}) CHECK_FALSE(lp64.isLive(r));  // t0-t6
  for (unsigned r : {1u, 2u, 3u, 4u, 8u, 9u, 18u, 27u}) CHECK(lp64.isLive(r));     // ra, sp, gp, tp, s0, s1, s2, s11
  for (unsigned r : {2u, 3u, 4u, 8u, 27u}) CHECK(lp64.preservedByCall(r));
  for (unsigned r : {1u, 5u, 10u, 17u}) CHECK_FALSE(lp64.preservedByCall(r));
  const AbiModel& ilp32 = abiModel(32);
  CHECK(ilp32.name == "ilp32");
  CHECK(ilp32.slotBytes == 4);
  CHECK(ilp32.stackAlign == 16);
  // register names: psABI and xN
  const IsaModel& m = modelOf(kRv64);
  CHECK(m.parseRegister("t0", kRv64) == 5u);
  CHECK(m.parseRegister("x31", kRv64) == 31u);
  CHECK(m.parseRegister("fp", kRv64) == 8u);
  CHECK_FALSE(m.parseRegister("x32", kRv64));
  CHECK(m.registers(kRv64)[0].zero);
}

TEST_CASE("a call to a C function may change the caller-saved registers and keeps the rest", "[riscv_model]") {
  z3::context c;
  MachineState s = MachineState::symbolic(c, kRv64, "in.");
  MachineState after = s;
  modelOf(kRv64).callExternal(after, "f", 1);
  for (unsigned r = 0; r < 32; ++r) {
    z3::solver solver(c);
    solver.add(after.reg(r) != s.reg(r));
    bool mayChange = solver.check() == z3::sat;
    INFO("x" << r);
    // ra, t0-t2, a0-a7, t3-t6 (psABI: not preserved across calls)
    bool callerSaved = r == 1 || (r >= 5 && r <= 7) || (r >= 10 && r <= 17) || r >= 28;
    CHECK(mayChange == callerSaved);
  }
}
