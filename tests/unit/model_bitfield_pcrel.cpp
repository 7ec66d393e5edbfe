// Semantics of the bit-field, byte-order, counting, multiply-accumulate and
// R6 PC-relative instructions against cases worked out by hand from the
// MIPS32/MIPS64 Release 2 and Release 6 manuals (Volume II pseudocode),
// including the encodings the manuals call UNPREDICTABLE.
#include <catch2/catch.hpp>

#include "encoder/mips/Assembler.h"
#include "model/mips/Concrete.h"

using namespace patchcheck;
using namespace patchcheck::mips;

namespace {

mips::Target target(Isa isa, Endian e = Endian::Big) { return mips::Target{isa, e, defaultAbi(isa)}; }

std::vector<uint32_t> assembleWords(const std::string& src, const mips::Target& t, uint64_t base) {
  AssemblyOptions o;
  o.target = t;
  o.base = Value::constant(int64_t(base));
  auto a = assemble(src, "t.s", o);
  if (auto* e = std::get_if<Diagnostics>(&a)) FAIL((*e)[0].str());
  auto w = concreteWords(std::get<Assembly>(a));
  if (auto* e = std::get_if<Diagnostics>(&w)) FAIL((*e)[0].str());
  return std::get<std::vector<uint32_t>>(w);
}

// Runs `src` at 0x1000; the program's own words are also memory (for the
// PC-relative loads).
ConcreteRun run(z3::context& c, const mips::Target& t, const std::string& src,
                std::initializer_list<std::pair<unsigned, uint64_t>> regs, uint64_t hi = 0,
                uint64_t lo = 0) {
  ConcreteStart s;
  s.target = t;
  s.base = 0x1000;
  s.words = assembleWords(src, t, s.base);
  for (auto [r, v] : regs) s.gpr[r] = v;
  s.hi = hi;
  s.lo = lo;
  std::vector<uint8_t> code;
  for (uint32_t w : s.words)
    for (unsigned k = 0; k < 4; ++k)
      code.push_back(uint8_t(t.endian == Endian::Big ? w >> (24 - 8 * k) : w >> (8 * k)));
  s.memory = {{s.base, code}};
  return runConcrete(c, s);
}

bool hasFault(const ConcreteRun& r, FaultKind k) {
  for (const Fault& f : r.faults)
    if (f.kind == k) return true;
  return false;
}

constexpr unsigned v0 = 2, v1 = 3, a0 = 4, a1 = 5;

}  // namespace

TEST_CASE("ext and ins, and their doubleword forms", "[model_bitfield_pcrel]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2), m64 = target(Isa::Mips64R2);
  // EXT: GPR[rt] <- sign_extend(0^(32-size) || GPR[rs][pos+size-1..pos])
  CHECK(*run(c, m32, "ext $2, $4, 4, 8", {{a0, 0x12345678}}).reg(v0) == 0x67);
  CHECK(*run(c, m64, "ext $2, $4, 0, 32", {{a0, 0xffffffff80000000ull}}).reg(v0) == 0xffffffff80000000ull);
  CHECK(*run(c, m64, "ext $2, $4, 31, 1", {{a0, 0xffffffff80000000ull}}).reg(v0) == 1);
  // INS: GPR[rt] <- sign_extend(GPR[rt][31..msb+1] || GPR[rs][size-1..0] || GPR[rt][lsb-1..0])
  CHECK(*run(c, m64, "ins $2, $4, 8, 8", {{v0, 0xffffffffffffffffull}, {a0, 0x12}}).reg(v0) ==
        0xffffffffffff12ffull);
  CHECK(*run(c, m64, "ins $2, $4, 31, 1", {{v0, 0}, {a0, 1}}).reg(v0) == 0xffffffff80000000ull);
  // DEXT, DEXTM, DEXTU: zero-extended fields of the doubleword
  uint64_t x = 0x123456789abcdef0ull;
  CHECK(*run(c, m64, "dext $2, $4, 16, 24", {{a0, x}}).reg(v0) == 0x789abc);
  CHECK(*run(c, m64, "dext $2, $4, 4, 40", {{a0, x}}).reg(v0) == 0x6789abcdefull);  // dextm
  CHECK(*run(c, m64, "dextu $2, $4, 32, 16", {{a0, x}}).reg(v0) == 0x5678);
  CHECK(*run(c, m64, "dext $2, $4, 0, 64", {{a0, x}}).reg(v0) == x);
  // DINS, DINSM, DINSU: no sign extension
  CHECK(*run(c, m64, "dins $2, $4, 40, 8", {{v0, 0}, {a0, 0xab}}).reg(v0) == 0xab0000000000ull);  // dinsu
  CHECK(*run(c, m64, "dins $2, $4, 16, 24", {{v0, ~0ull}, {a0, 0}}).reg(v0) == 0xffffff000000ffffull);
  CHECK(*run(c, m64, "dinsm $2, $4, 28, 8", {{v0, 0}, {a0, 0xff}}).reg(v0) == 0xff0000000ull);
  CHECK(run(c, m64, "dins $2, $4, 0, 64", {{v0, 0}, {a0, x}}).faults.empty());
}

TEST_CASE("ext and ins UNPREDICTABLE cases", "[model_bitfield_pcrel]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2), m64 = target(Isa::Mips64R2);
  // ext with lsb 31 and msbd 31 (pos + size = 63 > 32), ins with msb 0 < lsb 31
  ConcreteRun r = run(c, m32, ".word 0x7c82ffc0", {});
  CHECK(hasFault(r, FaultKind::Unpredictable));
  CHECK(hasFault(run(c, m32, ".word 0x7c8207c4", {}), FaultKind::Unpredictable));
  // GNU as encodes `ins $4, $5, 3, 0` (msb 2 < lsb 3); we refuse it, the word is UNPREDICTABLE
  CHECK(hasFault(run(c, m32, ".word 0x7ca410c4", {}), FaultKind::Unpredictable));
  // dextm with lsb 31 and size 64, dinsu with msb 32 < lsb 63
  CHECK(hasFault(run(c, m64, ".word 0x7ca4ffc1", {}), FaultKind::Unpredictable));
  CHECK(hasFault(run(c, m64, ".word 0x7ca407c6", {}), FaultKind::Unpredictable));
  // MIPS64: ext/ins read word values (NotWordValue); the d-forms do not
  CHECK(hasFault(run(c, m64, "ext $2, $4, 0, 8", {{a0, 0x100000000ull}}), FaultKind::Unpredictable));
  CHECK(hasFault(run(c, m64, "ins $2, $4, 0, 8", {{v0, 0x100000000ull}}), FaultKind::Unpredictable));
  CHECK(run(c, m64, "dext $2, $4, 0, 8", {{a0, 0x100000000ull}}).faults.empty());
}

TEST_CASE("byte and bit order, sign extension, align, lsa", "[model_bitfield_pcrel]") {
  z3::context c;
  mips::Target m64 = target(Isa::Mips64R2), r6 = target(Isa::Mips64R6);
  CHECK(*run(c, m64, "wsbh $2, $4", {{a0, 0x11223344}}).reg(v0) == 0x22114433);
  CHECK(*run(c, m64, "wsbh $2, $4", {{a0, 0x00800000}}).reg(v0) == 0xffffffff80000000ull);
  CHECK(hasFault(run(c, m64, "wsbh $2, $4", {{a0, 0x100000000ull}}), FaultKind::Unpredictable));
  CHECK(*run(c, m64, "dsbh $2, $4", {{a0, 0x0102030405060708ull}}).reg(v0) == 0x0201040306050807ull);
  CHECK(*run(c, m64, "dshd $2, $4", {{a0, 0x0102030405060708ull}}).reg(v0) == 0x0708050603040102ull);
  CHECK(*run(c, m64, "seb $2, $4", {{a0, 0x1280}}).reg(v0) == 0xffffffffffffff80ull);
  CHECK(*run(c, m64, "seh $2, $4", {{a0, 0x17fff}}).reg(v0) == 0x7fff);
  // BITSWAP: the bits of each byte of the low word reversed, sign-extended
  CHECK(*run(c, r6, "bitswap $2, $4", {{a0, 0x01020380}}).reg(v0) == 0xffffffff8040c001ull);
  CHECK(*run(c, r6, "dbitswap $2, $4", {{a0, 0x0100000000000003ull}}).reg(v0) == 0x80000000000000c0ull);
  // ALIGN rd, rs, rt, bp: (rt << 8bp) | (rs >> 8(4-bp)) on the low words
  CHECK(*run(c, r6, "align $2, $4, $5, 1", {{a0, 0xaabbccdd}, {a1, 0x11223344}}).reg(v0) == 0x223344aa);
  CHECK(*run(c, r6, "align $2, $4, $5, 0", {{a0, 0xaabbccdd}, {a1, 0x91223344}}).reg(v0) ==
        0xffffffff91223344ull);
  CHECK(*run(c, r6, "dalign $2, $4, $5, 3", {{a0, 0xaabbccdd00000000ull}, {a1, 0x1122334455667788ull}})
             .reg(v0) == 0x4455667788aabbccull);
  // LSA: sign_extend((rs << sa) + rt); DLSA on the doubleword
  CHECK(*run(c, r6, "lsa $2, $4, $5, 2", {{a0, 3}, {a1, 10}}).reg(v0) == 22);
  CHECK(*run(c, r6, "lsa $2, $4, $5, 4", {{a0, 0x08000000}, {a1, 0}}).reg(v0) == 0xffffffff80000000ull);
  CHECK(*run(c, r6, "dlsa $2, $4, $5, 4", {{a0, 0x08000000}, {a1, 1}}).reg(v0) == 0x80000001ull);
}

TEST_CASE("clz, clo, dclz, dclo in both encodings", "[model_bitfield_pcrel]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2), m64 = target(Isa::Mips64R2), r6 = target(Isa::Mips64R6);
  CHECK(*run(c, m32, "clz $2, $4", {{a0, 0x00010000}}).reg(v0) == 15);
  CHECK(*run(c, m32, "clz $2, $4", {{a0, 0}}).reg(v0) == 32);
  CHECK(*run(c, m64, "clo $2, $4", {{a0, 0xffffffffffff0000ull}}).reg(v0) == 16);
  CHECK(*run(c, m64, "dclz $2, $4", {{a0, 1}}).reg(v0) == 63);
  CHECK(*run(c, r6, "dclz $2, $4", {{a0, 0}}).reg(v0) == 64);
  CHECK(*run(c, r6, "dclo $2, $4", {{a0, ~0ull}}).reg(v0) == 64);
  CHECK(*run(c, r6, "clo $2, $4", {{a0, 0xffffffffc0000000ull}}).reg(v0) == 2);
  // Pre-R6: rd and rt must name the same register (here rd 4, rt 2)
  CHECK(hasFault(run(c, m32, ".word 0x70822020", {{a0, 1}}), FaultKind::Unpredictable));
  CHECK(hasFault(run(c, m64, "clz $2, $4", {{a0, 0x100000000ull}}), FaultKind::Unpredictable));
}

TEST_CASE("madd, maddu, msub, msubu accumulate into HI and LO", "[model_bitfield_pcrel]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2), m64 = target(Isa::Mips64R2);
  // (HI || LO) + GPR[rs] * GPR[rt]
  ConcreteRun r = run(c, m32, "madd $4, $5", {{a0, 3}, {a1, 4}}, 0, 5);
  CHECK(*r.lo() == 17);
  CHECK(*r.hi() == 0);
  r = run(c, m32, "maddu $4, $5", {{a0, 0xffffffff}, {a1, 2}}, 0, 2);  // 0x1fffffffe + 2
  CHECK(*r.lo() == 0);
  CHECK(*r.hi() == 2);
  r = run(c, m32, "msub $4, $5", {{a0, 3}, {a1, 4}}, 0, 0);
  CHECK(*r.lo() == 0xfffffff4);
  CHECK(*r.hi() == 0xffffffff);
  r = run(c, m64, "msubu $4, $5", {{a0, 1}, {a1, 1}}, 1, 0);  // 0x1_00000000 - 1
  CHECK(*r.lo() == 0xffffffffffffffffull);
  CHECK(*r.hi() == 0);
}

TEST_CASE("R6 PC-relative arithmetic and loads use the instruction's own pc", "[model_bitfield_pcrel]") {
  z3::context c;
  mips::Target r6 = target(Isa::Mips64R6), r632 = target(Isa::Mips32R6, Endian::Little);
  CHECK(*run(c, r6, "lapc $2, .+8", {}).reg(v0) == 0x1008);
  CHECK(*run(c, r6, "nop\n addiupc $2, -8", {}).reg(v0) == 0xffc);
  CHECK(*run(c, r6, "nop\n auipc $2, 1", {}).reg(v0) == 0x11004);
  CHECK(*run(c, r6, "nop\n aluipc $2, 1", {}).reg(v0) == 0x10000);
  CHECK(*run(c, r6, "auipc $2, 0x8000", {}).reg(v0) == 0xffffffff80001000ull);
  // lwpc/lwupc read the word at pc + 4 * offset; ldpc the doubleword at (pc & ~7) + 8 * offset
  const char* data = "nop\n L: addiu $3, $3, 1\n addiu $3, $3, 2\n";  // L = 0x1008, executed too
  ConcreteRun r = run(c, r6, std::string("lwpc $2, L\n") + data, {});
  CHECK(*r.reg(v0) == 0x24630001);
  r = run(c, r6, std::string("ldpc $2, L\n") + data, {});
  CHECK(*r.reg(v0) == 0x2463000124630002ull);
  CHECK(*r.reg(v1) == 3);
  r = run(c, r6, "lwupc $2, L\n nop\n L: lui $3, 0x8000\n", {});
  CHECK(*r.reg(v0) == 0x3c038000);
  r = run(c, r6, "lwpc $2, L\n nop\n L: .word 0x80000000\n", {});
  CHECK(*r.reg(v0) == 0xffffffff80000000ull);
  r = run(c, r632, "lwpc $2, .+4\n addiu $3, $3, 1\n", {});
  CHECK(*r.reg(v0) == 0x24630001);
}

TEST_CASE("rdhwr, sigrie, shadow registers", "[model_bitfield_pcrel]") {
  z3::context c;
  mips::Target m32 = target(Isa::Mips32R2), r6 = target(Isa::Mips64R6);
  ConcreteRun r = run(c, m32, "rdhwr $2, $29", {});
  CHECK(r.faults.empty());
  CHECK(!r.reg(v0));  // UserLocal: a value nothing in the model determines
  CHECK(hasFault(run(c, m32, "rdhwr $2, $5", {}), FaultKind::ReservedInstruction));
  CHECK(run(c, r6, "rdhwr $2, $5, 0", {}).faults.empty());  // R6: XNP
  CHECK(hasFault(run(c, r6, "sigrie 7", {}), FaultKind::ReservedInstruction));
  r = run(c, m32, "wrpgpr $4, $5", {{a0, 1}, {a1, 2}});
  CHECK(!r.reg(a0));  // $4 changes only if the previous shadow set is the current one
  CHECK(!r.state.effects.empty());
}
