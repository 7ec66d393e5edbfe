// `patchcheck asm` and `disasm` with --isa x86_64: units print as their
// bytes in memory order (an instruction over 8 bytes whole), `--format
// bin` writes them so, and disasm decodes a byte stream one instruction
// at a time, as long as each is.
#include <catch2/catch.hpp>

#include "output_support.h"

using namespace patchcheck::test;

TEST_CASE("asm --isa x86_64 prints each unit's bytes in memory order", "[x86_commands]") {
  TempDir dir;
  writeFile(dir.file("s.s"),
            "  endbr64\n  call T\n  movabs $0x1122334455667788, %rax\n  {disp8} nopl 0x0(%rax,%rax,1)\n"
            "  .quad 0x0102030405060708\n");
  Ran r = sh(cli("asm --isa x86_64 --base 0xffffffff81000000 --sym T=0xffffffff81000100 " + dir.file("s.s")), true);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "f3 0f 1e fa\n"
        "e8 f7 00 00 00\n"
        "48 b8 88 77 66 55 44 33 22 11\n"
        "0f 1f 44 00 00\n"
        "08 07 06 05 04 03 02 01\n");
  r = sh(cli("asm --isa x86_64 --format bin -o " + dir.file("s.bin") + " --sym T=0x100 " + dir.file("s.s")), true);
  REQUIRE(r.status == 0);
  std::string bin = readFile(dir.file("s.bin"));
  REQUIRE(bin.size() == 4 + 5 + 10 + 5 + 8);
  CHECK(bin.substr(9, 10) == std::string("\x48\xb8\x88\x77\x66\x55\x44\x33\x22\x11", 10));
  r = sh(cli("asm --isa x86_64 --format json --sym T=0x100 " + dir.file("s.s")), true);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"word\": \"48b88877665544332211\"") != std::string::npos);
  CHECK(r.out.find("\"text\": \"movabs\\t$0x1122334455667788,%rax\"") != std::string::npos);
  // A symbol without an address is named at its line and column.
  r = sh(cli("asm --isa x86_64 " + dir.file("s.s")), true);
  CHECK(r.status == 2);
  CHECK(r.out.find("s.s:2:8: error: undefined symbol 'T'") != std::string::npos);
}

TEST_CASE("disasm --isa x86_64 decodes a byte stream of variable-length instructions", "[x86_commands]") {
  Ran r =
      sh(cli("disasm --isa x86_64 --base 0xffffffff81000000 0f1f440000 e8fb0f0000 48b88877665544332211 c3 ff"), true);
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "ffffffff81000000: 0f 1f 44 00 00       nopl 0x0(%rax,%rax,1)\n"
        "ffffffff81000005: e8 fb 0f 00 00       call ffffffff81001005\n"
        "ffffffff8100000a: 48 b8 88 77 66 55 44 33 22 11 movabs $0x1122334455667788,%rax\n"
        "ffffffff81000014: c3                   ret\n"
        "ffffffff81000015: ff                   (bad)\n");
  r = sh(cli("disasm --isa x86_64 0f1"), true);
  CHECK(r.status == 2);
  CHECK(r.out.find("<command line>:1:1: error: '0f1' is not bytes in hex") != std::string::npos);
  // Words stay words on a word ISA.
  r = sh(cli("disasm --isa arm64 d503201f"), true);
  CHECK(r.out == "0000000000000000: d503201f  nop\n");
}
