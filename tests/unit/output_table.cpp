// Patch tables: SHA-256 against the FIPS 180-2 example vectors and
// coreutils' sha256sum; words against docs/semantics.md; byte-identical
// output across runs and --jobs; verify-table catches a flipped bit, a
// swapped order and an edited spec. An x86 table's header is compiled and
// run with the host gcc, its byte arrays and its call encoder compared with
// GNU as and ld (binutils) assembling the same instructions.
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

TEST_CASE("a table of a spec whose trampoline path is absolute does not change when the spec moves",
          "[output_table]") {
  // The trampolines lie outside both spec trees; tabled from two folders
  // at different depths, the table names them as given, not through
  // "../" steps from wherever the spec sits.
  TempDir code, a, b;
  REQUIRE(sh("cp -r " + std::string(PATCHCHECK_SOURCE_DIR) + "/trampolines " + code.path()).status == 0);
  std::string spec = readFile(kSpec);
  const std::string relative = "\"mips/ftrace_regs_caller.S\"";
  REQUIRE(spec.find(relative) != std::string::npos);
  spec.replace(spec.find(relative), relative.size(), "\"" + code.file("trampolines/mips/ftrace_regs_caller.S") + "\"");
  REQUIRE(sh("mkdir -p " + b.file("deeper/still")).status == 0);
  std::string at[] = {a.path(), b.file("deeper/still")};
  for (const std::string& dir : at) {
    writeFile(dir + "/spec.toml", spec);
    REQUIRE(sh("cd " + dir + " && " + cli("table spec.toml -o out")).status == 0);
  }
  for (const char* f : {"/out/mips-patchable-entry.json", "/out/mips-patchable-entry.h"}) {
    INFO(f);
    std::string x = readFile(at[0] + f), y = readFile(at[1] + f);
    CHECK(!x.empty());
    CHECK(x == y);
  }
  CHECK_THAT(readFile(at[0] + "/out/mips-patchable-entry.json"),
             Catch::Matchers::Contains(code.file("trampolines/mips/ftrace_regs_caller_64.S")));
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

TEST_CASE("table writes nothing when a transition is UNSAFE and not expected so", "[output_table]") {
  TempDir dir;
  std::string spec = readFile(std::string(PATCHCHECK_TEST_DATA) + "/outputs/no-safe-order.toml");
  size_t at = spec.find("expect = \"unsafe\"");
  REQUIRE(at != std::string::npos);
  writeFile(dir.file("unexpected.toml"), spec.erase(at, spec.find('\n', at) - at));
  Ran r = sh(cli("table " + dir.file("unexpected.toml") + " " + kSpec + " -o " + dir.file("out")), true);
  CHECK(r.status == 1);
  CHECK(r.out.find("not SAFE") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("out")));
}

TEST_CASE("a transition UNSAFE as its expect says is a regression case of the table, not a certified sequence",
          "[output_table]") {
  TempDir dir;
  Ran r = sh(cli("table " + std::string(PATCHCHECK_TEST_DATA) + "/outputs/no-safe-order.toml -o " + dir.file("out")));
  REQUIRE(r.status == 0);
  json t = json::parse(readFile(dir.file("out/no-safe-order.json")));
  const json& target = t["targets"][0];
  CHECK(target["transitions"].empty());
  REQUIRE(target["regressions"].size() == 1);
  CHECK(target["regressions"][0]["kind"] == "transition");
  CHECK(target["regressions"][0]["verdict"] == "UNSAFE");
  CHECK_FALSE(target["regressions"][0].contains("steps"));
  std::string h = readFile(dir.file("out/no-safe-order.h"));
  CHECK(h.find("not certified: transition plain->framed is UNSAFE") != std::string::npos);
  CHECK(sh(cli("verify-table " + dir.file("out/no-safe-order.json") + " --spec " + std::string(PATCHCHECK_TEST_DATA) +
                 "/outputs/no-safe-order.toml")).status == 0);
  // The gate checks a regression case on every run, against the table.
  Ran g = sh(cli("gate --baseline " + dir.file("out") + " " + std::string(PATCHCHECK_TEST_DATA) +
                 "/outputs/no-safe-order.toml"));
  CHECK(g.status == 0);
  CHECK(g.out.find("a regression case (expected UNSAFE)") != std::string::npos);
}

TEST_CASE("an x86 table of a byte site with a body lists the site's instructions only", "[output_table]") {
  TempDir dir;
  std::string spec = std::string(PATCHCHECK_TEST_DATA) + "/soundness/x86-body-torn.toml";
  Ran r = sh(cli("table " + spec + " -o " + dir.file("out")));
  REQUIRE(r.status == 0);
  json t = json::parse(readFile(dir.file("out/x86-body-torn.json")));
  const json& target = t["targets"][0];
  // 66 90 and 85 c0: one instruction each; the body's six are not the site's.
  REQUIRE(target["states"].size() == 2);
  for (const json& state : target["states"]) {
    REQUIRE(state["instructions"].size() == 1);
    CHECK(state["instructions"][0]["length"] == 2);
  }
  CHECK(target["states"][1]["instructions"][0]["code"] == "85 c0");
  REQUIRE(target["transitions"].size() == 1);
  CHECK(target["transitions"][0]["name"] == "bp");
  REQUIRE(target["regressions"].size() == 1);
  CHECK(target["regressions"][0]["verdict"] == "UNSAFE");
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
            "int main(void) { u32 code[4];"
            " model_data_literal_mips32r6_o32_be_b_words(code, 0xffffffff80123458ull);"
            " printf(\"%08x %d %u %08x %08x\\n\", model_data_literal_mips32r6_o32_be_b_w0(0xffffffff80123458ull),"
            " model_data_literal_mips32r6_o32_be_unit_offset[0], model_data_literal_mips32r6_o32_be_unit_bytes[0],"
            " code[0], code[1]);"
            " return 0; }\n");
  // No array for a state with an address-dependent unit: its fixed bits would read as code.
  std::string h = readFile(dir.file("out/model-data-literal.h"));
  CHECK(h.find("model_data_literal_mips32r6_o32_be_b[") == std::string::npos);
  CHECK(h.find("#define MODEL_DATA_LITERAL_MIPS32R6_O32_BE_B_WORDS(u) {") != std::string::npos);
  Ran cc = sh("cd " + dir.path() + " && (cc -Wall -Wextra -Werror t.c -o t || c++ -x c++ -Wall -Werror t.c -o t) 2>&1 && ./t");
  INFO(cc.out);
  REQUIRE(cc.status == 0);
  CHECK(cc.out == "80123458 -4 4 80123458 ef2fffff\n");
}

namespace {

// GNU as and ld: the bytes of `lines` at F with the other symbols defined.
std::string gnuBytes(const TempDir& dir, const std::string& lines, const std::string& f, const std::string& t) {
  writeFile(dir.file("g.s"), "\t.text\n" + lines);
  Ran r = sh("cd " + dir.path() + " && as --64 g.s -o g.o && ld -nostdlib -e " + f + " -Ttext=" + f +
                 " --defsym F=" + f + " --defsym T=" + t + " g.o -o g.elf && objcopy -O binary -j .text g.elf g.bin",
             true);
  INFO("GNU as, ld, objcopy (Debian: binutils): " + r.out);
  REQUIRE(r.status == 0);
  std::string bin = readFile(dir.file("g.bin")), out;
  char b[4];
  for (unsigned char c : bin) snprintf(b, sizeof b, "%02x", c), out += (out.empty() ? "" : " ") + std::string(b);
  return out;
}

}  // namespace

TEST_CASE("an x86 table: byte arrays, instruction lengths and the call encoder, compiled by gcc, are GNU as's bytes",
          "[output_table]") {
  TempDir dir;
  writeFile(dir.file("spec.toml"), readFile(std::string(PATCHCHECK_TEST_DATA) + "/specs/tables/x86-calls.toml"));
  Ran r = sh("cd " + dir.path() + " && " + cli("table spec.toml -o out"), true);
  INFO(r.out);
  REQUIRE(r.status == 0);
  json t = json::parse(readFile(dir.file("out/tables-x86-calls.json")));
  CHECK(t["spec"]["bytes"] == 5);
  CHECK(t["certificate"]["model"]["fetch"] == "x86");
  CHECK(t["certificate"]["model"]["int3_handler"] == "emulate");
  const json& target = t["targets"][0];
  // The call's rel32 is a field, never bytes: the fixed opcode, then how it is formed.
  const json& call = target["states"][1]["instructions"][0];
  CHECK(call["fixed"] == "e8 ?? ?? ?? ??");
  CHECK_FALSE(call.contains("code"));
  CHECK(call["field"] == json::parse(R"({"at": 1, "bytes": 4, "kind": "pc32", "symbol": "T", "addend": 0,
      "formula": "S - P", "fits": "signed", "text": "T", "slot_symbol": "F", "slot_addend": 5})"));
  // text_poke_bp as rows: the int3, each range once, each sync_core.
  const json& steps = target["transitions"][1]["steps"];
  REQUIRE(steps.size() == 6);
  CHECK(steps[0] == json::parse(R"({"op": "write", "index": 0, "bytes": 1, "interim": true, "text": "int3", "code": "cc"})"));
  CHECK(steps[1]["op"] == "sync_core");
  CHECK(steps[2] == json::parse(R"({"op": "write", "index": 1, "bytes": 4, "text": "call T"})"));
  CHECK(target["transitions"][0]["steps"][0]["bytes"] == 5);  // boot: write 0..4, one row
  Ran ok = sh("cd " + dir.path() + " && " + cli("verify-table out/tables-x86-calls.json"), true);
  INFO(ok.out);
  CHECK(ok.status == 0);
  CHECK(ok.out.find("OK: bytes, order, digests and verdicts") != std::string::npos);
  {  // A byte changed by hand, or a range cut short, is named where it differs.
    json bad = t;
    bad["targets"][0]["states"][0]["instructions"][0]["code"] = "0f 1f 44 00 01";
    bad["targets"][0]["transitions"][1]["steps"][2]["bytes"] = 3;
    writeFile(dir.file("bad.json"), bad.dump(2) + "\n");
    Ran v = sh("cd " + dir.path() + " && " + cli("verify-table bad.json --spec spec.toml"), true);
    INFO(v.out);
    CHECK(v.status == 1);
    CHECK(v.out.find("differs at /targets/0/states/0/instructions/0/code: table has \"0f 1f 44 00 01\", re-derived "
                     "\"0f 1f 44 00 00\"") != std::string::npos);
    CHECK(v.out.find("/targets/0/transitions/1/steps/2/bytes") != std::string::npos);
  }

  // The header under gcc: unused, it compiles without a warning; used, it prints what a patcher would store.
  writeFile(dir.file("u.c"), "#include \"out/tables-x86-calls.h\"\nint unused(void) { return 0; }\n");
  Ran unused = sh("cd " + dir.path() + " && gcc -c -std=gnu11 -Wall -Wextra -Wunused-const-variable -Werror u.c -o u.o", true);
  INFO(unused.out);
  CHECK(unused.status == 0);
  const std::string F = "0xffffffff81000000", T = "0xffffffffa0001000";
  writeFile(dir.file("t.c"), R"(#include <stdio.h>
#include "out/tables-x86-calls.h"
static void bytes(const char *name, const u8 *b, unsigned n)
{
	printf("%s %u", name, n);
	for (unsigned i = 0; i < n; i++)
		printf("%s%02x", i ? " " : ":", b[i]);
	printf("\n");
}
int main(void)
{
	u8 call[TABLES_X86_CALLS_X86_64_SYSV_LE_BYTES] = { 0 };
	bytes("nop", tables_x86_calls_x86_64_sysv_le_nop, sizeof(tables_x86_calls_x86_64_sysv_le_nop));
	bytes("skip", tables_x86_calls_x86_64_sysv_le_skip, sizeof(tables_x86_calls_x86_64_sysv_le_skip));
	bytes("nop2", tables_x86_calls_x86_64_sysv_le_nop2, sizeof(tables_x86_calls_x86_64_sysv_le_nop2));
	printf("nop2 insns %u: %u+%u %u+%u\n", (unsigned)(sizeof(tables_x86_calls_x86_64_sysv_le_nop2_insns) / 4),
	       tables_x86_calls_x86_64_sysv_le_nop2_insns[0][0], tables_x86_calls_x86_64_sysv_le_nop2_insns[0][1],
	       tables_x86_calls_x86_64_sysv_le_nop2_insns[1][0], tables_x86_calls_x86_64_sysv_le_nop2_insns[1][1]);
	printf("call rc %d\n", tables_x86_calls_x86_64_sysv_le_call(call, )" + F + R"(ull, )" + T + R"(ull));
	bytes("call", call, sizeof(call));
	/* T 2 GiB + 1 past F's end: no rel32 reaches it, and nothing is written */
	printf("far rc %d\n", tables_x86_calls_x86_64_sysv_le_call(call, 0x1000ull, 0x1005ull + 0x80000000ull));
	bytes("call", call, sizeof(call));
	for (unsigned i = 0; i < 6; i++)
		printf("step %08x %u %02x\n", tables_x86_calls_x86_64_sysv_le_nop_to_call[i][0],
		       tables_x86_calls_x86_64_sysv_le_nop_to_call[i][1], tables_x86_calls_x86_64_sysv_le_nop_to_call[i][2]);
	return 0;
}
)");
  Ran cc = sh("cd " + dir.path() + " && gcc -std=gnu11 -Wall -Wextra -Werror t.c -o t 2>&1 && ./t", true);
  INFO(cc.out);
  REQUIRE(cc.status == 0);
  // GNU as's bytes for the same lines (the spec's states) at the same F and T.
  std::string nop = gnuBytes(dir, "\t{disp8} nopl 0x0(%rax,%rax,1)\n", F, T);
  std::string skip = gnuBytes(dir, "\tjmp F + 5\n", F, T);
  std::string nop2 = gnuBytes(dir, "\tnop\n\t{disp8} nopl 0x0(%rax)\n", F, T);
  std::string gnuCall = gnuBytes(dir, "\tcall T\n", F, T);
  CHECK(nop == "0f 1f 44 00 00");      // docs/semantics-x86.md: x86_nops[5]
  CHECK(gnuCall == "e8 fb 0f 00 1f");  // T - (F + 5)
  std::string want = "nop 5:" + nop + "\nskip 5:" + skip + "\nnop2 5:" + nop2 + "\nnop2 insns 2: 0+1 1+4\n" +
                     "call rc 0\ncall 5:" + gnuCall + "\nfar rc -1\ncall 5:" + gnuCall + "\n" +
                     "step 0c000000 1 cc\nstep 0d000000 0 00\nstep 0b000001 4 00\nstep 0d000000 0 00\n"
                     "step 0b000000 1 00\nstep 0d000000 0 00\n";
  CHECK(cc.out == want);
}

TEST_CASE("two transitions between the same states: an array each in a header that compiles; a table that "
          "repeats a name is refused",
          "[output_table]") {
  TempDir dir;
  writeFile(dir.file("spec.toml"), readFile(std::string(PATCHCHECK_TEST_DATA) + "/specs/tables/x86-same-states.toml"));
  Ran r = sh("cd " + dir.path() + " && " + cli("table spec.toml -o out"), true);
  INFO(r.out);
  REQUIRE(r.status == 0);
  json t = json::parse(readFile(dir.file("out/tables-x86-same-states.json")));
  const json& trs = t["targets"][0]["transitions"];
  REQUIRE(trs.size() == 3);
  CHECK(trs[0]["name"] == "at_boot");
  CHECK(trs[1]["name"] == "text_poke_bp");
  CHECK(trs[2]["name"] == "call->nop");  // derived: as before names
  // Each transition its own array (a derived name keeps PREFIX_FROM_to_TO), used so -Werror sees them.
  writeFile(dir.file("t.c"), R"(#include <stdio.h>
#include "out/tables-x86-same-states.h"
int main(void)
{
	printf("%u %u %u\n", (unsigned)(sizeof(tables_x86_same_states_x86_64_sysv_le_at_boot) / 12),
	       (unsigned)(sizeof(tables_x86_same_states_x86_64_sysv_le_text_poke_bp) / 12),
	       (unsigned)(sizeof(tables_x86_same_states_x86_64_sysv_le_call_to_nop) / 12));
	return 0;
}
)");
  Ran cc = sh("cd " + dir.path() + " && gcc -std=gnu11 -Wall -Wextra -Werror t.c -o t 2>&1 && ./t", true);
  INFO(cc.out);
  REQUIRE(cc.status == 0);
  CHECK(cc.out == "2 6 6\n");  // boot: write 0..4 and its sync_core; text_poke_bp: six
  CHECK(sh("cd " + dir.path() + " && " + cli("verify-table out/tables-x86-same-states.json"), true).status == 0);
  // A table that names two transitions alike (as tables did before names)
  // cannot be matched by name: verify-table and gate refuse it.
  json dup = t;
  dup["targets"][0]["transitions"][1]["name"] = "at_boot";
  writeFile(dir.file("dup.json"), dup.dump(2) + "\n");
  Ran v = sh("cd " + dir.path() + " && " + cli("verify-table dup.json --spec spec.toml"), true);
  INFO(v.out);
  CHECK(v.status == 2);
  CHECK(v.out.find("transition name \"at_boot\" is in this target twice") != std::string::npos);
}
