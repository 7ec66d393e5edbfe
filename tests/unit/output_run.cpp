// `patchcheck run` and the step limit through the one executor (model/Executor.h): a symbolic
// branch forks into two paths, each with its condition; a fault that may
// happen is listed with its condition; a loop stops at --max-steps.
#include <catch2/catch.hpp>

#include "output_support.h"

using namespace patchcheck::test;

namespace {

Ran run(const std::string& args, const std::string& source) {
  TempDir dir;
  writeFile(dir.file("s.s"), source);
  return sh(cli("run " + args + " " + dir.file("s.s")), true);
}

}  // namespace

TEST_CASE("run forks on a symbolic branch and lists faults with their conditions", "[output_run]") {
  Ran r = run("", "  beqz $a0, 1f\n  nop\n  lw $v0, 0($a1)\n  jr $ra\n  addiu $v0, $v0, 1\n"
                  "1: li $v0, 7\n  jr $ra\n  nop\n");
  REQUIRE(r.status == 0);
  // Taken first, then the fall-through with its load.
  size_t taken = r.out.find("path 1: jumps to in.ra\n  when (in.a0 == 0x0)");
  size_t fall = r.out.find("path 2: jumps to in.ra\n  when (in.a0 != 0x0)");
  CHECK(taken != std::string::npos);
  CHECK(fall != std::string::npos);
  CHECK(r.out.find("  v0 = 0x7\n") != std::string::npos);
  CHECK(r.out.find("load address is not 4-byte aligned") != std::string::npos);
  CHECK(r.out.find("when in.a1[1:0] != 0x0") != std::string::npos);
  CHECK(r.out.find("path 3") == std::string::npos);
}

TEST_CASE("run stops a loop at --max-steps", "[output_run]") {
  Ran r = run("--max-steps 40", "1: b 1b\n  nop\n");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("path 1: stops after 40 steps (a loop?)") != std::string::npos);
  r = run("", "1: b 1b\n  nop\n");
  CHECK(r.out.find("stops after 1024 steps") != std::string::npos);
}

TEST_CASE("run: a fault that always happens ends the path", "[output_run]") {
  Ran r = run("", "  break\n  nop\n");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("path 1: faults (") != std::string::npos);
}

TEST_CASE("check --max-steps: a pass that spins is a counterexample at the limit", "[output_run]") {
  std::string spec = std::string(PATCHCHECK_TEST_DATA) + "/soundness/runaway.toml";
  Ran r = sh(cli("check " + spec + " --max-steps 16"), true);
  CHECK(r.status == 1);
  CHECK(r.out.find("does not leave the site within 16 instructions") != std::string::npos);
  r = sh(cli("check " + spec), true);
  CHECK(r.status == 1);
  CHECK(r.out.find("within 1024 instructions") != std::string::npos);
}
