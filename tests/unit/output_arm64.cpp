// The output commands on arm64 specs (tests/data/specs/tables/arm64-*.toml):
// `table` (split ADR/ADRP fields described piece by piece, instruction
// byte order, certificate) and `verify-table`, `check --matrix`, `gate`
// (text, SARIF, JUnit, a baseline naming steps as the spec does), `graph`
// and `synth`. The header's encoders themselves are compiled and run under
// qemu-aarch64 by tests/oracle/table_arm64_qemu.cpp.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "output_support.h"

using namespace patchcheck::test;
using json = nlohmann::json;

namespace {

const std::string kCalls = std::string(PATCHCHECK_TEST_DATA) + "/specs/tables/arm64-calls.toml";
const std::string kBranches = std::string(PATCHCHECK_TEST_DATA) + "/specs/tables/arm64-branches.toml";

// The calls spec with the `wait` of off->lit dropped: a pass that fetched
// the old nop before the first write runs the new blr with a stale x16.
std::string unsafeCalls(const TempDir& dir) {
  std::string s = readFile(kCalls);
  // off->lit written live: LDR and BLR are outside the CMODX list.
  const std::string safe = "to = \"lit\"\nwhen = \"stop_machine\"\n";
  size_t at = s.find(safe);
  REQUIRE(at != std::string::npos);
  s.replace(at, safe.size(), "to = \"lit\"\n");
  const std::string expect = "expect = \"safe\"\n";  // no claim: an unsafe transition, not a mismatch
  size_t claim = s.find(expect, at);
  REQUIRE(claim != std::string::npos);
  s.erase(claim, expect.size());
  writeFile(dir.file("unsafe.toml"), s);
  return dir.file("unsafe.toml");
}

const json* unit(const json& target, const std::string& state, unsigned index) {
  for (const json& s : target["states"])
    if (s["name"] == state) return &s["words"][index];
  return nullptr;
}

}  // namespace

TEST_CASE("an arm64 table describes split fields piece by piece and verify-table re-derives it", "[output_arm64]") {
  TempDir dir;
  writeFile(dir.file("spec.toml"), readFile(kCalls));
  Ran r = sh("cd " + dir.path() + " && " + cli("table --matrix spec.toml -o out"), true);
  INFO(r.out);
  REQUIRE(r.status == 0);
  json t = json::parse(readFile(dir.file("out/tables-arm64-calls.json")));
  REQUIRE(t["targets"].size() == 2);
  const json& big = t["targets"][0];
  CHECK(big["target"] == "arm64/lp64/big");
  // adr x16, T: immlo (offset bits 1:0) at 30:29, immhi (20:2) at 23:5.
  const json* adr = unit(big, "adr", 2);
  REQUIRE(adr);
  CHECK((*adr)["fixed"] == "0x10000010");
  CHECK((*adr)["field_mask"] == "0x60ffffe0");
  CHECK((*adr)["encoding"]["kind"] == "adr_prel_lo21");
  CHECK((*adr)["encoding"]["formula"] == "S - P");
  CHECK((*adr)["encoding"]["pieces"] == json::parse(R"([{"from":2,"width":19,"at":5},{"from":0,"width":2,"at":29}])"));
  // adrp counts 4 KiB pages from the instruction's page.
  const json* adrp = unit(big, "adrp", 2);
  REQUIRE(adrp);
  CHECK((*adrp)["encoding"]["formula"] == "(S >> 12) - (P >> 12)");
  CHECK((*adrp)["encoding"]["slot_symbol"] == "F");
  CHECK((*adrp)["encoding"]["slot_addend"] == 4);
  // Instructions are little-endian on a big-endian target; the .quad is data.
  CHECK((*adrp)["byte_order"] == "little");
  CHECK((*unit(big, "adrp", 0))["byte_order"] == "big");
  CHECK((*unit(t["targets"][1], "adrp", 0))["byte_order"] == "little");
  CHECK(t["certificate"]["verification"]["all_unsat"] == true);

  std::string h = readFile(dir.file("out/tables-arm64-calls.h"));
  CHECK(h.find("#error") == std::string::npos);
  CHECK(h.find("tables_arm64_calls_arm64_lp64_be_unit_little_endian[5] PATCHCHECK_UNUSED = { 0, 1, 1, 1, 1 };") !=
        std::string::npos);
  CHECK(h.find("_le_unit_little_endian") == std::string::npos);  // nothing to say on a little-endian target
  // The host compiler takes the header with every warning on.
  writeFile(dir.file("t.c"), "#include \"out/tables-arm64-calls.h\"\nint main(void) { return 0; }\n");
  Ran cc = sh("cd " + dir.path() + " && cc -Wall -Wextra -Werror -c t.c -o t.o", true);
  INFO(cc.out);
  CHECK(cc.status == 0);

  std::string path = dir.file("out/tables-arm64-calls.json");
  Ran ok = sh("cd " + dir.path() + " && " + cli("verify-table out/tables-arm64-calls.json"), true);
  INFO(ok.out);
  CHECK(ok.status == 0);
  SECTION("a piece moved") {
    json bad = t;
    bad["targets"][0]["states"][3]["words"][2]["encoding"]["pieces"][1]["at"] = 28;
    writeFile(path, bad.dump(2) + "\n");
    Ran v = sh(cli("verify-table " + path));
    CHECK(v.status == 1);
    CHECK(v.out.find("/pieces/1/at") != std::string::npos);
  }
  SECTION("a byte order flipped") {
    json bad = t;
    bad["targets"][0]["states"][0]["words"][1]["byte_order"] = "big";
    writeFile(path, bad.dump(2) + "\n");
    CHECK(sh(cli("verify-table " + path)).status == 1);
  }
}

TEST_CASE("check --matrix proves the arm64 table specs in both byte orders", "[output_arm64]") {
  Ran r = sh(cli("check --matrix --summary --jobs 1 " + kCalls + " " + kBranches), true);
  INFO(r.out);
  CHECK(r.status == 0);
  for (const char* row : {"tables-arm64-calls               off->adrp             arm64/lp64/big          SAFE",
                          "tables-arm64-calls               off->adrp             arm64/lp64/little       SAFE",
                          "tables-arm64-branches            off->tbz              arm64/lp64/big          SAFE",
                          "tables-arm64-branches            off->cond             arm64/lp64/little       SAFE"})
    CHECK(r.out.find(row) != std::string::npos);
  CHECK(r.out.find("summary: 18 transitions (18 SAFE, 0 UNSAFE, 0 UNKNOWN), 20 states alone (20 SAFE") !=
        std::string::npos);
}

TEST_CASE("gate on an arm64 spec: SARIF, JUnit, and a baseline that names steps as the spec does", "[output_arm64]") {
  TempDir dir;
  std::string unsafe = unsafeCalls(dir);
  Ran sarif = sh(cli("gate --format sarif --jobs 1 " + unsafe));
  CHECK(sarif.status == 1);
  json s = json::parse(sarif.out);
  const json& results = s["runs"][0]["results"];
  REQUIRE(results.size() == 1);
  CHECK(results[0]["ruleId"] == "unsafe-transition");
  std::string text = results[0]["message"]["text"];
  CHECK(text.find("off->lit [arm64/lp64/little]: UNSAFE") == 0);
  CHECK(text.find("word 3 changes from 'nop' to 'blr x16' while this pass may fetch it") != std::string::npos);
  CHECK(results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 53);  // its steps line, which decides

  Ran junit = sh(cli("gate --format junit --jobs 1 " + unsafe));
  CHECK(junit.status == 1);
  CHECK(junit.out.find("tests=\"10\" failures=\"1\"") != std::string::npos);
  CHECK(junit.out.find("CMODX list") != std::string::npos);

  // Against a table of the safe spec, only off->lit changed: when it runs.
  REQUIRE(sh(cli("table --matrix " + kCalls + " -o " + dir.file("base"))).status == 0);
  Ran gate = sh(cli("gate --matrix --jobs 1 --baseline " + dir.file("base") + " " + unsafe), true);
  INFO(gate.out);
  CHECK(gate.status == 1);
  CHECK(gate.out.find("off->lit: when changed: certified stop_machine, now live") != std::string::npos);
  CHECK(gate.out.find("skipped 8 transition(s) unchanged") != std::string::npos);
}

TEST_CASE("graph draws an arm64 site with its data unit before F", "[output_arm64]") {
  TempDir dir;
  Ran r = sh(cli("graph " + kCalls + " --transition 'off->adrp' -o " + dir.file("g.dot")), true);
  INFO(r.out);
  REQUIRE(r.status == 0);
  // The two first writes may become visible in either order: check's 4
  // states along the writer's order and one mix.
  CHECK(r.out.find("off->adrp SAFE, 4 intermediate states and 1 mix a fetch may see (dashed), 5 edges; passes in "
                   "each: 0 break a rule") != std::string::npos);
  std::string dot = readFile(dir.file("g.dot"));
  CHECK(dot.find("[arm64/lp64/little]") != std::string::npos);
  CHECK(dot.find("data F-8: .quad T") != std::string::npos);
  CHECK(dot.find("word 1: adrp x16, T (new)") != std::string::npos);
  CHECK(dot.find("word 2: add x16, x16, :lo12:T (new)") != std::string::npos);
  CHECK(dot.find("write 2 (visible early)") != std::string::npos);
  CHECK(dot.find("word 3: blr x16 (new)") != std::string::npos);
  CHECK(dot.find("call T\\l") != std::string::npos);  // dot may wrap the line before it
  r = sh(cli("graph " + unsafeCalls(dir) + " --transition 'off->lit' --counterexample -o " + dir.file("c.dot")), true);
  REQUIRE(r.status == 0);
  std::string cx = readFile(dir.file("c.dot"));
  CHECK(cx.find("nop\\nword 3 (old)") != std::string::npos);  // fetched while the BLR may be written
  CHECK(cx.find("\\nword 1 (new)") != std::string::npos);
}

TEST_CASE("synth finds arm64 orders, a data unit's write included", "[output_arm64]") {
  Ran r = sh(cli("synth " + kCalls + " --transition 'off->adrp'"), true);
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("[arm64/lp64/little] off->adrp (fetch arm)") != std::string::npos);
  // Under stop_machine with no preemption one flush is enough.
  CHECK(r.out.find("safe order: write 1, write 2, write 3, flush  (4 steps, 1 barrier)") != std::string::npos);
  r = sh(cli("synth " + std::string(PATCHCHECK_TEST_DATA) + "/specs/model/data-literal-arm64.toml --transition store"),
         true);
  INFO(r.out);
  CHECK(r.status == 0);
  // A data unit is read by loads, which see the store without cache
  // maintenance: the write alone publishes it, as the check agrees
  // (docs/model.md "Publication").
  CHECK(r.out.find("safe order: write -1  (1 step, 0 barriers)") != std::string::npos);
}
