// The commands that execute code take arm64: `patchcheck run --isa arm64`
// forks on a flag condition and lists the sp alignment fault with its
// condition; `check` proves an ftrace-style NOP -> BL transition of an
// arm64 spec (little endian by default).
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
