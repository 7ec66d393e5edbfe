// The user's tree, not the build's: trampolines are read from the spec's
// tree (a copy of specs/ and trampolines/ with an edited trampoline proves
// the edited file, and a table made before the edit no longer verifies);
// tables and certificates are the same bytes from any working directory and
// for an absolute or a relative spec path; verify-table finds the spec from
// the table, or says what to pass.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "output_support.h"

using namespace patchcheck::test;
using json = nlohmann::json;

namespace {

const std::string kSource = PATCHCHECK_SOURCE_DIR;
const std::string kTable = "out/mips-patchable-entry.json";

// A copy of the shipped specs and trampolines in `dir`.
void copyTree(const TempDir& dir) {
  REQUIRE(sh("cp -r " + kSource + "/specs " + kSource + "/trampolines " + dir.path()).status == 0);
}

Ran in(const std::string& cwd, const std::string& args) { return sh("cd " + cwd + " && " + cli(args), true); }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("check proves the trampoline of the spec's tree, not the shipped one", "[output_tree]") {
  TempDir dir;
  copyTree(dir);
  // ip = F + 4: a deliberately broken ftrace_regs_caller (tests/data/trampolines/wrong_ip.S).
  writeFile(dir.file("trampolines/mips/ftrace_regs_caller_64.S"),
            readFile(std::string(PATCHCHECK_TEST_DATA) + "/trampolines/wrong_ip.S"));
  Ran r = in(dir.path(), "check specs/mips/patchable-entry.toml --transition 'disabled->regs'");
  INFO(r.out);
  CHECK(r.status == 1);
  CHECK(has(r.out, "trampoline ftrace_regs_caller UNSAFE"));
  CHECK(has(r.out, "(trampolines/mips/ftrace_regs_caller_64.S)"));
  // The shipped tree still proves its own.
  Ran shipped = in(kSource, "check specs/mips/patchable-entry.toml --transition 'disabled->regs'");
  CHECK(shipped.status == 0);
  // --json names the file read and its digest.
  Ran j = in(dir.path(), "check --json specs/mips/patchable-entry.toml --transition 'disabled->regs'");
  json k = json::parse(j.out.substr(j.out.find('{')))["results"][0]["trampolines"][0];
  CHECK(k["source"] == "trampolines/mips/ftrace_regs_caller_64.S");
  Ran sum = sh("sha256sum " + dir.file("trampolines/mips/ftrace_regs_caller_64.S"));
  CHECK(k["source_sha256"] == sum.out.substr(0, 64));
}

TEST_CASE("--trampolines DIR replaces the spec tree's trampolines; without either, the error says what to pass",
          "[output_tree]") {
  TempDir dir;
  writeFile(dir.file("spec.toml"), readFile(kSource + "/specs/mips/patchable-entry.toml"));
  Ran missing = in(dir.path(), "check spec.toml --transition 'disabled->regs'");
  CHECK(missing.status == 2);
  CHECK(has(missing.out, "spec.toml:24:"));
  CHECK(has(missing.out, "pass --trampolines DIR"));
  Ran given = in(dir.path(), "check spec.toml --transition 'disabled->regs' --trampolines " + kSource + "/trampolines");
  INFO(given.out);
  CHECK(given.status == 0);
  Ran bad = in(dir.path(), "check spec.toml --trampolines no-such-dir");
  CHECK(bad.status == 2);
  CHECK(has(bad.out, "<command line>: error: --trampolines no-such-dir: not a directory"));
}

TEST_CASE("verify-table re-reads and re-hashes the trampolines of the spec's tree", "[output_tree]") {
  TempDir dir;
  copyTree(dir);
  REQUIRE(in(dir.path(), "table specs/mips/patchable-entry.toml -o out").status == 0);
  json t = json::parse(readFile(dir.file(kTable)));
  CHECK(t["targets"][0]["trampolines"][0]["source"] == "trampolines/mips/ftrace_regs_caller_64.S");
  REQUIRE(in(dir.path(), "verify-table " + kTable).status == 0);
  // A comment is enough: the certificate vouches for the bytes.
  std::string s = dir.file("trampolines/mips/ftrace_regs_caller_64.S");
  writeFile(s, readFile(s) + "# edited\n");
  Ran r = in(dir.path(), "verify-table " + kTable);
  INFO(r.out);
  CHECK(r.status == 1);
  CHECK(has(r.out, "trampoline ftrace_regs_caller: trampolines/mips/ftrace_regs_caller_64.S changed"));
  // Broken: the re-derived proof refutes it, and the file is named.
  writeFile(s, readFile(std::string(PATCHCHECK_TEST_DATA) + "/trampolines/wrong_ip.S"));
  Ran broken = in(dir.path(), "verify-table " + kTable);
  INFO(broken.out);
  CHECK(broken.status == 1);
  CHECK(has(broken.out, "trampolines/mips/ftrace_regs_caller_64.S changed"));
  CHECK(has(broken.out, "trampoline ftrace_regs_caller: UNSAFE"));
}

TEST_CASE("tables are the same bytes from any working directory and for absolute or relative spec paths",
          "[output_tree]") {
  TempDir dir;
  copyTree(dir);
  REQUIRE(in(dir.path(), "table specs/mips/patchable-entry.toml -o a").status == 0);
  REQUIRE(in(dir.file("specs/mips"), "table patchable-entry.toml -o ../../b").status == 0);
  REQUIRE(in("/", "table " + dir.file("specs/mips/patchable-entry.toml") + " -o " + dir.file("c")).status == 0);
  REQUIRE(in(dir.file("trampolines"), "table ../specs/mips/../mips/patchable-entry.toml -o ../d").status == 0);
  for (const char* f : {"mips-patchable-entry.json", "mips-patchable-entry.h"}) {
    INFO(f);
    std::string a = readFile(dir.file(std::string("a/") + f));
    CHECK(!a.empty());
    CHECK(a == readFile(dir.file(std::string("b/") + f)));
    CHECK(a == readFile(dir.file(std::string("c/") + f)));
    CHECK(a == readFile(dir.file(std::string("d/") + f)));
    CHECK_FALSE(has(a, dir.path()));  // no machine path
    CHECK_FALSE(has(a, kSource));
  }
  json t = json::parse(readFile(dir.file("a/mips-patchable-entry.json")));
  CHECK(t["spec"]["path"] == "specs/mips/patchable-entry.toml");
  CHECK(has(readFile(dir.file("a/mips-patchable-entry.h")), "from specs/mips/patchable-entry.toml; do not edit."));
  for (const json& k : t["certificate"]["trampolines"])
    for (const json& f : k["files"]) CHECK(f["file"].get<std::string>().rfind("trampolines/mips/", 0) == 0);
}

TEST_CASE("verify-table finds the spec from the table in any working directory, or says to pass --spec",
          "[output_tree]") {
  TempDir dir, elsewhere;
  copyTree(dir);
  REQUIRE(in(dir.path(), "table specs/mips/patchable-entry.toml -o out").status == 0);
  Ran fromRoot = in("/", "verify-table " + dir.file(kTable));
  INFO(fromRoot.out);
  CHECK(fromRoot.status == 0);
  CHECK(has(fromRoot.out, ": OK: "));
  Ran fromOut = in(dir.file("out"), "verify-table mips-patchable-entry.json");
  CHECK(fromOut.status == 0);
  CHECK(has(fromOut.out, "re-derived from ../specs/mips/patchable-entry.toml"));
  // Out of the tree, the table cannot know where its spec is.
  REQUIRE(sh("cp -r " + dir.file("out") + " " + elsewhere.path()).status == 0);
  Ran lost = in("/", "verify-table " + elsewhere.file(kTable));
  CHECK(lost.status == 2);
  CHECK(has(lost.out, "cannot find the spec 'specs/mips/patchable-entry.toml'"));
  CHECK(has(lost.out, "pass --spec PATH"));
  Ran found = in("/", "verify-table " + elsewhere.file(kTable) + " --spec " + dir.file("specs/mips/patchable-entry.toml"));
  INFO(found.out);
  CHECK(found.status == 0);
}

TEST_CASE("command-line items: unknown command, --jobs 0, duplicate targets, one message per bad line, summary",
          "[output_tree]") {
  SECTION("an unknown command is named") {
    Ran r = sh(cli("frobnicate"), true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "<command line>: error: unknown command 'frobnicate'"));
  }
  SECTION("--jobs 0 is refused by every command that takes it") {
    for (std::string c : {"check", "table -o out", "gate", "verify-table"}) {
      INFO(c);
      Ran r = sh(cli(c + " --jobs 0 x.toml"), true);
      CHECK(r.status == 2);
      CHECK(has(r.out, "<command line>: error: --jobs 0"));
    }
  }
  SECTION("a target the command line makes twice is checked once") {
    Ran r = sh(cli("check --matrix --isa mips32r2 --transition 'disabled->regs' " + kSource +
                   "/specs/mips/patchable-entry.toml"));
    INFO(r.out);
    CHECK(r.status == 0);
    size_t n = 0;
    for (size_t at = r.out.find(" [mips32r2/o32/"); at != std::string::npos; at = r.out.find(" [mips32r2/o32/", at + 1)) ++n;
    CHECK(n == 2);  // big and little endian, once each
  }
  SECTION("one bad line is one message, not one per target") {
    TempDir dir;
    copyTree(dir);
    std::string spec = dir.file("specs/mips/patchable-entry.toml");
    std::string text = readFile(spec);
    // A region of 64-bit addresses: fine for the spec's targets, wrong for
    // every target --isa mips32r2 makes of the matrix.
    std::string matrix = "matrix = [\"mips32r2/o32\", \"mips64r2/n64\", \"mips32r6/o32\", \"mips64r6/n64\"]";
    REQUIRE(text.find(matrix) != std::string::npos);
    text.replace(text.find(matrix), matrix.size(), "matrix = [\"mips64r2/n64\", \"mips64r6/n64\"]");
    text += "\n[regions]\nxkphys = [\"0x9800000000000000\", \"0x98000000ffffffff\"]\n";
    writeFile(spec, text);
    REQUIRE(sh(cli("check --transition 'disabled->regs' " + spec)).status == 0);
    Ran r = sh("{ " + cli("check --matrix --isa mips32r2 " + spec) + " 2>&1 >/dev/null; }");  // stderr alone
    INFO(r.out);
    CHECK(r.status == 2);
    CHECK(r.out == spec + ":84:1: error: region 'xkphys' [0x9800000000000000, 0x98000000ffffffff] is not a range of "
                          "32-bit addresses (mips32r2) [for mips32r2/o32, given on the command line]\n");
  }
  SECTION("check --matrix --summary ends with one summary line") {
    Ran r = sh(cli("check --matrix --summary " + kSource + "/specs/mips/patchable-entry.toml"));
    INFO(r.out);
    CHECK(r.status == 0);
    std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
    CHECK(last.rfind("summary: 56 transitions (56 SAFE, 0 UNSAFE, 0 UNKNOWN), 32 states alone (32 SAFE, 0 UNSAFE, 0 UNKNOWN), 8 trampoline proofs (8 SAFE, 0 UNSAFE, 0 UNKNOWN); every item as expected", 0) == 0);
  }
}
