// `patchcheck asm` and `disasm` with a RISC-V target: units of 2 and 4
// bytes print as their own width, a bad line exits 2 naming its
// file:line:column, a word holding two compressed instructions prints
// both, and an ABI of the other register width is refused.
#include <catch2/catch.hpp>

#include "output_support.h"

using namespace patchcheck::test;

TEST_CASE("asm --isa rv64imac prints 2- and 4-byte units; bad input exits 2 at file:line:column", "[riscv_commands]") {
  TempDir dir;
  writeFile(dir.file("s.s"), "addi sp, sp, -16\n  sd ra, 8(sp)\nauipc t0, 0\n");
  Ran r = sh(cli("asm --isa rv64imac " + dir.file("s.s")), true);
  REQUIRE(r.status == 0);
  CHECK(r.out == "1141\ne406\n00000297\n");
  r = sh(cli("asm --isa rv64ima " + dir.file("s.s")), true);
  REQUIRE(r.status == 0);
  CHECK(r.out == "ff010113\n00113423\n00000297\n");
  writeFile(dir.file("bad.s"), "nop\n  jalr t0, 2048(t0)\n  csrw nosuchcsr, a0\n");
  r = sh(cli("asm --isa rv64imac " + dir.file("bad.s")), true);
  CHECK(r.status == 2);
  CHECK(r.out.find("bad.s:2:12: error: 2048 is out of range for 'jalr' (signed 12-bit)") != std::string::npos);
  CHECK(r.out.find("bad.s:3:8: error: undefined symbol 'nosuchcsr'") != std::string::npos);
  r = sh(cli("asm --isa rv64imac --abi ilp32 " + dir.file("s.s")), true);
  CHECK(r.status == 2);
  CHECK(r.out.find("ABI ilp32 needs RV32 (rv64imac takes lp64)") != std::string::npos);
}

TEST_CASE("disasm --isa rv64imac prints both compressed instructions of a word", "[riscv_commands]") {
  Ran r = sh(cli("disasm --isa rv64imac --base 0xffffffff80000000 e4061141 00000297 0000001f"), true);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "ffffffff80000000: e4061141  add sp,sp,-16; sd ra,8(sp)\n"
        "ffffffff80000004: 00000297  auipc t0,0x0\n"
        "ffffffff80000008: 0000001f  .2byte 0x1f; unimp\n");  // 0x001f announces a 48-bit instruction, which no extension here has: its parcel, then c.unimp
}
