// The arm64 plug-in through the ISA interface: words from
// docs/encoder-arm64.md (GNU as 2.40 and llvm-mc 14 agree on them),
// errors with file:line:column, symbolic units with their side conditions
// (a bl that may be out of reach), relocations, and the target defaults.
#include <catch2/catch.hpp>

#include "encoder/IsaRegistry.h"
#include "encoder/arm64/Assembler.h"
#include "encoder/arm64/Plugin.h"

using namespace patchcheck;

namespace {

Target arm64Target() { return *targetNamed("arm64"); }

std::variant<Program, Diagnostics> assembleText(const std::string& text, AssemblyOptions o = {}) {
  o.target = arm64Target();
  return o.target.isa->assemble(text, "t.s", o);
}

std::vector<uint64_t> words(const std::string& text, uint64_t base = 0) {
  AssemblyOptions o;
  o.base = Value::constant(int64_t(base));
  auto r = assembleText(text, o);
  if (auto* e = std::get_if<Diagnostics>(&r)) FAIL(e->front().str());
  std::vector<uint64_t> out;
  for (const Unit& u : std::get<Program>(r).units) out.push_back(u.bits);
  return out;
}

std::string firstError(const std::string& text) {
  auto r = assembleText(text);
  REQUIRE(std::holds_alternative<Diagnostics>(r));
  return std::get<Diagnostics>(r).front().str();
}

}  // namespace

TEST_CASE("arm64 is a little-endian lp64 target with kernel regions", "[arm64_encoder]") {
  Target t = arm64Target();
  CHECK(t.str() == "arm64/lp64/little");
  CHECK(t.registerBits() == 64);
  CHECK_FALSE(t.problem());
  auto regions = t.isa->defaultRegions(t);
  REQUIRE(regions.size() == 3);
  CHECK(regions[0].name == "kernel-text");
  CHECK(regions[1].name == "module-text");
  CHECK(regions[1].hi + 1 == regions[0].lo);  // modules sit right below the image (2 GiB)
  CHECK(*targetNamed("mips64r2") == defaultTarget());  // MIPS stays the default
}

TEST_CASE("arm64 words of the ftrace facts", "[arm64_encoder]") {
  CHECK(words("nop\nbti c\npaciasp\nautiasp\nmov x9, x30\nbrk #0\nisb\nret") ==
        std::vector<uint64_t>{0xd503201f, 0xd503245f, 0xd503233f, 0xd50323bf, 0xaa1e03e9, 0xd4200000, 0xd5033fdf,
                              0xd65f03c0});
  // bl and b: imm26 = offset / 4
  CHECK(words("bl .+8\nb .-4") == std::vector<uint64_t>{0x94000002, 0x17ffffff});
  // labels, numeric labels, .quad (an 8-byte unit) and comments
  CHECK(words("1: b 1f // forward\n  nop\n1: b 1b\n.quad 0x1122334455667788") ==
        std::vector<uint64_t>{0x14000002, 0xd503201f, 0x14000000, 0x1122334455667788});
  auto d = arm64Target().isa->disassemble(0x94000002, 4, 0xffff800080000000ull, arm64Target());
  CHECK(d == "bl\t0xffff800080000008");
}

TEST_CASE("arm64 conditional select prints its aliases as objdump does", "[arm64_encoder]") {
  // Words and texts from GNU as 2.40 / objdump (llvm-mc 14 agrees).
  auto text = [](uint64_t w) { return arm64Target().isa->disassemble(w, 4, 0, arm64Target()); };
  CHECK(text(0x9a9f17e0) == "cset\tx0, eq");          // csinc x0, xzr, xzr, ne
  CHECK(text(0x1a9f37e3) == "cset\tw3, cs");          // hs is printed cs
  CHECK(text(0xda9f13e0) == "csetm\tx0, eq");
  CHECK(text(0x9a811420) == "cinc\tx0, x1, eq");
  CHECK(text(0x5a83b060) == "cinv\tw0, w3, ge");
  CHECK(text(0xda838460) == "cneg\tx0, x3, ls");
  CHECK(text(0xda9f17e0) == "cneg\tx0, xzr, eq");     // csneg has no cset-like alias
  // No alias for al or nv, nor when the registers differ.
  CHECK(text(0x9a9fe7e0) == "csinc\tx0, xzr, xzr, al");
  CHECK(text(0x9a81f420) == "csinc\tx0, x1, x1, nv");
  CHECK(text(0xda83e460) == "csneg\tx0, x3, x3, al");
  CHECK(text(0x9a8107e0) == "csinc\tx0, xzr, x1, eq");
  CHECK(text(0x9a9f0420) == "csinc\tx0, x1, xzr, eq");
  CHECK(text(0x9a810020) == "csel\tx0, x1, x1, eq");
  CHECK(text(0x1a82f020) == "csel\tw0, w1, w2, nv");
  CHECK(text(0xd69f03e0) == "eret");
  // cinc of the zero register is cset, as GNU as makes it.
  CHECK(words("cinc x3, xzr, eq\ncset w3, hs\ncsetm x3, lo\neret") ==
        std::vector<uint64_t>{0x9a9f17e3, 0x1a9f37e3, 0xda9f23e3, 0xd69f03e0});
  CHECK(firstError("cinc w1, w2, al").find("operand 3 of 'cinc': 'al' is not allowed here") != std::string::npos);
  CHECK(firstError("cset x0, nv").find("'nv' is not allowed here") != std::string::npos);
  CHECK(firstError("csel x0, x1, x2, xx").find("expected a condition") != std::string::npos);
}

TEST_CASE("arm64 errors carry file:line:column", "[arm64_encoder]") {
  CHECK(firstError("nop\n  frob x0") == "t.s:2:3: error: unknown instruction 'frob'");
  CHECK(firstError("and x0, x1, #5") ==
        "t.s:1:13: error: operand 3 of 'and': 0x5 is not a logical immediate (a rotated run of ones repeated in "
        "elements of 2, 4, 8, 16, 32 or 64 bits; not 0 or all ones)");
  CHECK(firstError("ldr x0, [x1, #260]").find("t.s:1:14: error: operand 2 of 'ldr': offset 260 is not a multiple of 8") == 0);
  CHECK(firstError("b .+2") == "t.s:1:3: error: operand 1 of 'b': target 0x2 is not 4-byte aligned (offset 2 from 0x0)");
  CHECK(firstError("bl .+0x8000000").find("t.s:1:4: error: operand 1 of 'bl': target 0x8000000 is out of reach") == 0);
  CHECK(firstError("mov w0, x1") == "t.s:1:9: error: operand 2 of 'mov': expected a 32-bit (w) register, got 'x1'");
  CHECK(firstError("ldp x0, x1, [x2, #4]") == "t.s:1:18: error: operand 3 of 'ldp': offset 4 is not a multiple of 8");
  CHECK(firstError("add x0, x1, w2").find("a 32-bit register here needs an extend") != std::string::npos);
  CHECK(firstError("ldr x0, =1").find("literal pool") != std::string::npos);
  // Found while sharing the expression parser: INT64_MIN / -1 raised SIGFPE.
  CHECK(firstError(".word (-0x7fffffffffffffff-1)/-1") ==
        "t.s:1:7: error: .word value 0x8000000000000000 does not fit 32 bits");
  CHECK(firstError("add x0, x1, #:hi12:x") == "t.s:1:14: error: unknown relocation operator in ':hi12:x'");
  CHECK(firstError(".short 1") == "t.s:1:1: error: unknown directive '.short'");  // units are 4 or 8 bytes
}

TEST_CASE("arm64 CONSTRAINED UNPREDICTABLE forms need allowUnpredictable", "[arm64_encoder]") {
  CHECK(firstError("ldr x0, [x0, #8]!").find("UNPREDICTABLE") != std::string::npos);
  CHECK(firstError("ldp x1, x1, [x2]").find("UNPREDICTABLE") != std::string::npos);
  AssemblyOptions o;
  o.allowUnpredictable = true;
  auto r = assembleText("ldr x0, [x0, #8]!\nldp x1, x1, [x2]", o);
  REQUIRE(std::holds_alternative<Program>(r));
  CHECK(std::get<Program>(r).units[0].bits == 0xf8408c00);
}

TEST_CASE("arm64 bl to a symbolic trampoline is a term with its reach as a condition", "[arm64_encoder]") {
  AssemblyOptions o;
  o.base = Value{"F", 4};
  o.symbolic = {"F", "ftrace_caller"};
  auto r = assembleText("bl ftrace_caller\nadrp x0, ftrace_caller\nadd x0, x0, #:lo12:ftrace_caller", o);
  REQUIRE(std::holds_alternative<Program>(r));
  const Program& p = std::get<Program>(r);
  const Target t = arm64Target();
  REQUIRE(p.units.size() == 3);
  CHECK(p.units[0].symbolicMask == 0x03ffffff);
  CHECK(p.units[0].bits == 0x94000000);

  auto reloc = t.isa->relocation(p.units[0]);
  REQUIRE(reloc);
  CHECK(reloc->kind == "call26");
  CHECK(reloc->value.symbol == "ftrace_caller");
  CHECK(reloc->relativeTo == Value{"F", 4});
  CHECK(t.isa->relocation(p.units[1])->kind == "adr_prel_pg_hi21");
  CHECK(t.isa->relocation(p.units[2])->kind == "add_abs_lo12_nc");

  z3::context c;
  z3::expr f = c.bv_const("F", 64), tramp = c.bv_const("ftrace_caller", 64);
  auto symbol = [&](const std::string& s) { return s == "F" ? f : tramp; };
  SymbolicUnit bl = t.isa->symbolic(p.units[0], t, c, symbol);
  REQUIRE(bl.conditions.size() == 2);  // aligned, within +-128 MiB
  CHECK(bl.reasons[1].find("reaches ftrace_caller") != std::string::npos);
  // A placement 128 MiB away breaks the reach; one 1 MiB away gives the word.
  z3::solver far(c);
  far.add(f == c.bv_val(uint64_t(0xffff800080000000ull), 64));
  far.add(tramp == f + c.bv_val(4 + (uint64_t(1) << 27), 64));
  far.add(bl.conditions[1]);
  CHECK(far.check() == z3::unsat);
  z3::solver near(c);
  near.add(f == c.bv_val(uint64_t(0xffff800080000000ull), 64));
  near.add(tramp == f + c.bv_val(4 + 0x100000, 64));
  for (const z3::expr& cond : bl.conditions) near.add(cond);
  REQUIRE(near.check() == z3::sat);
  CHECK(near.get_model().eval(bl.term, true).get_numeral_uint64() == 0x94000000u + 0x40000u);
}
