// Hand-checked encodings (values from docs/encoder.md, checked with GNU as
// 2.40) and the assembler's error classes.
#include <catch2/catch.hpp>

#include "encoder/mips/Assembler.h"
#include "encoder/mips/Printer.h"

using namespace patchcheck;
using namespace patchcheck::mips;

namespace {

mips::Target target(Isa isa, Abi abi) { return mips::Target{isa, Endian::Big, abi}; }

std::vector<uint32_t> words(const std::string& src, mips::Target t = target(Isa::Mips64R2, Abi::N64),
                            std::map<std::string, uint64_t> syms = {}, uint64_t base = 0) {
  AssemblyOptions o;
  o.target = t;
  o.symbols = std::move(syms);
  o.base = Value::constant(int64_t(base));
  auto a = assemble(src, "t.s", o);
  if (auto* e = std::get_if<Diagnostics>(&a)) FAIL((*e)[0].str());
  auto w = concreteWords(std::get<Assembly>(a));
  if (auto* e = std::get_if<Diagnostics>(&w)) FAIL((*e)[0].str());
  return std::get<std::vector<uint32_t>>(w);
}

std::string firstError(const std::string& src, mips::Target t = target(Isa::Mips64R2, Abi::N64),
                       bool unpredictable = false) {
  AssemblyOptions o;
  o.target = t;
  o.allowUnpredictable = unpredictable;
  auto a = assemble(src, "t.s", o);
  if (auto* e = std::get_if<Diagnostics>(&a)) return (*e)[0].str();
  return "";
}

}  // namespace

TEST_CASE("facts: fixed encodings", "[encoder_basics]") {
  CHECK(words("nop") == std::vector<uint32_t>{0x00000000});
  CHECK(words("ssnop; ehb; pause") == std::vector<uint32_t>{0x40, 0xc0, 0x140});
  CHECK(words("move $4, $5") == std::vector<uint32_t>{0x00a02025});
  CHECK(words("jalr $25") == std::vector<uint32_t>{0x0320f809});
  CHECK(words("jalr $4, $5") == std::vector<uint32_t>{0x00a02009});
  CHECK(words("jr $31") == std::vector<uint32_t>{0x03e00008});
  CHECK(words("jr $31", target(Isa::Mips64R6, Abi::N64)) == std::vector<uint32_t>{0x03e00009});
  CHECK(words("jr.hb $4", target(Isa::Mips64R6, Abi::N64)) == std::vector<uint32_t>{0x00800409});
  // The 2021 RFC enables tracing with jalr at, at (0x00200809): rd == rs.
  CHECK(firstError("jalr at, at").find("UNPREDICTABLE") != std::string::npos);
}

TEST_CASE("facts: li picks one word or refuses", "[encoder_basics]") {
  CHECK(words("li t0, 0") == std::vector<uint32_t>{0x240c0000});       // n64 t0 = $12
  CHECK(words("li t0, 1") == std::vector<uint32_t>{0x240c0001});
  CHECK(words("li t0, 1", target(Isa::Mips32R2, Abi::O32)) == std::vector<uint32_t>{0x24080001});
  CHECK(words("li $4, 0x8000") == std::vector<uint32_t>{0x34048000});
  CHECK(words("li $4, 0x12340000") == std::vector<uint32_t>{0x3c041234});
  CHECK(firstError("li $4, 0x12345678").find("more than one word") != std::string::npos);
}

TEST_CASE("facts: relocation operators carry", "[encoder_basics]") {
  std::map<std::string, uint64_t> s{{"f", 0xffffffff80128000ull}};
  CHECK(words("lui at, %hi(f); daddiu at, at, %lo(f)", target(Isa::Mips64R2, Abi::N64), s) ==
        std::vector<uint32_t>{0x3c018013, 0x64218000});
  // %hi is a prefix of %higher and %highest: the longest name wins
  // (encoder/mips/Relocations.cpp), each with its carry.
  std::map<std::string, uint64_t> g{{"g", 0x123456789abcdef0ull}};
  CHECK(words("lui at, %highest(g); daddiu at, at, %higher(g)", target(Isa::Mips64R2, Abi::N64), g) ==
        std::vector<uint32_t>{0x3c011234, 0x64215679});
}

TEST_CASE("jal region and alignment", "[encoder_basics]") {
  std::map<std::string, uint64_t> s{{"near", 0x80100000}, {"far", 0x90000000}};
  mips::Target t = target(Isa::Mips32R2, Abi::O32);
  CHECK(words("jal near", t, s, 0x80000000) == std::vector<uint32_t>{0x0c040000});
  AssemblyOptions o;
  o.target = t;
  o.symbols = s;
  o.base = Value::constant(0x80000000);
  auto a = assemble("jal far", "t.s", o);
  REQUIRE(std::holds_alternative<Diagnostics>(a));
  CHECK(std::get<Diagnostics>(a)[0].str().find("256 MB region") != std::string::npos);
}

TEST_CASE("error classes carry file:line:column", "[encoder_basics]") {
  CHECK(firstError("nop\n  addiu $4, $4, 70000") ==
        "t.s:2:17: error: operand 3 of 'addiu' is out of range: 70000 not in -32768..65535");
  CHECK(firstError("frob $4").find("t.s:1:1: error: unknown instruction 'frob'") == 0);
  CHECK(firstError("lwl $4, 0($5)", target(Isa::Mips64R6, Abi::N64)).find("not available in mips64r6") !=
        std::string::npos);
  CHECK(firstError("jalr $1, $1").find("UNPREDICTABLE") != std::string::npos);
  CHECK(firstError("jalr $1, $1", target(Isa::Mips64R2, Abi::N64), true).empty());
  CHECK(firstError("jr $31\njr $4").find("t.s:2:1: error: 'jr' in the delay slot") == 0);
  CHECK(firstError("beqzc $4, 1f\nbc 1f\n1: nop", target(Isa::Mips64R6, Abi::N64)).find("forbidden slot") !=
        std::string::npos);
  CHECK(firstError("b 1f\nnop\nnop\n2: nop").find("no local label 1 ahead") != std::string::npos);
  CHECK(firstError("daddu $4, $5, $6", target(Isa::Mips32R2, Abi::O32)).find("not available") != std::string::npos);
}

TEST_CASE("numeric local labels and branch offsets", "[encoder_basics]") {
  CHECK(words("1: b 1b\nnop") == std::vector<uint32_t>{0x1000ffff, 0});
  CHECK(words("b 1f\nnop\n1: nop") == std::vector<uint32_t>{0x10000001, 0, 0});
  CHECK(words("bc 1f\n1: nop", target(Isa::Mips64R6, Abi::N64)) == std::vector<uint32_t>{0xc8000000, 0});
}

TEST_CASE("disassembly round trip on the facts", "[encoder_basics]") {
  mips::Target t = target(Isa::Mips64R2, Abi::N64);
  CHECK(disassemble(0x00a02025, 0, t) == "move\ta0,a1");
  CHECK(disassemble(0x00200809, 0, t) == "jalr\tat,at");
  CHECK(disassemble(0x240c0000, 0, t) == "addiu\tt0,zero,0");
  CHECK(disassemble(0x7c000000, 0, t) == "ext\tzero,zero,0x0,0x1");
  CHECK(disassemble(0xec000000, 0, t) == ".word\t0xec000000");  // PCREL is R6 only
  CHECK(disassemble(0x46221080, 0, t) == ".word\t0x46221080\t# FPU (not modelled)");
  CHECK(disassemble(0x7c0a0010, 0, t) == ".word\t0x7c0a0010\t# DSP (not modelled)");
  CHECK(disassemble(0x03e00009, 0, target(Isa::Mips64R6, Abi::N64)) == "jr\tra");
}
