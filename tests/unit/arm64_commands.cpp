// The commands that execute code take arm64: `patchcheck run --isa arm64`
// forks on a flag condition and lists the sp alignment fault with its
// condition; `check` proves an ftrace-style NOP -> BL transition of an
// arm64 spec (little endian by default); `asm --format bin` and `disasm
// --file` keep A64 instructions little-endian on a big-endian target.
#include <catch2/catch.hpp>

#include "output_support.h"

using namespace patchcheck::test;

TEST_CASE("run --isa arm64 forks on NZCV and lists faults with their conditions", "[arm64_commands]") {
  TempDir dir;
  writeFile(dir.file("s.s"), "  cmp x0, #5\n  b.hs 1f\n  ldr x1, [sp, #8]\n  ret\n1: mov w2, #7\n  ret\n");
  Ran r = sh(cli("run --isa arm64 " + dir.file("s.s")), true);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("target arm64/lp64/little") != std::string::npos);
  // b.hs: taken when x0 >= 5 (unsigned): w2 = 7, upper half zero
  size_t taken = r.out.find("path 1: jumps to in.x30");
  REQUIRE(taken != std::string::npos);
  CHECK(r.out.find("x2 = 0x7\n", taken) != std::string::npos);
  size_t fall = r.out.find("path 2: jumps to in.x30");
  REQUIRE(fall != std::string::npos);
  CHECK(r.out.find("sp is not 16-byte aligned (SP alignment fault)", fall) != std::string::npos);
  CHECK(r.out.find("when in.sp[3:0] != 0x0", fall) != std::string::npos);
  CHECK(r.out.find("path 3") == std::string::npos);
}

TEST_CASE("check proves an arm64 NOP -> BL transition and refuses a BL that loses x30", "[arm64_commands]") {
  TempDir dir;
  std::string spec = "schema = 1\n[target]\nisa = \"arm64\"\n[site]\nwords = 2\n[symbols]\n"
                     "F = { in = \"kernel-text\" }\nT = { in = \"kernel-text\" }\n[states]\n"
                     "off = [\"mov x9, x30\", \"nop\"]\non = [\"mov x9, x30\", \"bl T\"]\n[behaviour]\n"
                     "off = \"untraced\"\non = \"call T\"\n[[transition]]\nfrom = \"off\"\nto = \"on\"\n"
                     "steps = [\"write 1\", \"flush\"]\n";
  writeFile(dir.file("good.toml"), spec);
  Ran r = sh(cli("check " + dir.file("good.toml")), true);
  CHECK(r.status == 0);
  CHECK(r.out.find("[arm64/lp64/little]") != std::string::npos);
  CHECK(r.out.find("SAFE") != std::string::npos);
  // Without `mov x9, x30` the caller's return address is gone at T.
  std::string bad = spec;
  for (size_t at; (at = bad.find("\"mov x9, x30\"")) != std::string::npos;) bad.replace(at, 13, "\"nop\"");
  writeFile(dir.file("bad.toml"), bad);
  r = sh(cli("check " + dir.file("bad.toml")), true);
  CHECK(r.status == 1);
  CHECK(r.out.find("x30 clobbered") != std::string::npos);
}

TEST_CASE("arm64 instructions are little-endian in asm --format bin and disasm --file, even on big-endian data",
          "[arm64_commands]") {
  TempDir dir;
  writeFile(dir.file("s.s"), "  nop\n  .word 0x11223344\n  .inst 0xd65f03c0\n  .quad 0x0102030405060708\n");
  Ran r = sh(cli("asm --isa arm64 --endian big --format bin -o " + dir.file("big.bin") + " " + dir.file("s.s")), true);
  REQUIRE(r.status == 0);
  // nop and .inst (ret) little-endian; .word and .quad in the data's order
  CHECK(readFile(dir.file("big.bin")) == std::string("\x1f\x20\x03\xd5"
                                                     "\x11\x22\x33\x44"
                                                     "\xc0\x03\x5f\xd6"
                                                     "\x01\x02\x03\x04\x05\x06\x07\x08",
                                                     20));
  r = sh(cli("asm --isa arm64 --format bin -o " + dir.file("little.bin") + " " + dir.file("s.s")), true);
  REQUIRE(r.status == 0);
  CHECK(readFile(dir.file("little.bin")) == std::string("\x1f\x20\x03\xd5"
                                                        "\x44\x33\x22\x11"
                                                        "\xc0\x03\x5f\xd6"
                                                        "\x08\x07\x06\x05\x04\x03\x02\x01",
                                                        20));
  // disasm --file reads instructions little-endian whatever the data's order
  writeFile(dir.file("code.bin"), std::string("\x1f\x20\x03\xd5\xc0\x03\x5f\xd6", 8));
  for (const char* endian : {"big", "little"}) {
    r = sh(cli(std::string("disasm --isa arm64 --endian ") + endian + " --file " + dir.file("code.bin")), true);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("d503201f") != std::string::npos);
    CHECK(r.out.find("nop") != std::string::npos);
    CHECK(r.out.find("d65f03c0") != std::string::npos);
    CHECK(r.out.find("ret") != std::string::npos);
  }
}

TEST_CASE("MIPS instructions keep the target's byte order in asm --format bin and disasm --file",
          "[arm64_commands]") {
  TempDir dir;
  writeFile(dir.file("s.s"), "  addiu $2, $3, 1\n");  // 0x24620001
  Ran r = sh(cli("asm --isa mips32r2 --endian big --format bin -o " + dir.file("be.bin") + " " + dir.file("s.s")), true);
  REQUIRE(r.status == 0);
  CHECK(readFile(dir.file("be.bin")) == std::string("\x24\x62\x00\x01", 4));
  r = sh(cli("asm --isa mips32r2 --endian little --format bin -o " + dir.file("le.bin") + " " + dir.file("s.s")), true);
  REQUIRE(r.status == 0);
  CHECK(readFile(dir.file("le.bin")) == std::string("\x01\x00\x62\x24", 4));
  r = sh(cli("disasm --isa mips32r2 --endian little --file " + dir.file("le.bin")), true);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("24620001") != std::string::npos);
}

TEST_CASE("asm --format hex, c and json show an 8-byte .quad whole", "[arm64_commands]") {
  TempDir dir;
  writeFile(dir.file("s.s"), "nop\n.quad 0x1122334455667788\n");
  Ran hex = sh(cli("asm --isa arm64 " + dir.file("s.s")));
  CHECK(hex.out == "d503201f\n1122334455667788\n");
  Ran c = sh(cli("asm --isa arm64 --format c " + dir.file("s.s")));
  CHECK(c.out.find("0x1122334455667788ull,") != std::string::npos);
  Ran j = sh(cli("asm --isa arm64 --format json " + dir.file("s.s")));
  CHECK(j.out.find("\"word\": \"0x1122334455667788\"") != std::string::npos);
  CHECK(j.out.find("\"bytes\": 8") != std::string::npos);
}
