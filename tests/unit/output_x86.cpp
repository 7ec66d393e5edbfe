// The output commands on x86 byte sites: `graph` judges each intermediate
// state as the checker does (a breakpoint the writer placed traps to the
// spec's int3 handler), labels each byte of a `write I..J` alone and the
// spec's steps once; `synth` finds text_poke_bp's order with int3 and
// sync_core, or says that no order exists; `gate` in every format, and
// against a certified table whose steps are byte ranges. Tables
// themselves: tests/unit/output_table.cpp.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "output_support.h"

using namespace patchcheck::test;
using json = nlohmann::json;

namespace {

const std::string kData = std::string(PATCHCHECK_TEST_DATA) + "/specs/";
const std::string kMinimal = kData + "x86/int3-minimal.toml";  // F and ftrace_caller placed anywhere
const std::string kPlaced = kData + "x86/placed.toml";         // F and T at fixed addresses
const std::string kCalls = kData + "tables/x86-calls.toml";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// `spec` with [model] int3_handler = `handler`, in `dir`.
std::string withHandler(const TempDir& dir, const std::string& spec, const std::string& handler) {
  std::string path = dir.file(handler + ".toml");
  writeFile(path, readFile(spec) + "\n[model]\nint3_handler = \"" + handler + "\"\n");
  return path;
}

}  // namespace

TEST_CASE("graph judges a byte site's intermediate states with the spec's int3 handler", "[output_x86]") {
  // text_poke_bp from the nop to a call: the int3 alone, then every subset
  // of bytes 1..4 behind it (16 states with the breakpoint), the start and
  // the end. What passes through a state with the breakpoint do is the
  // handler's: emulate the call, skip the instruction, or trap.
  struct Case {
    const char* handler;
    const char* summary;
    const char* passes;  // at a state with the breakpoint
  };
  const Case cases[] = {
      // check's 7 intermediate states along the writer's order, and the
      // mixes of bytes 1..4 a fetch may see early.
      {"emulate", "nop->call SAFE, 7 intermediate states and 11 mixes a fetch may see (dashed), 34 edges; "
                  "passes in each: 0 break a rule", "passes: call ftrace_caller\\l"},
      {"skip", "nop->call SAFE, 7 intermediate states and 11 mixes a fetch may see (dashed), 34 edges; "
               "passes in each: 0 break a rule", "passes: untraced\\l"},
      {"none", "nop->call UNSAFE, 7 intermediate states and 11 mixes a fetch may see (dashed), 34 edges; "
               "passes in each: 16 break a rule", "UNSAFE: break: int3"},
  };
  TempDir dir;
  for (const Case& c : cases) {
    INFO(c.handler);
    Ran r = sh(cli("graph " + withHandler(dir, kMinimal, c.handler) + " --transition 'nop->call' -o " + dir.file("g.dot")),
               true);
    INFO(r.out);
    REQUIRE(r.status == 0);
    CHECK(has(r.out, c.summary));
    std::string dot = readFile(dir.file("g.dot"));
    CHECK(has(dot, "byte 0: cc int3 (interim)\\lbyte 1: 1f {disp8} nopl 0x0(%rax,%rax,1) [+1]\\l"));
    CHECK(has(dot, c.passes));
  }
  // Labels: the spec's steps once in the title, each byte of the range alone on its edge.
  std::string dot = readFile(dir.file("g.dot"));
  CHECK(has(dot, "nop->call [x86_64/sysv/little]: write 0 = \\\"int3\\\", sync_core, write 1..4, sync_core, write 0, "
                 "sync_core"));
  CHECK_FALSE(has(dot, "write 1..4, write 1..4"));
  CHECK(has(dot, "step 1: write 0 = \\\"int3\\\""));
  CHECK(has(dot, "sync_core; step 3: write 1 (of write 1..4)"));
  CHECK(has(dot, "step 3: write 4 (of write 1..4)"));
  CHECK(has(dot, "sync_core; step 5: write 0"));
  CHECK(has(dot, "write 3 (visible early)"));
  // A byte the placement decides shows as ??.
  CHECK(has(dot, "byte 1: ?? call ftrace_caller [+1] (new)"));
}

TEST_CASE("graph --counterexample of a torn x86 write: each byte write on the writer's lane, the fetch beside them",
          "[output_x86]") {
  TempDir dir;
  Ran r = sh(cli("graph " + kPlaced + " --transition 'call->nop' --counterexample -o " + dir.file("c.dot")), true);
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK(has(r.out, "call->nop UNSAFE"));
  std::string dot = readFile(dir.file("c.dot"));
  for (const char* w : {"write 0 (of write 0..4)", "write 4 (of write 0..4)", "label=sync_core"}) {
    INFO(w);
    CHECK(has(dot, w));
  }
  // The torn instruction: five bytes fetched, the last after 4 writes landed.
  CHECK(has(dot, "psubq 0x0(%rax,%rax,1),%mm0\\nbyte 0..4 (new old new new new)"));
  CHECK(has(dot, "label=\"4 writes landed\""));
}

TEST_CASE("synth finds text_poke_bp's order on an x86 site, and says when no order exists", "[output_x86]") {
  // Bytes 0..2 differ (0f 1f 44 -> e8 fb 0f): the int3 first, sync_core,
  // the rest, sync_core, the first byte, sync_core.
  Ran r = sh(cli("synth " + kPlaced + " --transition 'nop->call'"), true);
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(has(r.out, "nop->call (fetch x86)"));
  CHECK(has(r.out, "safe order: write 0 = \"int3\", sync_core, write 1, write 2, sync_core, write 0, sync_core  "
                   "(7 steps, 3 barriers)"));
  CHECK(has(r.out, "proof: SAFE"));

  // Without a handler the breakpoint traps, and every first byte breaks a pass.
  TempDir dir;
  Ran none = sh(cli("synth " + withHandler(dir, kPlaced, "none") + " --transition 'nop->call'"), true);
  INFO(none.out);
  CHECK(none.status == 1);
  CHECK(has(none.out, "no safe order exists: every order of single-byte writes (int3 where an instruction starts "
                      "included) fails (with any barriers)"));
  CHECK(has(none.out, "first write 0 = \"int3\": after [write 0 = \"int3\"]: bytes seen byte 0 interim 'int3': "
                      "break: int3"));
  CHECK(has(none.out, "first write 0: after [write 0]: bytes seen byte 0 new, bytes 1..4 old"));
  CHECK(has(none.out, "first write 1: after [write 1]"));
  CHECK(has(none.out, "first write 2: after [write 2]"));

  // x86 fetch is its architecture's; `sync` and `flush` are no x86 steps.
  Ran weak = sh(cli("synth " + kPlaced + " --transition 'nop->call' --fetch weak"), true);
  CHECK(weak.status == 2);
  CHECK(has(weak.out, "<command line>: error: --fetch weak: x86_64 instruction fetch follows its architecture's model"));
  CHECK_FALSE(has(r.out, "flush"));
}

TEST_CASE("gate on x86 specs: text, JSON, SARIF and JUnit name the torn bytes", "[output_x86]") {
  TempDir dir;
  // The plain write without its claim: an unsafe transition, not a mismatch.
  std::string spec = readFile(kPlaced);
  const std::string claim = "steps = [\"write 0..4\", \"sync_core\"]\nexpect = \"unsafe\"\n";
  REQUIRE(has(spec, claim));
  spec.replace(spec.find(claim), claim.size(), "steps = [\"write 0..4\", \"sync_core\"]\n");
  writeFile(dir.file("torn.toml"), spec);
  std::string torn = dir.file("torn.toml");

  Ran text = sh(cli("gate --jobs 1 " + torn + " " + kMinimal));
  CHECK(text.status == 1);
  CHECK(has(text.out, "bytes seen:  byte 0 new, byte 1 old, bytes 2..4 new"));
  CHECK(has(text.out, "gate: FAIL"));

  Ran j = sh(cli("gate --format json --jobs 1 " + torn));
  CHECK(j.status == 1);
  json results = json::parse(j.out)["results"][0];
  CHECK(results["transitions"][1]["verdict"] == "UNSAFE");
  CHECK(results["transitions"][1]["counterexample"]["schedule"].size() == 5);  // one fetch per byte

  Ran sarif = sh(cli("gate --format sarif --jobs 1 " + torn));
  CHECK(sarif.status == 1);
  json s = json::parse(sarif.out);
  const json& r = s["runs"][0]["results"];
  REQUIRE(r.size() == 1);
  CHECK(r[0]["ruleId"] == "unsafe-transition");
  std::string message = r[0]["message"]["text"];
  // The fault is the mix's, not either state's: the message says which bytes of which version.
  CHECK(message.find("call->nop [x86_64/sysv/little]: UNSAFE: torn fetch: bytes 0..4 (new old new new new) decode as "
                     "'psubq 0x0(%rax,%rax,1),%mm0', an instruction of neither state: reserved instruction: psubq") == 0);
  CHECK(has(message, "byte 0 new, byte 1 old"));
  CHECK(r[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 39);  // its steps line, which decides

  Ran junit = sh(cli("gate --format junit --jobs 1 " + torn));
  CHECK(junit.status == 1);
  CHECK(has(junit.out, "tests=\"4\" failures=\"1\""));
  CHECK(has(junit.out, "name=\"call-&gt;nop\""));
}

TEST_CASE("gate against a certified x86 table: only the transition whose byte steps changed is checked",
          "[output_x86]") {
  TempDir dir;
  REQUIRE(sh(cli("table " + kCalls + " -o " + dir.file("base"))).status == 0);
  // nop->call with its middle sync_core dropped.
  std::string spec = readFile(kCalls);
  const std::string order = "to = \"call\"\nsteps = ['write 0 = \"int3\"', \"sync_core\", \"write 1..4\", \"sync_core\", ";
  REQUIRE(has(spec, order));
  spec.replace(spec.find(order), order.size(), "to = \"call\"\nsteps = ['write 0 = \"int3\"', \"sync_core\", \"write 1..4\", ");
  writeFile(dir.file("edited.toml"), spec);
  Ran gate = sh(cli("gate --jobs 1 --baseline " + dir.file("base") + " " + dir.file("edited.toml")), true);
  INFO(gate.out);
  CHECK(gate.status == 1);  // byte 0 may land before the rel32: a torn call
  CHECK(has(gate.out, "nop->call: steps changed: certified [write 0 (int3), sync_core, write 1..4 (call T), "
                      "sync_core, write 0 (call T), sync_core], now [write 0 (int3), sync_core, write 1..4 (call T), "
                      "write 0 (call T), sync_core]"));
  CHECK(has(gate.out, "skipped 3 transition(s) unchanged"));
}
