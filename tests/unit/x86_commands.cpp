// `patchcheck asm` and `disasm` with --isa x86_64: units print as their
// bytes in memory order (an instruction over 8 bytes whole), `--format
// bin` writes them so, and disasm decodes a byte stream one instruction
// at a time, as long as each is. `run` fetches instructions at their byte
// addresses, however long each is.
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

TEST_CASE("run --isa x86_64 fetches instructions of any length at their byte addresses", "[x86_commands]") {
  TempDir dir;
  // 1 + 3 + 10 + 4 + 1 + 1 bytes: a movabs longer than the 8 bytes a unit's bits hold.
  writeFile(dir.file("s.s"),
            "  push %rbp\n  mov %rsp, %rbp\n  movabs $0x1122334455667788, %rax\n  add $1, %rdi\n  pop %rbp\n  ret\n");
  Ran r = sh(cli("run --isa x86_64 " + dir.file("s.s")), true);
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("6 instructions (20 bytes) at 0xffffffff80100000") != std::string::npos);
  CHECK(r.out.find("path 1: jumps to concat(in.mem[in.rsp + 0x7]") != std::string::npos);  // ret: the pushed address
  CHECK(r.out.find("  rax = 0x1122334455667788\n") != std::string::npos);
  CHECK(r.out.find("  rdi = in.rdi + 0x1\n") != std::string::npos);
  CHECK(r.out.find("  rsp = in.rsp + 0x8\n") != std::string::npos);
  CHECK(r.out.find("  mem64[in.rsp - 0x8] = in.rbp\n") != std::string::npos);
  CHECK(r.out.find("path 2") == std::string::npos);

  // A call to a symbolic T pushes F + 5 and reaches T when rel32 does; a
  // jump into the middle of an instruction is named as such.
  writeFile(dir.file("c.s"), "  call T\n");
  r = sh(cli("run --isa x86_64 --base 0xffffffff81000000 --symbolic T " + dir.file("c.s")), true);
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("path 1: jumps to sym.T\n  when sext64(sym.T[31:0] + 0x7efffffb) == (sym.T + 0x7efffffb)") !=
        std::string::npos);
  CHECK(r.out.find("  mem64[in.rsp - 0x8] = 0xffffffff81000005\n") != std::string::npos);
  writeFile(dir.file("j.s"), "  jmp 1f + 1\n1: movl $1, %eax\n");
  r = sh(cli("run --isa x86_64 --base 0x1000 " + dir.file("j.s")), true);
  INFO(r.out);
  CHECK(r.out.find("path 1: jumps to 0x1003, where no unit of the snippet starts") != std::string::npos);
}
