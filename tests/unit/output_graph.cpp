// Graphs through Graphviz's library: the nodes are the site's intermediate
// contents (counted by hand from the spec's steps), unsafe ones are red with
// the broken rule, and --counterexample draws the writer beside the pass.
#include <catch2/catch.hpp>

#include "output_support.h"

using namespace patchcheck::test;

namespace {

const std::string kSafe = std::string(PATCHCHECK_SOURCE_DIR) + "/specs/mips/patchable-entry.toml";
const std::string kUnsafe = std::string(PATCHCHECK_TEST_DATA) + "/outputs/unsafe-order.toml";

unsigned count(const std::string& s, const std::string& what) {
  unsigned n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("graph of a safe transition: one node per intermediate state, writes and barriers on edges",
          "[output_graph]") {
  TempDir dir;
  Ran r = sh(cli("graph " + kSafe + " --transition 'disabled->noregs' -o " + dir.file("g.dot")));
  REQUIRE(r.status == 0);
  std::string dot = readFile(dir.file("g.dot"));
  // write 2, flush, write 1, flush: disabled, then li t0,1 in, then the jalr.
  CHECK(count(dot, "shape=box") + count(dot, "shape=\"box\"") >= 1);
  CHECK(r.out.find("disabled->noregs SAFE, 3 intermediate states, 2 edges; passes in each: 0 break a rule") !=
        std::string::npos);
  CHECK(dot.find("flush; step 3: write 1") != std::string::npos);
  CHECK(dot.find("UNSAFE") == std::string::npos);
}

TEST_CASE("graph of an unsafe order marks the state that breaks in red", "[output_graph]") {
  TempDir dir;
  Ran r = sh(cli("graph " + kUnsafe + " --transition 'disabled->noregs' -o " + dir.file("g.svg")));
  REQUIRE(r.status == 0);
  std::string svg = readFile(dir.file("g.svg"));
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(svg.find("UNSAFE") != std::string::npos);
  CHECK(svg.find("red") != std::string::npos);
  // write 1 and write 2 share a barrier group: both orders of visibility.
  CHECK(r.out.find("disabled->noregs UNSAFE, 3 intermediate states and 1 mix a fetch may see (dashed), 4 edges; "
                   "passes in each: 1 break a rule") != std::string::npos);
  CHECK(svg.find("visible early") != std::string::npos);
}

TEST_CASE("graph --counterexample draws a timeline, as PNG too", "[output_graph]") {
  TempDir dir;
  Ran r = sh(cli("graph " + kUnsafe + " --transition 'disabled->noregs' --counterexample -o " +
                        dir.file("t.png")));
  REQUIRE(r.status == 0);
  std::string png = readFile(dir.file("t.png"));
  REQUIRE(png.size() > 8);
  CHECK(png.substr(1, 3) == "PNG");
  Ran dot = sh(cli("graph " + kUnsafe + " --transition 'disabled->noregs' --counterexample -o " +
                          dir.file("t.dot")));
  std::string text = readFile(dir.file("t.dot"));
  CHECK(text.find("cluster_writer") != std::string::npos);
  CHECK(text.find("writes landed") != std::string::npos);
  // A safe transition has no counterexample to draw: asking for one is a usage error.
  CHECK(sh(cli("graph " + kSafe + " --transition 'disabled->noregs' --counterexample -o " + dir.file("x.svg")))
            .status == 2);  // a usage error, not a verdict
  CHECK(sh(cli("graph " + kSafe + " --transition 'disabled->noregs' -o " + dir.file("x.txt"))).status == 2);
}

TEST_CASE("graph --transition picks a transition by its name; a FROM->TO two share is refused",
          "[output_graph]") {
  const std::string spec = std::string(PATCHCHECK_TEST_DATA) + "/specs/tables/x86-same-states.toml";
  TempDir dir;
  // The two nop->call transitions: a boot-time memcpy and text_poke_bp.
  Ran bp = sh(cli("graph " + spec + " --transition text_poke_bp -o " + dir.file("bp.dot")), true);
  INFO(bp.out);
  REQUIRE(bp.status == 0);
  std::string dot = readFile(dir.file("bp.dot"));
  CHECK(dot.find("text_poke_bp") != std::string::npos);
  CHECK(dot.find("int3") != std::string::npos);
  Ran boot = sh(cli("graph " + spec + " --transition at_boot -o " + dir.file("boot.dot")), true);
  INFO(boot.out);
  REQUIRE(boot.status == 0);
  std::string bootDot = readFile(dir.file("boot.dot"));
  CHECK(bootDot.find("at_boot") != std::string::npos);
  CHECK(bootDot.find("int3") == std::string::npos);  // a plain copy: no breakpoint
  Ran both = sh(cli("graph " + spec + " --transition 'nop->call' -o " + dir.file("both.dot")), true);
  CHECK(both.status == 2);
  CHECK(both.out.find("name one: at_boot, text_poke_bp") != std::string::npos);
}

TEST_CASE("graph tells check's story: a boot transition is SAFE and none of its contents is explored",
          "[output_graph]") {
  // Nothing runs the site while boot writes it (check: "boot: only the final
  // state matters"), so the picture may not paint its contents red.
  const std::string spec = std::string(PATCHCHECK_TEST_DATA) + "/specs/tables/x86-same-states.toml";
  TempDir dir;
  Ran r = sh(cli("graph " + spec + " --transition at_boot -o " + dir.file("boot.dot")), true);
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("at_boot SAFE, ") != std::string::npos);
  CHECK(r.out.find("boot: nothing runs the site while it is written, so no contents explored") != std::string::npos);
  std::string dot = readFile(dir.file("boot.dot"));
  CHECK(dot.find("UNSAFE") == std::string::npos);
  CHECK(dot.find("boot: nothing runs it while written") != std::string::npos);
  // check's count of intermediate states is graph's.
  Ran c = sh(cli("check " + spec + " --transition at_boot"), true);
  size_t at = c.out.find("at_boot");
  REQUIRE(at != std::string::npos);
  std::string states = c.out.substr(c.out.find("SAFE", at) + 4);
  states = states.substr(states.find_first_not_of(' '));
  states = states.substr(0, states.find(','));  // "N intermediate states"
  CHECK(r.out.find("at_boot SAFE, " + states) != std::string::npos);
}

TEST_CASE("graph keeps to its limits: at most kMaxGraphNodes contents, passes bounded by --max-seconds",
          "[output_graph]") {
  // A 12-byte plain write in one group: 2^12 mixes. Before the cap the
  // graph ran for minutes where check takes milliseconds.
  TempDir dir;
  std::string spec = dir.file("big.toml");
  writeFile(spec, R"toml(schema = 1
[target]
isa = "x86_64"
[site]
bytes = 12
[symbols]
F = { in = "kernel-text", align = 16 }
[states]
off = ["nopl 0x0(%rax,%rax,1)", "nopl 0x0(%rax,%rax,1)", "nop", "nop", "nop", "nop"]
on  = ["nopw 0x0(%rax,%rax,1)", "nopw 0x0(%rax,%rax,1)", "nop", "nop"]
[behaviour]
off = "untraced"
on  = "untraced"
[[transition]]
name = "plain"
from = "off"
to = "on"
steps = ["write 0..11", "sync_core"]
)toml");
  Ran r = sh(cli("graph " + spec + " --transition plain -o " + dir.file("g.dot")), true);
  INFO(r.out);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("plain UNSAFE, 13 intermediate states and 243+ mixes a fetch may see (dashed, the first 256 "
                   "contents drawn)") != std::string::npos);
  Ran none = sh(cli("graph " + spec + " --transition plain --max-seconds 0 -o " + dir.file("n.dot")), true);
  INFO(none.out);
  REQUIRE(none.status == 0);
  CHECK(none.out.find("256 not explored (--max-seconds ran out)") != std::string::npos);
  CHECK(readFile(dir.file("n.dot")).find("not explored (--max-seconds)") != std::string::npos);
}
