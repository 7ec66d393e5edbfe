// The RISC-V plug-in through the ISA interface: encodings GNU as 2.40
// gives (oracle.gnu_as_diff checks every row against it), its automatic
// compression and .option norvc, the pseudo-instructions, errors with
// file:line:column, symbolic units as Z3 terms with their reach conditions,
// relocations, the decoder the model reads, and the printer's text
// reassembling to the same bits.
#include <catch2/catch.hpp>

#include "encoder/IsaRegistry.h"
#include "encoder/riscv/Decoder.h"
#include "encoder/riscv/Plugin.h"
#include "encoder/riscv/Printer.h"

using namespace patchcheck;

namespace {

Target rv(const char* variant = "rv64imac") { return *targetNamed(variant); }

std::variant<Program, Diagnostics> assembleText(const std::string& text, const char* variant = "rv64imac",
                                                AssemblyOptions o = {}) {
  o.target = rv(variant);
  return o.target.isa->assemble(text, "t.s", o);
}

// Each unit as (bytes, bits).
std::vector<std::pair<unsigned, uint64_t>> units(const std::string& text, const char* variant = "rv64imac",
                                                 AssemblyOptions o = {}) {
  auto r = assembleText(text, variant, o);
  if (auto* e = std::get_if<Diagnostics>(&r)) FAIL(e->front().str());
  std::vector<std::pair<unsigned, uint64_t>> out;
  for (const Unit& u : std::get<Program>(r).units) out.push_back({u.bytes, u.bits});
  return out;
}

std::string firstError(const std::string& text, const char* variant = "rv64imac", AssemblyOptions o = {}) {
  auto r = assembleText(text, variant, o);
  REQUIRE(std::holds_alternative<Diagnostics>(r));
  return std::get<Diagnostics>(r).front().str();
}

using U = std::vector<std::pair<unsigned, uint64_t>>;

}  // namespace

TEST_CASE("riscv: GNU as's encodings, compressed when the C extension is on", "[riscv_encoder]") {
  // riscv64-linux-gnu-as -march=rv64imac_zicsr_zifencei (binutils 2.40)
  CHECK(units("addi sp, sp, -16\nsd ra, 8(sp)\nret\nnop\nli a0, 5\nmv a0, a1") ==
        U{{2, 0x1141}, {2, 0xe406}, {2, 0x8082}, {2, 0x0001}, {2, 0x4515}, {2, 0x852e}});
  CHECK(units("auipc t0, 0\njalr t0, 12(t0)\nlui a0, 0x12345\nfence w, o\nfence.i\nfence.tso\necall") ==
        U{{4, 0x00000297}, {4, 0x00c282e7}, {4, 0x12345537}, {4, 0x0140000f}, {4, 0x0000100f}, {4, 0x8330000f},
          {4, 0x00000073}});
  CHECK(units("csrr a0, mstatus\ncsrw 0x300, a0\nlr.w.aq a0, (a1)\namoadd.d.aqrl a0, a1, (a2)") ==
        U{{4, 0x30002573}, {4, 0x30051073}, {4, 0x1405a52f}, {4, 0x06b6352f}});
  // addi rd, rd, 0 is c.mv rd, rd in GNU as (its c.addi takes no 0)
  CHECK(units("addi a0, a0, 0\naddi a0, zero, 0") == U{{2, 0x852a}, {2, 0x4501}});
  // Without C, and under .option norvc, the same lines take 4 bytes.
  CHECK(units("addi sp, sp, -16\nret", "rv64ima") == U{{4, 0xff010113}, {4, 0x00008067}});
  CHECK(units(".option norvc\naddi a0, a0, 1\n.option rvc\naddi a0, a0, 1") == U{{4, 0x00150513}, {2, 0x0505}});
  CHECK(units(".option push\n.option norvc\nret\n.option pop\nret") == U{{4, 0x00008067}, {2, 0x8082}});
}

TEST_CASE("riscv: pseudo-instructions expand as GNU as expands them", "[riscv_encoder]") {
  // li: GNU as's load_const, each instruction compressed where it can be.
  CHECK(units("li a0, 0x1005") == U{{2, 0x6505}, {2, 0x2515}});
  CHECK(units("li a0, 0x123456789") == U{{4, 0x00092537}, {4, 0xa2b5051b}, {2, 0x0536}, {4, 0x78950513}});
  CHECK(units("li a0, 0x80000000") == U{{4, 0x0010051b}, {2, 0x057e}});
  CHECK(units("li a0, 0x80000000", "rv32imac") == U{{4, 0x80000537}});
  // call/tail/la at 0x1000 with the symbol at 0x345678 (GNU as + ld --no-relax)
  AssemblyOptions o;
  o.base = Value::constant(0x1000);
  o.symbols["foo"] = 0x345678;
  CHECK(units("call foo\ntail foo\nla a0, foo\ncall t0, foo", "rv64imac", o) ==
        U{{4, 0x00344097}, {4, 0x678080e7}, {4, 0x00344317}, {4, 0x67030067}, {4, 0x00344517}, {4, 0x66850513},
          {4, 0x00344317}, {4, 0x660302e7}});
  // %pcrel_lo names the auipc's label; the pair splits with +0x800 rounding.
  o.symbols["bar"] = 0x1000 + 0x12345800;
  CHECK(units("1: auipc t0, %pcrel_hi(bar)\njalr ra, %pcrel_lo(1b)(t0)", "rv64imac", o) ==
        U{{4, 0x12346297}, {4, 0x800280e7}});
  // Branches to labels relax to their compressed forms when they reach.
  CHECK(units("1: beqz a0, 1b\nbnez s0, 2f\nj 1b\n2: beq a0, a1, 1b") ==
        U{{2, 0xc101}, {2, 0xe011}, {2, 0xbff5}, {4, 0xfeb50de3}});
}

TEST_CASE("riscv: bad input is refused at its file:line:column", "[riscv_encoder]") {
  CHECK(firstError("nop\n  addi a0, a9, 1") == "t.s:2:12: error: expected a register, got 'a9'");
  CHECK(firstError("addi a0, a0, 4096") == "t.s:1:14: error: 4096 is out of range for 'addi' (signed 12-bit)");
  CHECK(firstError("  frob a0") == "t.s:1:3: error: unknown instruction 'frob'");
  // F and D need a variant with them (GNU as -march=rv64imac: "extension `d' required").
  CHECK(firstError("nop\n  fld fa0, 0(sp)") ==
        "t.s:2:3: error: 'fld' needs the F and D extensions, which the target has not (rv64imafdc or rv64gc has them)");
  CHECK(firstError("fadd.s ft0, ft1, ft2", "rv32ima").find("t.s:1:1: error: 'fadd.s' needs the F and D") == 0);
  CHECK(firstError("frcsr a0").find("t.s:1:1: error: 'frcsr' needs the F and D") == 0);
  CHECK(firstError("fadd.d fa0, fa1, a2", "rv64gc") == "t.s:1:18: error: expected a floating-point register, got 'a2'");
  CHECK(firstError("fadd.d fa0, fa1, fa2, rnd", "rv64gc") ==
        "t.s:1:23: error: expected a rounding mode (rne, rtz, rdn, rup, rmm, dyn), got 'rnd'");
  CHECK(firstError("fcvt.d.w fa0, a0, rtz", "rv64gc").find("t.s:1:1: error: 'fcvt.d.w' takes fcvt.d.w fd, rs1") == 0);
  CHECK(firstError("fmv.x.d a0, fa0", "rv32gc").find("t.s:1:1: error: 'fmv.x.d' is not available on rv32") == 0);
  CHECK(firstError("c.addi a0, 1", "rv64ima").find("t.s:1:1: error: 'c.addi' is not available") == 0);
  CHECK(firstError("ld a0, 0(a1)", "rv32ima").find("t.s:1:1: error: 'ld' is not available on rv32") == 0);
  CHECK(firstError("slli a0, a0, 32", "rv32ima") == "t.s:1:14: error: shift amount must be 0..31");
  // GNU as turns a conditional branch to a symbol into two instructions.
  AssemblyOptions o;
  o.symbolic = {"T"};
  CHECK(firstError("beq a0, a1, T", "rv64imac", o).find("t.s:1:13: error: a conditional branch to 'T'") == 0);
  CHECK(firstError("addi a0, a0, %pcrel_lo(0x40)").find("t.s:1:14: error: %pcrel_lo(0x40) names no auipc") == 0);
  CHECK(firstError("lui a0, %lo(T)", "rv64imac", o) == "t.s:1:9: error: %lo fits a 12-bit immediate or offset only");
  CHECK(firstError(".align 2").find("t.s:1:1: error: '.align' is not supported") == 0);
  CHECK(firstError(".option pic") == "t.s:1:9: error: '.option pic' is not supported (rvc, norvc, push, pop, relax, "
                                       "norelax, nopic are)");
  CHECK(firstError("fence 0, rw") == "t.s:1:7: error: expected a fence set (i, o, r, w in that order), got '0'");
  CHECK(firstError("1: beqz a0, 1b\n.rept 3000\n.endr").find("t.s:2:1: error: unknown directive") == 0);
}

TEST_CASE("riscv: symbolic units carry their reach and their relocation", "[riscv_encoder]") {
  AssemblyOptions o;
  o.base = Value{"F", 0};
  o.symbolic = {"T"};
  auto r = assembleText("jal T\n1: auipc t0, %pcrel_hi(T)\njalr t0, %pcrel_lo(1b)(t0)\n.dword T", "rv64imac", o);
  REQUIRE(std::holds_alternative<Program>(r));
  const Program& p = std::get<Program>(r);
  REQUIRE(p.units.size() == 4);
  Target t = rv();
  auto jal = t.isa->relocation(p.units[0]);
  REQUIRE(jal);
  CHECK(jal->kind == "jal");
  CHECK(jal->formula == "S - P");
  CHECK(jal->pieces.size() == 4);
  auto hi = t.isa->relocation(p.units[1]);
  auto lo = t.isa->relocation(p.units[2]);
  REQUIRE(hi);
  REQUIRE(lo);
  CHECK(hi->kind == "pcrel_hi20");
  CHECK(hi->formula == "(S - P + 0x800) >> 12");
  CHECK(lo->kind == "pcrel_lo12_i");
  CHECK(lo->text == "%pcrel_lo(F+0x4)");
  CHECK(*lo->relativeTo == Value{"F", 4});
  CHECK(t.isa->relocation(p.units[3])->kind == "abs64");

  // The terms at F = 0x1000, T = 0x12346c00: the auipc at 0x1004 is 0x12345bfc
  // away, 0x12346 << 12 (rounded up) plus -0x404.
  z3::context c;
  z3::expr F = c.bv_const("F", 64), T = c.bv_const("T", 64);
  auto sym = [&](const std::string& s) { return s == "F" ? F : T; };
  auto at = [&](z3::expr e) {
    z3::expr_vector from(c), to(c);
    from.push_back(F), to.push_back(c.bv_val(0x1000, 64));
    from.push_back(T), to.push_back(c.bv_val(uint64_t(0x12346c00), 64));
    return e.substitute(from, to).simplify().get_numeral_uint64();
  };
  CHECK(at(t.isa->symbolic(p.units[1], t, c, sym).term) == 0x12346297);
  CHECK(at(t.isa->symbolic(p.units[2], t, c, sym).term) == 0xbfc282e7);
  SymbolicUnit j = t.isa->symbolic(p.units[0], t, c, sym);
  REQUIRE(j.conditions.size() == 2);  // even, and within +-1 MiB
  z3::solver s(c);
  s.add(F == c.bv_val(0x1000, 64) && T == c.bv_val(0x101000, 64));
  for (const z3::expr& e : j.conditions) s.add(e);
  CHECK(s.check() == z3::unsat);  // 1 MiB away: beyond jal's reach
}

TEST_CASE("riscv: F and D as GNU as encodes them, rounding mode dyn unless written", "[riscv_encoder]") {
  // riscv64-linux-gnu-as -march=rv64gc (binutils 2.40): dyn (7) when rm is
  // left out, but rne (0) in fcvt.d.s/fcvt.d.w, which take no rm in 2.40;
  // c.fldsp/c.fsdsp/c.fld with C; flw stays 4 bytes on RV64 (c.flw is RV32's).
  CHECK(units("fadd.d fa0,fa1,fa2\nfadd.d fa0,fa1,fa2,rne\nfcvt.d.s fa0,fa1\nfcvt.w.s a0,fa0\n"
              "fmadd.s fa0,fa1,fa2,fa3\nfmv.s fa0,fa1\nfcvt.d.lu fa0,a0,rup\nfcvt.d.w fa0,a0",
              "rv64gc") == U{{4, 0x02c5f553}, {4, 0x02c58553}, {4, 0x42058553}, {4, 0xc0057553}, {4, 0x68c5f543},
                             {4, 0x20b58553}, {4, 0xd2353553}, {4, 0xd2050553}});
  CHECK(units("frcsr a0\nfscsr a0,a1\nfscsr a1\nfsrmi 3\ncsrr a0, fflags", "rv64imafdc") ==
        U{{4, 0x00302573}, {4, 0x00359573}, {4, 0x00359073}, {4, 0x0021d073}, {4, 0x00102573}});
  CHECK(units("fld fa0,8(sp)\nfsd fa0,8(sp)\nflw fa0,8(sp)\nfld fa0,8(a0)\nfsd fs0,8(a1)\nfld f8, 8(x8)", "rv64gc") ==
        U{{2, 0x2522}, {2, 0xa42a}, {4, 0x00812507}, {2, 0x2508}, {2, 0xa580}, {2, 0x2400}});
  CHECK(units("fld fa0,8(sp)", "rv64g") == U{{4, 0x00813507}});
  // RV32 also has c.flw, c.flwsp, c.fsw, c.fswsp (quadrants 0 and 2, funct3 011 and 111).
  CHECK(units("flw fa0,8(sp)\nfsw fa0,8(sp)\nflw fa0,8(a0)\nfsw fs0,8(a1)", "rv32gc") ==
        U{{2, 0x6522}, {2, 0xe42a}, {2, 0x6508}, {2, 0xe580}});
}

TEST_CASE("riscv: F and D print as objdump prints them", "[riscv_encoder]") {
  using namespace patchcheck::riscv;
  auto text = [](uint32_t bits, bool fd = true, Spelling s = Spelling::Aliases) {
    return disassemble(bits, 0, 64, true, s, fd);
  };
  CHECK(text(0x02c5f553) == "fadd.d\tfa0,fa1,fa2");
  CHECK(text(0x02c58553) == "fadd.d\tfa0,fa1,fa2,rne");
  CHECK(text(0x02c5d553) == "fadd.d\tfa0,fa1,fa2,unknown");  // rm 5: reserved; objdump 2.40's spelling
  CHECK(text(0x22b59553) == "fneg.d\tfa0,fa1");
  CHECK(text(0x22c59553) == "fsgnjn.d\tfa0,fa1,fa2");
  CHECK(text(0x22b59553, true, Spelling::NoAliases) == "fsgnjn.d\tfa0,fa1,fa1");
  CHECK(text(0x68c5f543) == "fmadd.s\tfa0,fa1,fa2,fa3");
  CHECK(text(0xd2057553) == ".4byte\t0xd2057553");  // fcvt.d.w with rm dyn: no row of binutils 2.40
  CHECK(text(0x00302573) == "frcsr\ta0");
  CHECK(text(0x00302573, false) == "csrr\ta0,fcsr");  // without F, objdump has no F aliases
  CHECK(text(0x02c5f553, false) == ".4byte\t0x2c5f553");
  CHECK(text(0x2522) == "fld\tfa0,8(sp)");
  CHECK(text(0x2522, true, Spelling::NoAliases) == "c.fldsp\tfa0,8(sp)");
  CHECK(text(0xe2051553) == "fclass.d\ta0,fa0");
  CHECK(text(0xa2b61553) == "flt.d\ta0,fa2,fa1");
}

TEST_CASE("riscv: decode gives the model the operation and its fields", "[riscv_encoder]") {
  using namespace patchcheck::riscv;
  Decoded d = decode(0x0505, 64, true);  // c.addi a0, 1
  REQUIRE(d.row);
  CHECK(d.length == 2);
  CHECK(d.op == Op::Addi);
  CHECK((d.rd == 10 && d.rs1 == 10 && d.imm == 1));
  d = decode(0x9782, 64, true);  // c.jalr a5
  CHECK((d.op == Op::Jalr && d.rd == 1 && d.rs1 == 15 && d.imm == 0));
  d = decode(0xbff5, 64, true);  // c.j -4
  CHECK((d.op == Op::Jal && d.rd == 0 && d.imm == -4));
  d = decode(0x6505, 64, true);  // c.lui a0, 1
  CHECK((d.op == Op::Lui && d.imm == 0x1000));
  d = decode(0x00c282e7, 64, true);  // jalr t0, 12(t0)
  CHECK((d.op == Op::Jalr && d.length == 4 && d.rd == 5 && d.rs1 == 5 && d.imm == 12));
  d = decode(0x0ff0000f, 64, true);
  CHECK((d.op == Op::Fence && d.pred == 15 && d.succ == 15));
  d = decode(0x1405a52f, 64, true);
  CHECK((d.op == Op::LrW && d.aq && !d.rl));
  CHECK_FALSE(decode(0x0505, 64, false).row);  // a 16-bit parcel without C: illegal
  CHECK_FALSE(decode(0x1082, 32, true).row);   // RV32 c.slli by 32: reserved
  CHECK(lengthOf(0x0001) == 2);
  CHECK(lengthOf(0x0013) == 4);
  CHECK(lengthOf(0x001f) == 0);
  CHECK_FALSE(decode(0x0000, 64, true).row == nullptr);  // c.unimp decodes (as the illegal instruction)
  CHECK(decode(0x0000, 64, true).op == Op::Unimp);
  // F and D: only on a variant with them; rs3 and rm filled.
  CHECK_FALSE(decode(0x68c5f543, 64, true).row);
  d = decode(0x68c5f543, 64, true, true);  // fmadd.s fa0, fa1, fa2, fa3 (dyn)
  CHECK((d.op == Op::FmaddS && d.rd == 10 && d.rs1 == 11 && d.rs2 == 12 && d.rs3 == 13 && d.rm == 7));
  d = decode(0x2522, 64, true, true);  // c.fldsp fa0, 8(sp)
  CHECK((d.op == Op::Fld && d.length == 2 && d.rd == 10 && d.rs1 == 2 && d.imm == 8));
  CHECK_FALSE(decode(0x02c5d553, 64, true, true).row);  // rm 5 is reserved: illegal
  CHECK(decode(0x6508, 64, true, true).op == Op::Ld);  // c.ld a0, 8(a0) on RV64, c.flw fa0, 8(a0) on RV32
  CHECK(decode(0x6508, 32, true, true).op == Op::Flw);
}

TEST_CASE("riscv: objdump's text reassembles to the same bits", "[riscv_encoder]") {
  // Every 16-bit encoding and a sample of 32-bit ones that decode, except
  // transfers to an address (GNU as relaxes those by distance, and refuses
  // a conditional branch to a constant): printed, reassembled at the same
  // address, the same bits or the same operation on the same fields.
  // A 32-bit encoding is reassembled without C (with it, GNU as would
  // compress `mv s3,a4` to c.mv).
  for (auto [variant, wide] : {std::pair{"rv64imac", "rv64ima"}, std::pair{"rv32imac", "rv32ima"},
                                std::pair{"rv64gc", "rv64g"}, std::pair{"rv32gc", "rv32g"}}) {
    Target t = rv(variant);
    unsigned xlen = riscv::xlenOf(t);
    bool fd = riscv::fdOf(t);
    size_t checked = 0, failed = 0;
    std::vector<uint32_t> encodings;
    for (uint32_t p = 0; p < 0x10000; ++p)
      if ((p & 3) != 3) encodings.push_back(p);
    for (const riscv::Row& r : riscv::instructionTable())
      if (!(r.flags & riscv::kCompressed))
        for (uint32_t k = 0; k < 16; ++k) encodings.push_back((r.match & r.mask) | ((k * 0x9e3779b9u) & ~r.mask));
    for (uint32_t bits : encodings) {
      riscv::Decoded d = riscv::decode(bits, xlen, true, fd);
      if (!d.row || (d.row->flags & riscv::kTransfer && d.op != riscv::Op::Jalr)) continue;
      // A fence with an empty set prints as `unknown`, which GNU as has no spelling for.
      if (d.op == riscv::Op::Fence && (d.pred == 0 || d.succ == 0)) continue;
      std::string text = riscv::disassemble(bits, 0x1000, xlen, true, riscv::Spelling::Aliases, fd);
      AssemblyOptions o;
      o.base = Value::constant(0x1000);
      auto r = assembleText(text, d.length == 2 ? variant : wide, o);
      ++checked;
      auto* p = std::get_if<Program>(&r);
      bool same = p && p->units.size() == 1 && p->units[0].bits == (d.length == 2 ? bits & 0xffff : bits);
      if (!same && p && p->units.size() == 1) {
        // GNU as may pick another row for objdump's text (add sp,sp,16 is
        // c.addi, not c.addi16sp; unimp is c.unimp): the same operation.
        riscv::Decoded e = riscv::decode(uint32_t(p->units[0].bits), xlen, true, fd);
        same = e.row && e.op == d.op && (d.op == riscv::Op::Unimp ||
                                         (e.rd == d.rd && e.rs1 == d.rs1 && e.rs2 == d.rs2 && e.imm == d.imm &&
                                          e.csr == d.csr && e.pred == d.pred && e.succ == d.succ && e.aq == d.aq &&
                                          e.rl == d.rl && e.rs3 == d.rs3 && e.rm == d.rm));
      }
      if (!same && ++failed <= 12) {
        INFO(variant << ": " << std::hex << bits << " '" << text << "'");
        CHECK(same);
      }
    }
    CHECK(failed == 0);
    CHECK(checked > 20000);
  }
}
