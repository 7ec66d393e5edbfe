// Patch tables: SHA-256 against the FIPS 180-2 example vectors and
// coreutils' sha256sum; words against ../shared/FACTS.md; byte-identical
// output across runs and --jobs; verify-table catches a flipped bit, a
// swapped order and an edited spec.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "checker/explore/Sha256.h"
#include "checker/report/Certificate.h"
#include "output_support.h"

using namespace patchcheck;
using namespace patchcheck::test;
using json = nlohmann::json;

namespace {

const std::string kSpec = std::string(PATCHCHECK_SOURCE_DIR) + "/specs/mips/patchable-entry.toml";

// Copies the spec and the trampolines it names into `dir` and tables it
// there; returns the JSON path.
std::string tableIn(const TempDir& dir, const std::string& extra = "") {
  writeFile(dir.file("spec.toml"), readFile(kSpec));
  REQUIRE(sh("cp -r " + std::string(PATCHCHECK_SOURCE_DIR) + "/trampolines " + dir.path()).status == 0);
  Ran r = sh("cd " + dir.path() + " && " + cli("table spec.toml -o out " + extra));
  REQUIRE(r.status == 0);
  return dir.file("out/mips-patchable-entry.json");
}

Ran verify(const TempDir& dir) {
  return sh("cd " + dir.path() + " && " + cli("verify-table out/mips-patchable-entry.json"));
}

}  // namespace

TEST_CASE("SHA-256 gives the FIPS 180-2 example digests", "[output_table]") {
  CHECK(sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256Hex(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("the certificate's digests are those sha256sum computes", "[output_table]") {
  TempDir dir;
  json t = json::parse(readFile(tableIn(dir)));
  Ran sum = sh("sha256sum " + dir.file("spec.toml"));
  REQUIRE(sum.status == 0);
  CHECK(t["certificate"]["spec_sha256"] == sum.out.substr(0, 64));
  auto spec = loadSpec(dir.file("spec.toml"));
  REQUIRE(std::holds_alternative<Spec>(spec));
  writeFile(dir.file("table.txt"), instructionTableText(std::get<Spec>(spec)));
  Ran tsum = sh("sha256sum " + dir.file("table.txt"));
  CHECK(t["certificate"]["instruction_table_sha256"] == tsum.out.substr(0, 64));
  CHECK(t["certificate"]["tool"] == std::string("patchcheck ") + PATCHCHECK_VERSION);
  CHECK(t["certificate"]["model"]["fetch"] == "weak");
  CHECK(t["certificate"]["verification"]["all_unsat"] == true);
}

TEST_CASE("the table's words are the FACTS.md encodings", "[output_table]") {
  TempDir dir;
  json t = json::parse(readFile(tableIn(dir)));
  const json& states = t["targets"][0]["states"];
  auto word = [&](const std::string& state, unsigned i) -> json {
    for (const json& s : states)
      if (s["name"] == state) return s["words"][i];
    return {};
  };
  CHECK(word("nop", 1)["word"] == "0x00000000");         // nop
  CHECK(word("disabled", 2)["word"] == "0x240c0000");    // li t0, 0 (FACTS: 0x240c0000)
  CHECK(word("noregs", 2)["word"] == "0x240c0001");      // li t0, 1
  // lui at, %hi(ftrace_regs_caller): opcode 0x0f, rt = $1, field = %hi.
  CHECK(word("regs", 0)["fixed"] == "0x3c010000");
  CHECK(word("regs", 0)["field_mask"] == "0x0000ffff");
  CHECK(word("regs", 0)["encoding"]["kind"] == "hi");
  // The order of disabled->noregs as the spec gives it, with its barriers.
  for (const json& tr : t["targets"][0]["transitions"])
    if (tr["name"] == "disabled->noregs") {
      REQUIRE(tr["steps"].size() == 4);
      CHECK(tr["steps"][0]["index"] == 2);
      CHECK(tr["steps"][1]["op"] == "flush");
      CHECK(tr["steps"][2]["index"] == 1);
      CHECK(tr["verification"]["verdict"] == "SAFE");
    }
}

TEST_CASE("tables are byte-identical across runs and --jobs", "[output_table]") {
  TempDir a, b;
  tableIn(a, "--matrix --jobs 1");
  tableIn(b, "--matrix --jobs 2");
  for (const char* f : {"out/mips-patchable-entry.json", "out/mips-patchable-entry.h"}) {
    INFO(f);
    std::string x = readFile(a.file(f)), y = readFile(b.file(f));
    CHECK(!x.empty());
    CHECK(x == y);
  }
  CHECK(json::parse(readFile(a.file("out/mips-patchable-entry.json")))["targets"].size() == 8);
}

TEST_CASE("verify-table accepts a fresh table and catches a flipped bit, a swapped order, an edited spec",
          "[output_table]") {
  TempDir dir;
  std::string path = tableIn(dir);
  std::string original = readFile(path);
  CHECK(verify(dir).status == 0);

  SECTION("flipped bit") {
    json t = json::parse(original);
    t["targets"][0]["states"][3]["words"][2]["word"] = "0x240c0003";  // li t0, 1 with bit 1 flipped
    writeFile(path, t.dump(2) + "\n");
    Ran r = verify(dir);
    CHECK(r.status == 1);
    CHECK(r.out.find("/targets/0/states/3/words/2/word") != std::string::npos);
  }
  SECTION("swapped order") {
    json t = json::parse(original);
    for (json& tr : t["targets"][0]["transitions"])
      if (tr["name"] == "disabled->noregs") std::swap(tr["steps"][0], tr["steps"][2]);
    writeFile(path, t.dump(2) + "\n");
    CHECK(verify(dir).status == 1);
  }
  SECTION("edited spec: a comment is enough") {
    writeFile(dir.file("spec.toml"), readFile(dir.file("spec.toml")) + "# edited\n");
    Ran r = verify(dir);
    CHECK(r.status == 1);
    CHECK(r.out.find("spec_sha256") != std::string::npos);
  }
  SECTION("edited header") {
    std::string h = dir.file("out/mips-patchable-entry.h");
    writeFile(h, readFile(h) + "\n");
    CHECK(verify(dir).status == 1);
  }
}

TEST_CASE("table writes nothing when a transition is not SAFE", "[output_table]") {
  TempDir dir;
  Ran r = sh(cli("table " + std::string(PATCHCHECK_TEST_DATA) + "/outputs/no-safe-order.toml " + kSpec +
                        " -o " + dir.file("out")));
  CHECK(r.status == 1);
  CHECK_FALSE(std::filesystem::exists(dir.file("out")));
}

TEST_CASE("a table of a site with a data unit before F: offsets, lengths, a header that computes the literal",
          "[output_table]") {
  TempDir dir;
  // The safe transition of the data-literal model spec (the other is UNSAFE).
  std::string spec = readFile(std::string(PATCHCHECK_TEST_DATA) + "/specs/model/data-literal.toml");
  spec = spec.substr(0, spec.rfind("[[transition]]"));
  writeFile(dir.file("spec.toml"), spec);
  REQUIRE(sh("cd " + dir.path() + " && " + cli("table spec.toml -o out")).status == 0);
  json t = json::parse(readFile(dir.file("out/model-data-literal.json")));
  CHECK(t["spec"]["units"] == 4);
  const json& a = t["targets"][0]["states"][0]["words"];
  CHECK(a[0]["offset"] == -4);
  CHECK(a[0]["bytes"] == 4);
  CHECK(a[0]["encoding"]["formula"] == "S");
  CHECK(a[1]["offset"] == 0);
  CHECK(a[1]["word"] == "0xef2fffff");  // lwpc t9, F-4: opcode 0x3b, rs = $25, 19-bit offset -1
  CHECK(t["targets"][0]["transitions"][0]["steps"][0]["index"] == 0);
  CHECK(sh("cd " + dir.path() + " && " + cli("verify-table out/model-data-literal.json")).status == 0);
  // The header compiles and its encoder gives the literal for a placement.
  writeFile(dir.file("t.c"),
            "#include <stdio.h>\n#include \"out/model-data-literal.h\"\n"
            "int main(void) { printf(\"%08x %d %u\\n\", model_data_literal_mips32r6_o32_be_b_w0(0xffffffff80123458ull),"
            " model_data_literal_mips32r6_o32_be_unit_offset[0], model_data_literal_mips32r6_o32_be_unit_bytes[0]);"
            " return 0; }\n");
  Ran cc = sh("cd " + dir.path() + " && (cc -Wall -Wextra -Werror t.c -o t || c++ -x c++ -Wall -Werror t.c -o t) 2>&1 && ./t");
  INFO(cc.out);
  REQUIRE(cc.status == 0);
  CHECK(cc.out == "80123458 -4 4\n");
}
